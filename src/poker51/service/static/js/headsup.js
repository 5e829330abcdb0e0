// The heads-up screen: tap cards to keep (the draw count is shown), the legal actions only,
// Draw / Stand pat, the draw-odds panel for the selected keep, Riemann's words, the result, and
// "Check the deck" once the seed is published.  A selection not yet locked is kept for the hand
// in sessionStorage, so a reload shows it again; everything else comes from the server's view.
import { RoomSocket } from "./socket.js";
import { cardRow } from "./cards.js";
import { checkSeed } from "./deck.js";
import { el, whole } from "./ui.js";

const ACTION_LABEL = { check: "Check", bet: "Bet", call: "Call", raise: "Raise", fold: "Fold" };
const PHASE = { pre: "before the draw", draw: "the draw", post: "after the draw", done: "the hand is over" };

export function headsUpScreen(root, roomId, setBank) {
  let view = null, keep = 0, keepHand = null, odds = null, error = "", check = null;
  const sock = new RoomSocket(roomId, (f) => {
    if (f.type === "welcome" || f.type === "view") { view = f.view; if (f.bank !== null) setBank(f.bank); }
    else if (f.type === "event" && f.event.type === "state" && !f.replayed) { view = f.event.view; }
    else if (f.type === "ack") { setBank(f.bank); error = ""; }
    else if (f.type === "answer" && f.what === "odds") { odds = f; }
    else if (f.type === "error") { error = `${f.detail}${f.rule ? " [" + f.rule + "]" : ""}`; }
    if (f.type === "error" && f.code === "stale_turn") sock.raw({ type: "view" });
    render();
  });

  const keyOf = (id) => `poker51-keep:${id}`;
  function syncKeep(h) {  // the unlocked selection of this hand, kept across a reload
    if (!h || h.id === keepHand) return;
    keepHand = h.id; odds = null; check = null;
    keep = Number(sessionStorage.getItem(keyOf(h.id)) || 0);
    if (h.view && h.view.needs_keep && h.view.phase === "pre" && h.view.cards) askOdds();
  }
  function setKeep(k) { keep = k; sessionStorage.setItem(keyOf(keepHand), String(k)); askOdds(); render(); }
  function askOdds() { odds = null; sock.query("odds", { keep }); }

  async function doCheck(h, v) {
    check = { pending: true };
    render();
    try {
      const r = await checkSeed(h.seed, h.commitment, view.variant);
      const drawn = 10 + (v.draw_count || 0) + (v.opp_draw_count || 0);
      const dealt = new Set(r.deck.slice(0, drawn));
      const shown = [...(v.result.hands.H || []), ...(v.result.hands.R || [])];
      r.cardsOk = shown.every((c) => dealt.has(c));
      check = r;
    } catch (e) { check = { error: e.message }; }
    render();
  }

  function render() {
    root.innerHTML = "";
    if (!view) { root.textContent = "Connecting…"; return; }
    const h = view.hand, v = h && h.view;
    const drew = (n) => (v && (v.phase === "pre" || v.phase === "draw") ? `draws ${n}` : `drew ${n}`);
    syncKeep(h);
    root.append(el("h2", {}, `Heads-up against Riemann`),
      el("p", { class: "muted" }, `Rules ${h ? h.rules : view.rules} · ${view.variant}` + (view.seat ? "" : " · you are watching")));
    if (v) {
      const mine = view.seat !== null;
      const choosing = mine && v.needs_keep && v.phase === "pre";
      const theirs = v.result ? v.result.hands.R : [null, null, null, null, null];
      root.append(el("div", { class: "panel", id: "riemann" },
        el("p", {}, `Riemann · ${whole(v.opp_stack)}` + (v.opp_contributed ? ` · in pot ${v.opp_contributed}` : "") +
          (v.opp_draw_count !== null ? ` · ${drew(v.opp_draw_count)}` : "")),
        cardRow(theirs),
        el("p", { class: "words" }, (h.said || []).map((s) => "“" + s.text + "”").join(" "))));
      root.append(el("p", { id: "pot" }, `Pot ${whole(v.pot)}` + (v.to_call ? ` · to call ${v.to_call}` : "") + ` · ${PHASE[v.phase] || v.phase}`));
      const locked = v.keep !== null && v.keep !== undefined;
      const cards = v.cards || [null, null, null, null, null];
      const row = cardRow(cards, (c, i) => ({
        kept: choosing ? Boolean((keep >> i) & 1) : locked && Boolean((v.keep >> i) & 1) && v.phase !== "post" && !v.result,
        onTap: choosing ? () => setKeep(keep ^ (1 << i)) : null,
      }));
      row.id = "mine";
      root.append(el("div", { class: "panel" },
        el("p", {}, `You · ${whole(v.stack)}` + (v.contributed ? ` · in pot ${v.contributed}` : "") +
          (v.draw_count !== null ? ` · ${drew(v.draw_count)}` : "")), row));
      if (choosing) {
        const n = [0, 1, 2, 3, 4].filter((i) => (keep >> i) & 1).length;
        root.append(el("p", { id: "keepnote" }, `Tap the cards to keep. You keep ${n}: you will draw ${5 - n}. Your first action locks it.`));
        if (odds && odds.keep === keep) {
          const t = el("table", { class: "odds", id: "odds" });
          Object.entries(odds.counts).filter(([, k]) => k > 0).forEach(([cat, k]) => {
            const r = t.insertRow();
            r.insertCell().textContent = cat.replace(/_/g, " ");
            const c = r.insertCell(); c.className = "n"; c.textContent = (100 * k / odds.total).toFixed(2) + "%";
          });
          root.append(el("div", { class: "panel" }, el("p", { class: "muted" },
            `Your final hand over all ${odds.total.toLocaleString("en")} draws of ${odds.draw} from the unseen cards (categories, not chances to win):`), t));
        }
      } else if (locked && !v.result && mine) {
        root.append(el("p", { class: "muted" }, `Your keep is locked: you draw ${5 - [0, 1, 2, 3, 4].filter((i) => (v.keep >> i) & 1).length}.`));
      }
      const acts = el("div", { class: "actions", id: "actions" });
      for (const a of mine ? v.legal || [] : []) {
        if (a.kind === "draw") continue;
        const sized = a.amount !== null && a.amount !== undefined && a.kind !== "fold" && a.kind !== "check";
        const allIn = sized && a.amount >= v.stack;  // an action's amount is the jbits it puts in
        const label = (ACTION_LABEL[a.kind] || a.kind) + (sized ? ` ${a.amount}` : "") + (allIn ? " · all in" : "");
        acts.append(el("button", { "data-act": a.kind, onclick: () => sock.command("act", { kind: a.kind, amount: a.amount, ...(v.needs_keep ? { keep } : {}) }) }, label));
      }
      if (h.can_draw) acts.append(el("button", { class: "primary", "data-act": "draw", onclick: () => sock.command("draw") }, v.keep === 31 ? "Stand pat" : "Draw"));
      root.append(acts);
      if (v.result) {
        const who = { H: "You win", R: "Riemann wins" }[v.result.winner] || "Split pot";
        const net = v.result.net.H;
        const panel = el("div", { class: "panel", id: "result" },
          el("p", {}, `${who} (${v.result.reason}) · your net ${net >= 0 ? "+" : ""}${whole(net)}`),
          el("p", { class: "muted" }, "Deck commitment (published at the deal)"), el("p", { class: "mono" }, h.commitment));
        if (h.seed) {
          panel.append(el("p", { class: "muted" }, "Seed (published at the end)"), el("p", { class: "mono" }, h.seed),
            el("button", { id: "check-deck", onclick: () => doCheck(h, v) }, "Check the deck"));
          if (check && check.pending) panel.append(el("p", {}, "Checking…"));
          else if (check && check.error) panel.append(el("p", { class: "bad" }, `Cannot check: ${check.error}`));
          else if (check) {
            const good = check.ok && check.cardsOk;
            panel.append(el("p", { class: good ? "ok" : "bad", id: "check-result" },
              good ? "Match: SHA-256 of the seed is the commitment, and the seed deals these cards."
                : check.ok ? "Mismatch: the seed matches its commitment but does not deal the cards shown."
                  : "Mismatch: SHA-256 of the seed is not the commitment."),
            el("p", { class: "muted" }, `Computed with ${check.by}: `), el("p", { class: "mono" }, check.computed));
          }
        }
        root.append(panel);
      } else {
        root.append(el("p", { class: "muted" }, "Deck commitment"), el("p", { class: "mono", id: "commitment" }, h.commitment));
      }
    }
    if (view.can_deal) root.append(el("div", { class: "actions" }, el("button", { class: "primary", "data-act": "deal", onclick: () => { error = ""; sock.command("deal"); } }, v ? "Deal the next hand" : "Deal")));
    if (error) root.append(el("p", { class: "error", id: "error" }, error));
    root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
  }
  render();
  return sock;
}
