// A card-room hand replayed in the browser (the rule book's article IX.5), from its archived log
// (GET /api/hands/<id>, format poker51-cardroom/1: the engine's record of the hand, written when
// it ended, with its seed), and "Check the deck": the seed's SHA-256 (deck.js, Web Crypto where
// the browser offers it) against the commitment published before the hand, and the seed's shuffle
// against the cards of the log.  The replay lists every post, card, action and show in order, in
// words; the page adds no rule: it reads the record.
//
// The commitment a hand is checked against is the one this browser saw at the table before the
// hand (remembered in localStorage per room and hand, as the five-seat page does); a browser that
// did not see it checks against the log's own commit line and says so.
import { checkBookSeed } from "./deck.js";
import { cardRow, cardText } from "./cards.js";
import { el } from "./ui.js";

/** The rule book's games (seed 003) as the card room names them. */
export const GAME_TITLES = {
  holdem: "Texas Hold'em", omaha: "OG Omaha", omaha5: "Omaha (5 Cards)", omaha3: "Omaha (3 Cards)",
  omaha_open: "Omaha (Open Flop)", three_sets: "3 Sets", random: "Random",
};
const ROUNDS = { preflop: "before the flop", flop: "on the flop", turn: "on the turn", river: "on the river", final: "after the laying (3 Sets)" };
const STREETS = { flop: "Flop", turn: "Turn", river: "River" };
const BOARD = ["A", "B", "C"];  // 3 Sets' boards (7.6)
const ADVANCE = { fold: "fold", check_fold: "check/fold", check: "check", call: "call" };
/** A board's name: A, B, C when there are three (3 Sets), else its number. */
const boardName = (k, boards) => (boards === 3 ? BOARD[k] : String(k + 1));

export const commitKey = (room, hand) => `poker51-commit:${room}:${hand}`;
/** Remember a hand's commitment the first time this browser sees it (before the hand's seed is out). */
export function rememberCommitment(room, hand, commitment) {
  if (room && hand && commitment && !localStorage.getItem(commitKey(room, hand))) localStorage.setItem(commitKey(room, hand), commitment);
}
export const remembered = (room, hand) => localStorage.getItem(commitKey(room, hand));

/** "You" for this page's account, else "Player <id[1:5]>" (the card room names accounts by id). */
// the display names the room's frames carry (`names`: account id -> name), kept by the table page
let NAMES = {};
export const setNames = (names) => { if (names) NAMES = { ...NAMES, ...names }; };
export const playerName = (account, me) => (account === me ? "You" : NAMES[account] || "Player " + String(account).slice(1, 5));
const cardsText = (xs) => (xs || []).map(cardText).join(" ");
const chips = (n) => `${n} chip${Number(n) === 1 ? "" : "s"}`;

/** One record of the hand in words (an engine event: {"event": ..., "player": ...}). */
export function describe(e, me, boards = 1) {
  const who = playerName(e.player, me), you = e.player === me;
  const does = (verb) => (you ? `You ${verb}` : `${who} ${verb}s`);
  const allIn = e.all_in ? " (all in)" : "";
  switch (e.event) {
    case "small_blind": return `${does("post")} the small blind, ${chips(e.amount)}${allIn}.`;
    case "big_blind": return `${does("post")} the big blind, ${chips(e.amount)}${allIn}.`;
    case "ante": return `${does("ante")} ${chips(e.amount)}${allIn}.`;
    case "hole": return e.cards && you ? `You are dealt ${cardsText(e.cards)}.` : `${who} is dealt ${e.cards ? e.cards.length : "their"} cards.`;
    case "round": return `Betting ${ROUNDS[e.round] || e.round}.`;
    case "board": return `${STREETS[e.street] || e.street}${boards > 1 ? ` (board ${boardName(e.board, boards)})` : ""}: ${cardsText(e.cards)}.`;
    case "action": {
      // 8.5: a choice made in advance, played when the action came
      const late = (e.timeout ? " (time-out)" : "") + (e.advance ? ` (chosen in advance: ${ADVANCE[e.advance] || e.advance})` : "");
      if (e.action === "fold" || e.action === "check") return `${does(e.action)}${late}.`;
      if (e.action === "call") return `${does("call")} ${chips(e.chips)}${allIn}${late}.`;
      if (e.action === "bet") return `${does("bet")} ${chips(e.to)}${allIn}${late}.`;
      if (e.action === "raise") return `${does("raise")} to ${e.to}${allIn}${late}.`;
      return `${does(e.action)}${e.to ? " to " + e.to : ""}${allIn}${late}.`;
    }
    case "lay": {  // a laying is secret until the showdown: only the viewer's own is named here
      const late = e.timeout ? " (the default laying, on time-out)" : "";
      if (you && e.sets) return `You lay ${e.sets.map((p, b) => `${BOARD[b]}: ${cardsText(p)}`).join(" · ")}${late}.`;
      return `${does("lay")} ${you ? "your" : "their"} cards on the three boards${late}.`;
    }
    case "sit_out": return `${you ? "You sit" : who + " sits"} out${e.reason ? ` (${e.reason})` : ""}.`;
    case "leave": return `${does("leave")} the table (the hand is folded).`;
    case "advance_discarded": return `${you ? "Your" : who + "'s"} choice made in advance (${e.choice}) was not legal when the action came: discarded.`;
    default: {
      const parts = Object.entries(e).filter(([k]) => k !== "event").map(([k, v]) => `${k} ${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`);
      return `${e.event}: ${parts.join(" · ")}`;
    }
  }
}

/** A show or muck at the showdown, in words. */
export function describeShow(s, me) {
  const who = playerName(s.player, me);
  if (!s.shown) return `${s.player === me ? "You muck" : who + " mucks"}${s.timeout ? " (time-out)" : ""}.`;
  const cat = s.category ? `: ${String(s.category).replace(/_/g, " ")}` : "";
  // 3 Sets: the laying, shown at the showdown, board by board
  const sets = s.sets ? `: ${s.sets.map((x, b) => `${BOARD[b]} ${cardsText(x.cards)}${x.category ? ` (${String(x.category).replace(/_/g, " ")})` : ""}`).join(" · ")}` : "";
  return `${s.player === me ? "You show" : who + " shows"} ${cardsText(s.cards)}${cat}${s.best ? ` (${cardsText(s.best)})` : ""}${sets}.`;
}

/** A pot of the hand's result, in words. */
export function describePot(p, k, n, me) {
  const winners = (p.winners || []).map((w) => playerName(w, me)).join(" and ");
  return `${n > 1 ? `Pot ${k + 1}` : "The pot"}: ${chips(p.amount)} to ${winners || "nobody"}${p.rake ? `, rake ${p.rake}` : ", no rake"}.`;
}

/** Check a card-room hand: {ok, computed, published, by, cardsOk}: SHA-256 of the seed against
 * `published`, and (when the record is given) the seed's first cards_dealt cards against the cards
 * of the record (hole cards, burns, boards: the same cards, in the rule book's deal order). */
export async function checkHand(seedHex, published, rec = null) {
  const r = await checkBookSeed(seedHex, published);
  if (!rec) return { ...r, cardsOk: null };
  const dealt = [...Object.values(rec.hole || {}).flat(), ...(rec.burns || []), ...(rec.boards || []).flat()];
  const top = r.deck.slice(0, rec.cards_dealt);
  const cardsOk = dealt.length === rec.cards_dealt && [...dealt].sort().join(",") === [...top].sort().join(",");
  return { ...r, cardsOk };
}

/** The commitment to check a hand against: {commitment, seen}: the one this browser saw at the table, else `fallback`. */
export function publishedBefore(room, hand, fallback) {
  const seen = remembered(room, hand);
  return { commitment: seen || fallback, seen: Boolean(seen) };
}

/** The result of a check as page elements (in #check-result). */
export function checkResult(c, seen, withCards) {
  if (c.error) return [el("p", { class: "bad" }, `Cannot check: ${c.error}`)];
  const where = seen ? "the commitment this page saw before the hand" : "the commitment of the log's commit line (this browser did not see the hand at the table)";
  const good = c.ok && (!withCards || c.cardsOk) && c.lineOk !== false;
  const text = good
    ? `Match: SHA-256 of the seed is ${where}` + (withCards ? ", and the seed's shuffle deals exactly the cards of this log." : ".")
    : !c.ok ? `Mismatch: SHA-256 of the seed is not ${where}.`
      : c.lineOk === false ? "Mismatch: the log's commit line is not the commitment this page saw before the hand."
        : "Mismatch: the seed's shuffle does not deal the cards of this log.";
  return [el("p", { class: good ? "ok" : "bad" }, text), el("p", { class: "muted" }, `SHA-256 computed with ${c.by}:`), el("p", { class: "mono" }, c.computed)];
}

/** The page of one card-room hand: its seats, the deck check and the replay, action by action. */
export function cardRoomHandScreen(root, h, me) {
  root.innerHTML = "";
  const log = h.log || {}, rec = log.record || {}, commitLine = (log.commit || {}).commitment;
  const number = rec.hand;
  const title = GAME_TITLES[rec.game] || rec.game;
  root.append(el("h2", {}, `${title} · hand ${number}`),
    el("p", { class: "muted" }, `Card room ${log.practice ? "(practice) " : ""}· rules ${h.rules} · `,
      el("a", { href: `/?room=${encodeURIComponent(h.room)}`, id: "back-to-table" }, "back to the table")),
    el("p", { class: "muted" }, log.edition || ""));
  const seats = el("ul", { class: "log", id: "log-seats" });
  for (const s of rec.seats || []) {
    seats.append(el("li", {}, `Seat ${s.seat + 1}: ${playerName(s.name, me)}, ${chips(s.stack)}` + (rec.button === s.name ? " · the button" : "")));
  }
  root.append(el("div", { class: "panel" }, el("p", {}, `Blinds ${rec.big_blind / 2}/${rec.big_blind} · the seats at the deal (from the seat left of the button):`), seats));
  (rec.boards || []).forEach((b, k, all) => {
    root.append(el("p", { class: "muted" }, all.length > 1 ? `Board ${boardName(k, all.length)}` : "The board"));
    if (b.length) { const row = cardRow(b); row.classList.add("small"); root.append(row); }
  });
  const { commitment, seen } = publishedBefore(h.room, number, commitLine);
  const out = el("div", { id: "check-result" });
  async function check() {
    out.innerHTML = "";
    out.append(el("p", {}, "Checking…"));
    let c;
    try { c = { ...(await checkHand(rec.seed, commitment, rec)), lineOk: !seen || commitLine === commitment }; }
    catch (e) { c = { error: e.message }; }
    out.innerHTML = "";
    out.append(...checkResult(c, seen, true));
  }
  root.append(el("div", { class: "panel" },
    el("p", { class: "muted" }, seen ? "Commitment (SHA-256 of the seed) this page saw before the hand" : "Commitment (SHA-256 of the seed) published before the hand, from the log"),
    el("p", { class: "mono", id: "log-commitment" }, commitment || "(none)"),
    el("p", { class: "muted" }, "Seed (published after the hand)"), el("p", { class: "mono", id: "log-seed" }, rec.seed || "(none)"),
    el("button", { id: "check-deck", onclick: check }, "Check the deck"), out));
  const steps = (rec.events || []).map((e) => describe(e, me, (rec.boards || []).length));
  for (const s of rec.shows || []) steps.push(describeShow(s, me));
  (rec.pots || []).forEach((p, k, all) => steps.push(describePot(p, k, all.length, me)));
  for (const [who, n] of Object.entries(rec.returned || {})) if (n) steps.push(`${chips(n)} not called returned to ${playerName(who, me)}.`);
  steps.push("Stacks after the hand: " + Object.entries(rec.stacks || {}).map(([who, n]) => `${playerName(who, me)} ${n}`).join(" · ") + ".");
  root.append(el("h2", {}, "The hand, action by action"), el("ol", { class: "log", id: "hand-log" }, steps.map((s) => el("li", {}, s))));
  root.append(el("p", { class: "muted" }, "The log holds every card dealt (the burns and mucked hands too) for the check; this replay shows only your cards and the cards shown at the table."));
  root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
}
