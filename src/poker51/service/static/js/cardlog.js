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
//
// The deck check re-deals the hand from the seed as the engine does (poker51.rulebook.hand,
// recomputed by poker51.rulebook.log.check_log): the 52 cards shuffled by the seed, dealt from the
// top: hole cards one at a time, round after round, from the seat left of the button (the log's
// `seats` order) until each holds the game's number; then for each street dealt a burn (none in
// 3 Sets) and the street's cards on each board (the flop three, the turn and the river one; 3 Sets'
// three flops at once, then A, B, C's turns, then their rivers).  Every card is compared with the
// log's, in that order; the first that differs is named (whose hole card, which burn, which board
// and street).  Cards the replay does not show (others' unshown hole cards, burns) are named by
// their place only.  A Random block's game is drawn again from the block's seed (7.7).
import { checkBookSeed, permute, sha256Hex, unhex } from "./deck.js";
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
/** A Random block's rotation commitment (7.7), remembered the same way under its own key. */
export const rotationKey = (room, hand) => `poker51-rotation:${room}:${hand}`;
export function rememberRotation(room, hand, commitment) {
  if (room && hand && commitment && !localStorage.getItem(rotationKey(room, hand))) localStorage.setItem(rotationKey(room, hand), commitment);
}

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

/** The rule book's games as the deal needs them (poker51.rulebook.games.GAMES: hole cards each,
 * boards, burns; the browser test compares them with Python's). */
export const DEAL_RULES = {
  holdem: { hole: 2, boards: 1, burns: true },
  omaha: { hole: 4, boards: 1, burns: true },
  omaha5: { hole: 5, boards: 1, burns: true },
  omaha3: { hole: 4, boards: 1, burns: true },
  omaha_open: { hole: 4, boards: 1, burns: true },
  three_sets: { hole: 6, boards: 3, burns: false },
};
/** Random's games (poker51.rulebook.games.RANDOM_GAMES), in order: the draw's candidates keep it. */
export const RANDOM_GAMES = ["omaha", "omaha5", "omaha3", "omaha_open", "three_sets"];
const STREET_OF = ["flop", "turn", "river"];
/** Streets dealt from a board's length (check_log's rule: 0, 3, 4 or 5 cards). */
const STREETS_BY_LENGTH = { 0: 0, 3: 1, 4: 2, 5: 3 };

/** What each card from the top of the deck becomes (poker51.rulebook.log.deal_order), for
 * `streets` streets: {kind: "hole", player, index} | {kind: "burn", index, street} |
 * {kind: "board", board, index, street}. */
export function dealOrder(game, names, streets) {
  const g = DEAL_RULES[game];
  if (!g) throw new Error(`unknown game ${game}`);
  const out = [];
  for (let k = 0; k < g.hole; k += 1) for (const player of names) out.push({ kind: "hole", player, index: k });
  for (let s = 0; s < streets; s += 1) {
    if (g.burns) out.push({ kind: "burn", index: s, street: STREET_OF[s] });
    for (let b = 0; b < g.boards; b += 1) {
      for (let k = 0; k < (s === 0 ? 3 : 1); k += 1) out.push({ kind: "board", board: b, index: s === 0 ? k : s + 2, street: STREET_OF[s] });
    }
  }
  return out;
}

/** The hand re-dealt from `deck` (card names, the seed's shuffle) by the rule of the log's game:
 * {slots (each with its `card`), hole, burns, boards} in the log's shape, or {error}. */
export function redeal(deck, rec) {
  const g = DEAL_RULES[rec.game];
  if (!g) return { error: `the log's game ${rec.game} is not a game of the rule book` };
  const first = ((rec.boards || [])[0] || []).length;
  const streets = STREETS_BY_LENGTH[first];
  if (streets === undefined) return { error: `a board of ${first} cards` };
  const names = (rec.seats || []).map((s) => s.name);
  const slots = dealOrder(rec.game, names, streets).map((x, i) => ({ ...x, at: i, card: deck[i] }));
  const hole = Object.fromEntries(names.map((n) => [n, []])), burns = [], boards = Array.from({ length: g.boards }, () => []);
  for (const x of slots) {
    if (x.kind === "hole") hole[x.player].push(x.card);
    else if (x.kind === "burn") burns.push(x.card);
    else boards[x.board].push(x.card);
  }
  return { slots, hole, burns, boards, streets };
}

/** The card the log records at a slot of the deal (undefined if none). */
function logged(rec, x) {
  if (x.kind === "hole") return ((rec.hole || {})[x.player] || [])[x.index];
  if (x.kind === "burn") return (rec.burns || [])[x.index];
  return ((rec.boards || [])[x.board] || [])[x.index];
}

/** Compare the seed's deal with the log card by card: {ok, dealt (the number of cards), first:
 * {slot, dealt, logged} of the first card that differs, or extra: a card of the log the rule
 * does not deal, or error}. */
export function compareDeal(deck, rec) {
  const d = redeal(deck, rec);
  if (d.error) return { ok: false, error: d.error };
  for (const x of d.slots) {
    const l = logged(rec, x);
    if (l !== x.card) return { ok: false, dealt: d.slots.length, first: { slot: x, dealt: x.card, logged: l }, deal: d };
  }
  const g = DEAL_RULES[rec.game];
  const extra = [];
  for (const [who, cards] of Object.entries(rec.hole || {})) {
    if (!(who in d.hole)) extra.push(`hole cards of ${playerName(who)}, who is not seated in the log`);
    else if (cards.length > g.hole) extra.push(`${cards.length} hole cards for ${playerName(who)} (the game deals ${g.hole})`);
  }
  if ((rec.burns || []).length > d.burns.length) extra.push(`${rec.burns.length} burns (the rule burns ${d.burns.length})`);
  if ((rec.boards || []).length !== g.boards || rec.boards.some((b) => b.length !== rec.boards[0].length)) extra.push("boards of unequal length or too many boards");
  if (rec.cards_dealt !== d.slots.length) extra.push(`${rec.cards_dealt} cards dealt in the log, the rule deals ${d.slots.length}`);
  // the replay reads the log's events: their hole cards and streets must be the same cards
  const start = { flop: 0, turn: 3, river: 4 };
  for (const e of rec.events || []) {
    if (e.event === "hole" && e.cards && (e.cards.join() !== (d.hole[e.player] || []).join())) extra.push(`an event dealing ${playerName(e.player)} other hole cards`);
    if (e.event === "board" && (e.cards || []).join() !== (d.boards[e.board] || []).slice(start[e.street], start[e.street] + (e.street === "flop" ? 3 : 1)).join()) {
      extra.push(`an event dealing the ${e.street}${d.boards.length > 1 ? ` of board ${boardName(e.board, d.boards.length)}` : ""} other cards`);
    }
  }
  return { ok: !extra.length, dealt: d.slots.length, extra: extra[0] || null, deal: d };
}

const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th"];
/** A slot of the deal in words: "your 2nd hole card", "seat 3 (Player 1a2b)'s 1st hole card",
 * "the burn before the turn", "the flop's 2nd card", "board B's river". */
export function slotText(x, rec, me) {
  if (x.kind === "hole") {
    if (x.player === me) return `your ${ORDINAL[x.index]} hole card`;
    const seat = (rec.seats || []).find((s) => s.name === x.player);
    return `${seat ? `seat ${seat.seat + 1} (${playerName(x.player, me)})` : playerName(x.player, me)}'s ${ORDINAL[x.index]} hole card`;
  }
  if (x.kind === "burn") return `the burn before the ${x.street}`;
  const boards = (rec.boards || []).length, on = boards > 1 ? `board ${boardName(x.board, boards)}'s ` : "the ";
  return x.street === "flop" ? `${on}flop's ${ORDINAL[x.index]} card` : `${on}${x.street}`;
}

/** The cards this log page shows the viewer: the boards, the viewer's own hole cards, the hands
 * shown at the showdown (never a burn, a mucked hand or a hand not shown). */
export function shownCards(rec, me) {
  const out = new Set([...(rec.boards || []).flat(), ...((rec.hole || {})[me] || [])]);
  for (const s of rec.shows || []) if (s.shown) for (const c of s.cards || []) out.add(c);
  return out;
}

/** Random (7.7): the block's game drawn again: SHA-256 of the block's seed against `published`
 * (the rotation commitment), and the first of the candidates after the seed's shuffle, which must
 * be the block's game and the hand's; null for a hand that is not a block's first. */
export async function checkRotation(rec, published) {
  const rot = rec.rotation;
  if (!rot) return null;
  const seed = unhex(rot.seed);
  const { hex: computed } = await sha256Hex(seed);
  const cands = rot.candidates || [];
  // the candidates are Random's games in order, less at most the game just played
  const fair = cands.length >= RANDOM_GAMES.length - 1 && cands.every((g, i) => RANDOM_GAMES.includes(g) && (i === 0 || RANDOM_GAMES.indexOf(cands[i - 1]) < RANDOM_GAMES.indexOf(g)));
  const drawn = cands.length ? cands[permute(seed, [...cands.keys()])[0]] : null;
  return { block: rot.block, computed, hashOk: computed === String(published || "").toLowerCase(), fair, drawn,
    ok: computed === String(published || "").toLowerCase() && fair && drawn === rot.game && drawn === rec.game };
}

/** Check a card-room hand: {ok, computed, published, by, cardsOk, deal}: SHA-256 of the seed against
 * `published`, and (when the record is given) the hand re-dealt from the seed's shuffle by the
 * rule, card by card against the log (`deal`: compareDeal's answer). */
export async function checkHand(seedHex, published, rec = null) {
  const r = await checkBookSeed(seedHex, published);
  if (!rec) return { ...r, cardsOk: null };
  const deal = compareDeal(r.deck, rec);
  return { ...r, cardsOk: deal.ok, deal };
}

/** The commitment to check a hand against: {commitment, seen}: the one this browser saw at the table, else `fallback`. */
export function publishedBefore(room, hand, fallback) {
  const seen = remembered(room, hand);
  return { commitment: seen || fallback, seen: Boolean(seen) };
}

const seatPlace = (x) => (x.kind === "hole" ? `hole:${x.player}:${x.index}` : x.kind === "burn" ? `burn:${x.index}` : `board:${x.board}:${x.index}`);

/** The result of a check as page elements (in #check-result, or the table's #seed-result).
 * With the log (`rec`, the viewer `me`): the re-deal card by card, the first card that differs
 * named by its place (its face only where this page shows that card), and a Random block's draw. */
export function checkResult(c, seen, withCards, rec = null, me = null) {
  if (c.error) return [el("p", { class: "bad" }, `Cannot check: ${c.error}`)];
  const where = seen ? "the commitment this page saw before the hand" : "the commitment of the log's commit line (this browser did not see the hand at the table)";
  const deal = withCards ? c.deal || {} : null;
  const rot = c.rotation || null;
  // the seed and the deal (the first line); a Random block's draw has its own line
  const good = c.ok && (!withCards || c.cardsOk) && c.lineOk !== false;
  const shown = rec ? shownCards(rec, me) : new Set();
  const face = (card) => (card === undefined ? "no card" : shown.has(card) ? cardText(card) : "a card this page does not show");
  const g = rec ? DEAL_RULES[rec.game] : null;
  const rule = g ? `${GAME_TITLES[rec.game] || rec.game}'s rule: ${g.hole} hole cards each, one at a time from the seat left of the button`
    + `${g.burns ? ", a burn before each street" : ", no burns"}, ${g.boards === 3 ? "the three flops at once, then the turns and rivers of A, B and C" : "the flop, the turn and the river"}` : "";
  let text, attrs = {};
  if (!c.ok) text = `Mismatch: SHA-256 of the seed is not ${where}.`;
  else if (c.lineOk === false) text = "Mismatch: the log's commit line is not the commitment this page saw before the hand.";
  else if (withCards && deal.error) text = `Mismatch: the log cannot be re-dealt: ${deal.error}.`;
  else if (withCards && deal.first) {
    const x = deal.first.slot;
    attrs = { "data-at": x.at + 1, "data-slot": seatPlace(x) };
    text = `Mismatch: the seed's deal differs from the log at card ${x.at + 1} of ${deal.dealt}, ${slotText(x, rec, me)}: `
      + `the seed deals ${face(deal.first.dealt)}, the log says ${face(deal.first.logged)}.`;
  } else if (withCards && !c.cardsOk) text = `Mismatch: the seed's deal gives every card of the log in place, but the log also records ${deal.extra}.`;
  else text = `Match: SHA-256 of the seed is ${where}` + (withCards ? `, and the seed's deal gives every card of this log in order (${deal.dealt} cards, by ${rule}).` : ".");
  const out = [el("p", { class: good ? "ok" : "bad", id: "check-verdict", ...attrs }, text)];
  if (rot) {
    const names = (rot.candidates || []).map((x) => GAME_TITLES[x] || x).join(", ");
    const rtext = !rot.hashOk ? `Mismatch: SHA-256 of Random's seed for block ${rot.block} is not its commitment ${rot.seen ? "this page saw" : "in the log"}.`
      : !rot.fair ? `Mismatch: block ${rot.block}'s candidates (${names}) are not Random's games less the one just played.`
        : !rot.ok ? `Mismatch: block ${rot.block}'s seed draws ${GAME_TITLES[rot.drawn] || rot.drawn} among ${names}; the log plays ${GAME_TITLES[rec.game] || rec.game}.`
          : `Random, block ${rot.block}: SHA-256 of the block's seed is its commitment ${rot.seen ? "this page saw before the hand" : "in the log"}, and the seed draws ${GAME_TITLES[rot.drawn] || rot.drawn} among ${names}: this hand's game (7.7).`;
    out.push(el("p", { class: rot.ok ? "ok" : "bad", id: "rotation-result" }, rtext));
  } else if (rec && rec.block_hand > 1) {
    out.push(el("p", { class: "muted", id: "rotation-result" }, `Random: hand ${rec.block_hand} of its block; the block's game was drawn at its first hand (that hand's log checks the draw).`));
  }
  out.push(el("p", { class: "muted" }, `SHA-256 computed with ${c.by}:`), el("p", { class: "mono" }, c.computed));
  if (withCards && deal.deal) {  // the re-deal, card by card (faces only where this page shows them)
    const first = deal.first ? deal.first.slot.at : -1;
    out.push(el("details", { class: "panel", id: "redeal" }, el("summary", {}, `The deal from the seed, card by card (${deal.deal.slots.length} cards)`),
      el("ol", { class: "log" }, deal.deal.slots.map((x) => el("li", { "data-slot": seatPlace(x), class: x.at === first ? "bad" : "" },
        `${slotText(x, rec, me)}: ${shown.has(x.card) ? cardText(x.card) : "not shown"}${x.at === first ? " (the log differs here)" : x.at < first || first < 0 ? " (as the log)" : ""}`)))));
  }
  return out;
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
    try {
      c = { ...(await checkHand(rec.seed, commitment, rec)), lineOk: !seen || commitLine === commitment };
      if (rec.rotation) {  // 7.7: the block's game, drawn again from its seed
        const rseen = localStorage.getItem(rotationKey(h.room, number));
        const rpub = rseen || (log.commit || {}).rotation_commitment;
        c.rotation = { ...(await checkRotation(rec, rpub)), seen: Boolean(rseen), candidates: rec.rotation.candidates };
        if (rseen && (log.commit || {}).rotation_commitment !== rseen) c.rotation.ok = c.rotation.hashOk = false;
      }
    } catch (e) { c = { error: e.message }; }
    out.innerHTML = "";
    out.append(...checkResult(c, seen, true, rec, me));
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
  // the replay: the whole list, or step by step (one more line per "Next")
  const list = el("ol", { class: "log", id: "hand-log" }, steps.map((s) => el("li", {}, s)));
  let shownSteps = null;  // null: all
  const counter = el("span", { class: "muted", id: "step-count" });
  const stepBar = el("div", { class: "actions", id: "step-bar" });
  function showSteps() {
    [...list.children].forEach((li, k) => { li.hidden = shownSteps !== null && k >= shownSteps; });
    counter.textContent = shownSteps === null ? "" : ` step ${shownSteps} of ${steps.length}`;
    stepBar.replaceChildren(...(shownSteps === null
      ? [el("button", { class: "quiet", id: "step-start", onclick: () => { shownSteps = 1; showSteps(); } }, "Step by step")]
      : [el("button", { id: "step-back", disabled: shownSteps <= 1, onclick: () => { shownSteps -= 1; showSteps(); } }, "Back"),
        el("button", { class: "primary", id: "step-next", disabled: shownSteps >= steps.length, onclick: () => { shownSteps += 1; showSteps(); } }, "Next"),
        el("button", { class: "quiet", id: "step-all", onclick: () => { shownSteps = null; showSteps(); } }, "Show all"), counter]));
  }
  showSteps();
  root.append(el("h2", {}, "The hand, action by action"), stepBar, list);
  root.append(el("p", { class: "muted" }, "The log holds every card dealt (the burns and mucked hands too) for the check; this replay shows only your cards and the cards shown at the table."));
  root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
}
