// The card room (kind "cardroom"): one table of the rule book's games (seed 003) on the service,
// whose room holds the law (poker51.rulebook.table.Table).  The link to share; the seats (take an
// open one with a buy-in of one to 100 big blinds, never above the bank); the blinds and the
// button; the hand (the deck commitment published before any card, the board, the pot, whose
// turn, the decision clock); your own hole cards only; the legal actions only, from the frame's
// `legal` list (check, call, bet or raise with a size from the engine's least to its most, fold,
// all in; at the showdown show or muck; in 3 Sets the laying as dealt); sit out / back; leave;
// the last hand's result with its seed, and the link to its log, replayed and checked in the
// browser (cardlog.js).
//
// Frames: the room sends each seated account its own view after every change (`state` events),
// and the watchers the public one; an account not seated asks for its own view (its bank and
// `you`) after each public one.  Chips are cents of the bank (100 chips make a jbit).
import { RoomSocket } from "./socket.js";
import { cardRow } from "./cards.js";
import { el, jbits, showClock } from "./ui.js";
import { GAME_TITLES, checkHand, checkResult, describe, describePot, describeShow, playerName, rememberCommitment, remembered } from "./cardlog.js";

const ROUND = { preflop: "before the flop", flop: "the flop", turn: "the turn", river: "the river", final: "after the laying" };
const POST = { small_blind: "small blind", big_blind: "big blind", ante: "ante" };
const MAX_BUYIN_BB = 100;  // the room's rule (a buy-in from one to 100 big blinds): shown, checked by the server

export function cardRoomScreen(root, roomId, setBank, me) {
  let view = null, bank = me.bank, buyin = null, error = "", closed = false, wantView = false;
  let size = null, sizeKey = null, recent = [], recentHand = null, check = null, checkHandNo = null;

  const name = (acc) => playerName(acc, me.account);
  const sock = new RoomSocket(roomId, (f) => {
    if (f.type === "welcome" || f.type === "view") {
      view = f.view; wantView = false;
      if (f.bank !== null && f.bank !== undefined) { bank = f.bank; setBank(bank); }
    } else if (f.type === "event") {
      const e = f.event;
      if (e.type === "hand") { rememberCommitment(roomId, e.hand, e.commitment); recent = []; recentHand = e.hand; }
      if (e.type === "state" && !f.replayed) {
        view = e.view;
        // a watcher's frame has no `you`: an account not seated asks for its own
        if (!view.you && me.account && !wantView) { wantView = true; sock.raw({ type: "view" }); }
      }
      // the hand's public records, in words (those of a hand: they carry its number)
      if (!f.replayed && e.hand !== undefined && ["post", "action", "board", "show", "laid", "sit_out", "fold_out"].includes(e.type)) {
        if (recentHand !== e.hand) { recent = []; recentHand = e.hand; }
        if (e.type === "show") recent.push(describeShow(e, me.account));
        else {
          const ev = { ...e, event: { post: e.kind, fold_out: "leave", laid: "lay" }[e.type] || e.type };
          recent.push(describe(ev, me.account, view && view.hand ? view.hand.boards.length : 1));
        }
      }
    } else if (f.type === "ack") {
      error = "";
      if (f.bank !== null && f.bank !== undefined) { bank = f.bank; setBank(bank); }
    } else if (f.type === "error") {
      error = `${f.detail}${f.rule ? " [" + f.rule + "]" : ""}`;
      if (f.code === "stale_turn") sock.raw({ type: "view" });
      if (f.code === "unknown_room" || f.code === "closed") closed = true;
    }
    if (view && view.hand) rememberCommitment(roomId, view.hand.hand, view.hand.commitment);
    render();
  });

  const you = () => (view && view.you) || null;
  const mySeat = () => { const y = you(); return y && y.seat !== null && y.seat !== undefined ? y.seat : null; };
  const seatOf = (acc) => { for (const [s, info] of Object.entries(view.seats)) if (info.account === acc) return Number(s); return null; };
  const maxBuyin = () => (view.practice ? MAX_BUYIN_BB * view.big_blind : Math.min(MAX_BUYIN_BB * view.big_blind, bank));

  function tickClock() {
    const h = view && view.hand;
    if (!h || h.deadline === null || h.deadline === undefined) return;
    showClock(h.deadline, h.phase === "lay" ? view.params.lay_s : view.params.clock_s);
  }
  const timer = setInterval(tickClock, 250);

  function sit(seat) { if (buyin) sock.command("sit", { seat, buyin }); }

  function seatList(hand) {
    const ul = el("ul", { class: "seats", id: "seats" });
    const seated = mySeat() !== null, canBuy = buyin !== null && buyin >= view.big_blind && buyin <= maxBuyin();
    const posts = {};
    for (const p of (hand && hand.posts) || []) posts[p.player] = `${POST[p.kind] || p.kind} ${p.amount}${p.all_in ? " (all in)" : ""}`;
    for (let s = 0; s < view.n_seats; s += 1) {
      const info = view.seats[String(s)];
      const li = el("li", { class: "seat", "data-seat": s });
      const tags = [];
      if (view.button === s) tags.push("button");
      if (info) {
        if (info.account === me.account) li.classList.add("me");
        if (hand && hand.to_act === info.account) li.classList.add("turn");
        if (posts[info.account]) tags.push(posts[info.account]);
        if (info.folded) tags.push("folded");
        if (info.all_in) tags.push("all in");
        if (info.sitting_out) tags.push("sitting out");
        if (info.leaving) tags.push("leaving");
        if (info.pending) tags.push(`+${info.pending} at the next deal`);
        li.append(el("span", { class: "who" }, `${s + 1}. ${name(info.account)}`), el("span", { "data-stack": s }, `${info.stack} chips`));
        if (info.bet) li.append(el("span", { class: "tags" }, `bet ${info.bet}`));
        if (hand && hand.to_act === info.account) li.append(el("span", { class: "clock", "data-clock": true }, ""));
      } else {
        li.append(el("span", { class: "who" }, `${s + 1}. open`));
        if (!seated && !view.closed && !closed) {
          li.append(el("button", { "data-sit": s, disabled: !canBuy, onclick: () => sit(s) }, canBuy ? `Sit here · ${buyin}` : "Sit here"));
        }
      }
      if (tags.length) li.append(el("span", { class: "tags" }, tags.join(" · ")));
      ul.append(li);
    }
    return ul;
  }

  function sizer(m) {
    // a bet or raise: the round's total, any whole number from the engine's least to its most
    const key = `${view.hand.hand}:${view.hand.round}:${m.kind}:${m.min}:${m.max}`;
    if (sizeKey !== key) { sizeKey = key; size = m.min; }
    const label = () => (m.kind === "bet" ? `Bet ${size}` : `Raise to ${size}`) + (size === m.max ? " (all in)" : "");
    const go = el("button", { class: "primary", "data-act": m.kind, onclick: () => sock.command("act", { kind: m.kind, amount: size }) }, label());
    const set = (x) => {
      const n = Math.round(Number(x));
      if (Number.isFinite(n)) size = Math.max(m.min, Math.min(m.max, n));
      go.textContent = label(); num.value = String(size); range.value = String(size);
    };
    const num = el("input", { type: "number", id: "size", min: m.min, max: m.max, step: 1, value: size, "aria-label": `${m.kind} to (chips)`, onchange: (ev) => set(ev.target.value) });
    const range = el("input", { type: "range", id: "size-range", min: m.min, max: m.max, step: 1, value: size, "aria-label": `${m.kind} size`, oninput: (ev) => set(ev.target.value) });
    return el("div", { class: "sizer", id: "sizer" }, go, num,
      el("button", { class: "quiet", "data-size": "min", onclick: () => set(m.min) }, `min ${m.min}`),
      el("button", { class: "quiet", "data-size": "max", onclick: () => set(m.max) }, `max ${m.max}`), range);
  }

  function actions() {
    const acts = el("div", { class: "actions", id: "actions" });
    let sized = null;
    for (const m of view.legal || []) {
      const { type, ...fields } = m.cmd;
      if (m.kind === "bet" || m.kind === "raise") { sized = m; continue; }
      const label = { fold: "Fold", check: "Check", call: `Call ${m.amount}`, allin: `All in (${m.amount})`, show: "Show", muck: "Muck",
        lay: "Lay as dealt: 1-2, 3-4, 5-6" }[m.kind] || m.kind;
      acts.append(el("button", { "data-act": m.kind, class: m.kind === "show" || m.kind === "lay" ? "primary" : "", onclick: () => sock.command(type, fields) }, label));
    }
    if (sized) acts.append(sizer(sized));
    return acts;
  }

  async function doCheck(last) {
    check = { pending: true }; checkHandNo = last.hand; render();
    const seen = remembered(roomId, last.hand);
    try { check = { ...(await checkHand(last.seed, seen || last.commitment)), seen: Boolean(seen) }; }
    catch (e) { check = { error: e.message }; }
    render();
  }

  function lastHand() {
    const r = view.last;
    if (!r) return null;
    const panel = el("div", { class: "panel", id: "last" }, el("h2", {}, `Hand ${r.hand}: the result`));
    for (const b of r.boards || []) { const row = cardRow(b); row.classList.add("small"); panel.append(row); }
    const lines = el("ul", { class: "log" });
    for (const s of r.shows || []) lines.append(el("li", {}, describeShow(s, me.account)));
    (r.pots || []).forEach((p, k, all) => lines.append(el("li", {}, describePot(p, k, all.length, me.account))));
    for (const [who, n] of Object.entries(r.returned || {})) if (n) lines.append(el("li", {}, `${n} chips not called returned to ${name(who)}.`));
    panel.append(lines);
    const seen = remembered(roomId, r.hand);
    panel.append(el("p", { class: "muted" }, seen ? "Commitment this page saw before the hand" : "Commitment (this page did not see the hand's start)"),
      el("p", { class: "mono", id: "last-commitment" }, seen || r.commitment),
      el("p", { class: "muted" }, "Seed (published after the hand)"), el("p", { class: "mono", id: "last-seed" }, r.seed));
    const mine = you() && (you().history || []).includes(r.id);
    panel.append(el("div", { class: "actions" },
      el("button", { id: "check-seed", onclick: () => doCheck(r) }, "Check the seed"),
      mine ? el("a", { href: `/?hand=${encodeURIComponent(r.id)}`, id: "hand-link" }, "Replay the hand and check its deck") : null));
    if (!mine) panel.append(el("p", { class: "muted" }, "The hand's log (every card dealt) opens for its players, from their history."));
    if (check && checkHandNo === r.hand) {
      panel.append(check.pending ? el("p", {}, "Checking…") : el("div", { id: "seed-result" }, ...checkResult(check, check.seen, false)));
    }
    return panel;
  }

  function render() {
    const focused = document.activeElement && document.activeElement.id;
    root.innerHTML = "";
    if (!view) { root.textContent = closed ? "No such table." : "Connecting…"; return; }
    const hand = view.hand, y = you(), seat = mySeat();
    const link = `${location.origin}/?room=${roomId}`;
    const input = el("input", { readonly: true, value: link, id: "table-link", "aria-label": "the table's link" });
    const title = view.title || GAME_TITLES[view.game] || view.game;
    root.append(el("h2", {}, `Card room · ${title}${view.practice ? " (practice)" : ""}${view.closed ? " (closed)" : ""}`),
      el("div", { class: "link" }, input, el("button", { class: "quiet", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(link).catch(() => {}); } }, "Copy link")),
      el("p", { class: "muted", id: "stakes" }, `Blinds ${view.small_blind}/${view.big_blind} chips · ${view.n_seats} seats · ${view.params.clock_s} s to act`
        + (view.practice ? " · practice chips, not the bank's" : " · 100 chips make a jbit")
        + (view.block ? ` · Random: block ${view.block.block}, hand ${view.block.hand} of ${view.block.of}` : "")),
      el("p", { class: "muted" }, seat === null ? "Anyone with the link can watch or take an open seat." : `You sit in seat ${seat + 1}.`));
    if (seat === null && !closed) {
      const lo = view.big_blind, hi = maxBuyin();
      if (buyin === null || buyin > hi) buyin = hi >= lo ? hi : null;
      root.append(el("div", { class: "actions", id: "buyins" }, el("label", { for: "buyin" }, "Buy-in (chips): "),
        el("input", { type: "number", id: "buyin", min: lo, max: Math.max(lo, hi), step: 1, value: buyin === null ? "" : buyin,
          oninput: (ev) => {  // the seats' buttons follow in place (a redraw would swallow the click that blurs the box)
            const n = Math.round(Number(ev.target.value));
            buyin = Number.isFinite(n) && ev.target.value !== "" ? n : null;
            const ok = buyin !== null && buyin >= lo && buyin <= hi;
            for (const x of document.querySelectorAll("#seats button[data-sit]")) { x.disabled = !ok; x.textContent = ok ? `Sit here · ${buyin}` : "Sit here"; }
          } })),
      el("p", { class: "muted" }, hi >= lo ? `From ${lo} to ${hi} chips` + (view.practice ? "." : `: your bank holds ${jbits(bank)}.`)
        : `Your bank holds ${jbits(bank)}: a buy-in is at least ${lo} chips. The bank recovers over time.`));
      if (view.vip_game && y && !y.vip) root.append(el("p", { class: "muted" }, "This game is for VIP members (the rule book's article XI); the server refuses a seat to others."));
    }
    if (seat === null) root.append(seatList(hand));
    if (hand) {
      const toAct = hand.to_act === null ? (hand.laying.length ? "Laying" : "") : hand.to_act === me.account ? "Your turn " : `${name(hand.to_act)} (seat ${seatOf(hand.to_act) + 1}) to act `;
      const phase = hand.phase === "showdown" ? "the showdown" : hand.phase === "lay" ? "the laying" : ROUND[hand.round] || hand.round;
      const panel = el("div", { class: "panel", id: "hand", "data-round": hand.round || "", "data-phase": hand.phase },
        el("p", {}, `Hand ${hand.hand} · ${GAME_TITLES[hand.game] || hand.game} · ${phase} · pot `, el("span", { id: "pot" }, String(hand.pot)), " chips"),
        el("p", {}, toAct, toAct ? el("span", { class: "clock", id: "clock", "data-clock": true }) : null),
        el("div", { class: "clockbar" }, el("div", { id: "clockbar" })));
      hand.boards.forEach((b, k) => {
        if (hand.boards.length > 1) panel.append(el("p", { class: "muted" }, `Board ${k + 1}`));
        if (!b.length) { panel.append(el("p", { class: "muted", id: k ? `board-${k}` : "board" }, "No board card yet.")); return; }
        const row = cardRow(b); row.id = k ? `board-${k}` : "board"; row.classList.add("board");
        panel.append(row);
      });
      panel.append(el("p", { class: "muted" }, "Deck commitment (SHA-256 of the seed, published before any card)"), el("p", { class: "mono", id: "commitment" }, hand.commitment));
      root.append(panel);
    }
    if (y && y.hole && y.hole.length && hand) {
      const row = cardRow(y.hole); row.id = "mine";
      root.append(el("div", { class: "panel" }, el("p", {}, "Your cards"), row,
        y.laid ? el("p", { class: "muted" }, "Laid: " + y.laid.map((p) => p.join(" ")).join(" · ")) : null));
    }
    root.append(actions());
    if (seat !== null) root.append(seatList(hand));
    if (seat !== null && !view.closed) {
      const info = view.seats[String(seat)];
      const bar = el("div", { class: "actions", id: "seat-actions" });
      if (info && info.sitting_out) bar.append(el("button", { class: "primary", id: "sit-in", onclick: () => sock.command("sit_in") }, "I’m back"));
      else if (info && !info.leaving) bar.append(el("button", { class: "quiet", id: "sit-out", onclick: () => sock.command("sit_out") }, "Sit out"));
      if (info && info.leaving) bar.append(el("p", { class: "muted" }, "You are leaving: your chips go to your bank when this hand ends."));
      else bar.append(el("button", { class: "quiet", id: "leave", onclick: () => sock.command("leave") }, "Leave the table"));
      root.append(bar);
      if (info && info.sitting_out) root.append(el("p", { class: "muted", id: "sitting-out" }, "You sit out: dealt out until you are back (three time-outs in a row sit a player out)."));
    }
    if (!hand && !view.closed) {
      const due = view.next_deadline ? Math.max(0, Math.ceil(view.next_deadline - Date.now() / 1000)) : null;
      root.append(el("p", { class: "muted", id: "waiting" }, due !== null
        ? (due > 1 ? `The next hand starts in about ${due} s.` : "The next hand starts in a moment.")
        : "A hand starts when two seated players are ready."));
    }
    if (hand && recent.length && recentHand === hand.hand) {
      root.append(el("details", { class: "panel", open: true }, el("summary", {}, "This hand so far"), el("ol", { class: "log", id: "table-log" }, recent.slice(-12).map((t) => el("li", {}, t)))));
    }
    const last = lastHand();
    if (last) root.append(last);
    root.append(el("p", { class: "muted" }, view.edition || ""));
    if (error) root.append(el("p", { class: "error", id: "error" }, error));
    root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
    if (focused) { const f = document.getElementById(focused); if (f && f.tagName === "INPUT") f.focus(); }
    tickClock();
  }
  render();
  return { sock, stop: () => clearInterval(timer) };
}
