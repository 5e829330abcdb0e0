// The player's history (GET /api/history: their finished hands, newest first) and a hand's log
// (GET /api/hands/<id>: written only when the hand has ended, deck included), with "Check the
// deck" on the log: the seed's SHA-256 against the commitment and the seed's shuffle against the
// deck the log shows (heads-up), or the deck and salt against the commitment (five-seat).  A
// card-room hand's log is replayed by cardlog.js.
import { history, handLog } from "./api.js";
import { checkDeck, checkSeed } from "./deck.js";
import { el, jbits } from "./ui.js";
import { cardRoomHandScreen } from "./cardlog.js";

const KINDS = { headsup: "Heads-up", fiveseat: "Five-seat", cardroom: "Card room" };

export async function historyScreen(root) {
  root.innerHTML = "";
  root.append(el("h2", {}, "Your hands"));
  const rows = await history();
  if (!rows.length) root.append(el("p", { class: "muted" }, "No finished hand yet."));
  const ul = el("ul", { class: "log", id: "history" });
  for (const r of rows) {
    const net = (r.net >= 0 ? "+" : "-") + jbits(Math.abs(r.net));  // cents
    ul.append(el("li", {}, el("a", { href: `/?hand=${encodeURIComponent(r.hand)}`, "data-hand": r.hand },
      `${KINDS[r.kind] || r.kind} · hand ${r.hand}`), ` · ${r.rules} · net ${r.kind === "cardroom" ? `${r.net >= 0 ? "+" : ""}${r.net} chips` : net}` +
      (r.ended ? ` · ${new Date(r.ended * 1000).toLocaleString()}` : "")));
  }
  root.append(ul, el("p", {}, el("a", { href: "/" }, "Lobby")));
}

const WHO = { H: "You", R: "Riemann" };
const ROUND = { pre: "Before the draw", post: "After the draw" };
const cards = (xs) => (xs || []).join(" ");

/** One engine log record in words (heads-up); any other record as its fields. */
export function describe(e) {
  switch (e.event) {
    case "hand": return `Hand dealt under rules ${e.rules} (${e.variant}); stacks: you ${e.stacks.H}, Riemann ${e.stacks.R}.`;
    case "ante": return `Antes ${e.amount} each; pot ${e.pot}.`;
    case "deal": return `You: ${cards(e.H)} · Riemann: ${cards(e.R)}.`;
    case "action": {
      const amount = e.kind === "check" || e.kind === "fold" ? "" : ` ${e.amount}`;
      return `${ROUND[e.round] || e.round}: ${WHO[e.seat]} ${e.kind}${e.seat === "R" ? "s" : ""}${amount}${e.all_in ? " (all in)" : ""} · pot ${e.pot}.`;
    }
    case "draw": return `${WHO[e.seat]} draw${e.seat === "R" ? "s" : ""} ${e.count}` + (e.count ? `: ${cards(e.discarded)} out, ${cards(e.drawn)} in` : " (stand pat)") + ` · ${cards(e.hand)}.`;
    case "showdown": return `Showdown: you ${(e.H.category || "").replace(/_/g, " ")} (${cards(e.H.hand)}) · Riemann ${(e.R.category || "").replace(/_/g, " ")} (${cards(e.R.hand)}).`;
    case "result": {
      const who = { H: "You win", R: "Riemann wins" }[e.winner] || "Split pot";
      return `${who} (${e.reason}); your net ${e.net.H >= 0 ? "+" : ""}${e.net.H}, stacks: you ${e.stacks.H}, Riemann ${e.stacks.R}.`;
    }
    default: {
      const parts = Object.entries(e).filter(([k]) => k !== "event").map(([k, v]) => `${k} ${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`);
      return `${e.event}: ${parts.join(" · ")}`;
    }
  }
}

export async function handScreen(root, handId, me = {}) {
  root.innerHTML = "";
  const h = await handLog(handId);
  const log = h.log || {};
  if (h.kind === "cardroom" || log.format === "poker51-cardroom/1") return cardRoomHandScreen(root, h, me.account);
  // the heads-up log is the engine's text (one JSON object a line); a list or `events` is read as is
  const events = Array.isArray(log) ? log : typeof log.text === "string"
    ? log.text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)) : log.events || [];
  root.append(el("h2", {}, `Hand ${h.hand}`), el("p", { class: "muted" }, `Rules ${h.rules} · room `, el("a", { href: `/?room=${encodeURIComponent(h.room)}` }, h.room)));
  const out = el("div", { id: "check-result" });
  const dealt = events.find((e) => e.event === "hand");
  const reveal = events.find((e) => e.event === "reveal");
  async function check() {
    out.innerHTML = "";
    try {
      if (log.seed && dealt && dealt.deck) {
        const r = await checkSeed(log.seed, log.commitment, dealt.variant || "standard");
        const same = r.deck.join(",") === dealt.deck.join(",");
        out.append(el("p", { class: r.ok && same ? "ok" : "bad" }, r.ok && same
          ? "Match: the seed hashes to the commitment and shuffles to the deck of this log."
          : !r.ok ? "Mismatch: the seed does not hash to the commitment." : "Mismatch: the seed does not shuffle to the deck of this log."),
        el("p", { class: "muted" }, `SHA-256 computed with ${r.by}:`), el("p", { class: "mono" }, r.computed));
      } else if (reveal && dealt && dealt.commitment) {
        const r = await checkDeck(reveal.deck, reveal.salt, dealt.commitment);
        out.append(el("p", { class: r.ok ? "ok" : "bad" }, r.ok ? "Match: the deck and salt hash to the commitment." : "Mismatch: the deck and salt do not hash to the commitment."),
          el("p", { class: "mono" }, r.computed));
      } else out.append(el("p", { class: "muted" }, "This log holds no deck to check."));
    } catch (e) { out.append(el("p", { class: "bad" }, `Cannot check: ${e.message}`)); }
  }
  if (log.commitment) root.append(el("p", { class: "muted" }, "Commitment"), el("p", { class: "mono" }, log.commitment));
  if (log.seed) root.append(el("p", { class: "muted" }, "Seed"), el("p", { class: "mono" }, log.seed));
  root.append(el("button", { id: "check-deck", onclick: check }, "Check the deck"), out);
  root.append(el("ol", { class: "log", id: "hand-log" }, events.map((e) => el("li", {}, describe(e)))));
  root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
}
