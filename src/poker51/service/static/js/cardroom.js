// The card room (kind "cardroom"): one table of the rule book's games (seed 003) on the service,
// whose room holds the law (poker51.rulebook.table.Table).  The link to share; the seats (take an
// open one with a buy-in of one to 100 big blinds, never above the bank); the blinds and the
// button; the hand (the deck commitment published before any card, the board, the pot, whose
// turn, the decision clock); your own hole cards only; the legal actions only, from the frame's
// `legal` list (check, call, bet or raise with a size from the engine's least to its most, fold,
// all in; at the showdown show or muck; in 3 Sets the laying as dealt, or two cards per board
// chosen by tapping a card then a board); choices made in advance while it is not your turn
// (8.5: fold, check/fold, check, call; played when the action comes only if legal then, else
// discarded, which the page says); sit out / back; add chips (1.9: they arrive at the next deal);
// leave; the chat of the seated, a report of another seated player (11.4), a dispute of a
// finished hand of yours by its id (11.7); the last hand's result with its seed, and the link to
// its log, replayed and checked in the browser (cardlog.js).
//
// Frames: the room sends each seated account its own view after every change (`state` events),
// and the watchers the public one; an account not seated asks for its own view (its bank and
// `you`) after each public one.  Chips are cents of the bank (100 chips make a jbit).
import { RoomSocket } from "./socket.js";
import { cardRow, cardText } from "./cards.js";
import { el, jbits, showClock } from "./ui.js";
import { GAME_TITLES, checkHand, checkResult, describe, describePot, describeShow, playerName, rememberCommitment, rememberRotation, remembered, setNames } from "./cardlog.js";

const ROUND = { preflop: "before the flop", flop: "the flop", turn: "the turn", river: "the river", final: "after the laying" };
const POST = { small_blind: "small blind", big_blind: "big blind", ante: "ante" };
const MAX_BUYIN_BB = 100;  // the room's rule (a buy-in from one to 100 big blinds): shown, checked by the server
// 8.5's choices made in advance (the server's list, poker51.rulebook.games.ADVANCE_CHOICES, unless
// the view names its own in `advance_choices`; "none" there clears a choice)
const ADVANCE = ["fold", "check_fold", "check", "call"];
const ADVANCE_LABEL = { fold: "Fold", check_fold: "Check/fold", check: "Check", call: "Call", none: "Clear" };
const REASONS = ["abuse", "collusion", "cheating", "other"];  // poker51.service.conduct.REASONS (11.4)
const BOARD = ["A", "B", "C"];  // 3 Sets' boards (7.6)

export function cardRoomScreen(root, roomId, setBank, me) {
  let view = null, bank = me.bank, buyin = null, error = "", closed = false, wantView = false;
  let size = null, sizeKey = null, recent = [], recentHand = null, check = null, checkHandNo = null;
  // the choice in advance discarded (8.5: not legal when the action came), per hand
  let discarded = null;
  // 3 Sets' laying made in the page: the hand, the cards on A, B, C, the card tapped
  let layHand = null, layout = [[], [], []], picked = null;
  // the boxes' drafts (the page redraws on every frame) and the notices of this page's own commands
  let chatDraft = "", reportSeat = null, reportReason = "abuse", disputeOpen = false, disputeDraft = "", addDraft = null, notice = "";

  const name = (acc) => playerName(acc, me.account);
  const sock = new RoomSocket(roomId, (f) => {
    if (f.type === "welcome" || f.type === "view") {
      view = f.view; wantView = false; setNames(view.names);
      if (f.bank !== null && f.bank !== undefined) { bank = f.bank; setBank(bank); }
    } else if (f.type === "event") {
      const e = f.event;
      if (e.type === "hand") {
        rememberCommitment(roomId, e.hand, e.commitment); recent = []; recentHand = e.hand;
        if (e.rotation) rememberRotation(roomId, e.hand, e.rotation.commitment);  // 7.7: a Random block's draw
      }
      if (!f.replayed) {  // this account's own frames (the room sends them to it alone)
        if (e.type === "advance_set") discarded = null;
        if (e.type === "advance_discarded") discarded = { hand: e.hand, choice: e.choice };
        if (e.type === "report_recorded") notice = `Your report of ${name(e.reported)} (seat ${e.seat + 1}) is recorded` + (e.counted ? "." : ": not counted (one report a day counts per player reported, 11.5).");
        if (e.type === "dispute_recorded") notice = `Your dispute of hand ${e.hand} is recorded (11.7).`;
        if (e.type === "add" && e.account === me.account) notice = `${e.amount} chips added: they arrive at the next deal (1.9).`;
      }
      if (e.type === "state" && !f.replayed) {
        view = e.view; setNames(view.names);
        // a watcher's frame has no `you`: an account not seated asks for its own
        if (!view.you && me.account && !wantView) { wantView = true; sock.raw({ type: "view" }); }
      }
      // the hand's public records, in words (those of a hand: they carry its number)
      if (!f.replayed && e.hand !== undefined && ["post", "action", "board", "show", "laid", "sit_out", "fold_out", "advance_discarded"].includes(e.type)) {
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
    if (view && view.hand) {
      rememberCommitment(roomId, view.hand.hand, view.hand.commitment);
      rememberRotation(roomId, view.hand.hand, view.hand.rotation_commitment);
    }
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
        if (hand && hand.phase === "lay" && info.in_hand && !info.folded) tags.push(info.laid ? "laid" : "laying");
        li.append(el("span", { class: "who" }, `${s + 1}. ${name(info.account)}`), el("span", { "data-stack": s }, `${info.stack} chips`));
        if (info.bet) li.append(el("span", { class: "tags" }, `bet ${info.bet}`));
        if (hand && hand.to_act === info.account) li.append(el("span", { class: "clock", "data-clock": true }, ""));
        // 11.4: any player may be reported from their seat (by another seated player)
        if (seated && info.account !== me.account && !view.closed) {
          li.append(el("button", { class: "quiet", "data-report": s, onclick: () => { reportSeat = reportSeat === s ? null : s; render(); } }, "Report"));
        }
      } else {
        li.append(el("span", { class: "who" }, `${s + 1}. open`));
        if (!seated && !view.closed && !closed) {
          li.append(el("button", { "data-sit": s, disabled: !canBuy, onclick: () => sit(s) }, canBuy ? `Sit here · ${buyin}` : "Sit here"));
        }
      }
      if (tags.length) li.append(el("span", { class: "tags" }, tags.join(" · ")));
      ul.append(li);
      if (info && reportSeat === s && seated && info.account !== me.account) ul.append(reportForm(s, info.account));
    }
    return ul;
  }

  function reportForm(s, account) {
    const reason = el("select", { id: "report-reason", "aria-label": "the reason", onchange: (ev) => { reportReason = ev.target.value; } },
      REASONS.map((r) => el("option", { value: r, selected: r === reportReason }, r)));
    return el("li", { class: "panel", id: "report-form" },
      el("p", {}, `Report ${name(account)} (seat ${s + 1}) for `, reason),
      el("p", { class: "muted" }, "Reports are kept: five players reporting one within thirty days is a strike (11.5, 11.6). One report a day counts per player reported."),
      el("div", { class: "actions" },
        el("button", { class: "primary", id: "report-send", onclick: () => { sock.command("report", { seat: s, reason: reportReason }); reportSeat = null; render(); } }, "Send the report"),
        el("button", { class: "quiet", id: "report-cancel", onclick: () => { reportSeat = null; render(); } }, "Cancel")));
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
        lay: "Lay as dealt: 1-2 on A, 3-4 on B, 5-6 on C" }[m.kind] || m.kind;
      acts.append(el("button", { "data-act": m.kind, class: m.kind === "show" || m.kind === "lay" ? "primary" : "", onclick: () => sock.command(type, fields) }, label));
    }
    if (sized) acts.append(sizer(sized));
    return acts;
  }

  // 8.5: a choice made before the action reaches you, while you hold a hand and it is not your turn
  function advancePanel(hand, y) {
    const info = mySeat() === null ? null : view.seats[String(mySeat())];
    const inHand = hand && (hand.players || []).includes(me.account) && info && !info.folded && !info.all_in && !info.leaving;
    const pending = y && y.advance;
    const gone = discarded && hand && discarded.hand === hand.hand ? discarded : null;
    const offer = inHand && hand.phase === "bet" && hand.to_act !== me.account;
    if (!offer && !pending && !gone) return null;
    const panel = el("div", { class: "panel", id: "advance" });
    if (offer) {
      const choices = view.advance_choices || ADVANCE;
      panel.append(el("p", { class: "muted" }, "In advance: played when the action reaches you, only if it is legal then (8.5)."));
      const bar = el("div", { class: "actions" });
      for (const c of choices) {
        if (c === "none") continue;
        bar.append(el("button", { "data-advance": c, class: c === pending ? "chosen" : "", "aria-pressed": String(c === pending),
          onclick: () => sock.command("advance", { choice: c }) }, ADVANCE_LABEL[c] || c));
      }
      if (pending && choices.includes("none")) bar.append(el("button", { class: "quiet", id: "advance-clear", onclick: () => sock.command("advance", { choice: "none" }) }, "Clear"));
      panel.append(bar);
    }
    if (pending) {
      panel.append(el("p", { id: "advance-pending" }, `Chosen in advance: ${ADVANCE_LABEL[pending] || pending}.`
        + ((view.advance_choices || []).includes("none") ? "" : " Another choice replaces it; it lasts until the action reaches you.")));
    }
    if (gone) panel.append(el("p", { class: "bad", id: "advance-discarded" }, `Your choice in advance (${ADVANCE_LABEL[gone.choice] || gone.choice}) was not legal when the action came: discarded.`));
    return panel;
  }

  // 3 Sets (7.6): two of your six cards on each of boards A, B and C, all six, none twice; tap a
  // card, then a board (a card laid is tapped again to take it back).  Secret until the showdown.
  function layPanel(hand, y) {
    const lay = (view.legal || []).find((m) => m.kind === "lay");
    if (!hand || hand.phase !== "lay" || !lay || !y || !y.hole || y.hole.length !== 6) return null;
    if (layHand !== hand.hand) { layHand = hand.hand; layout = [[], [], []]; picked = null; }
    const placed = layout.flat();
    const free = y.hole.filter((c) => !placed.includes(c));
    const tapFree = (c) => () => { picked = picked === c ? null : c; render(); };
    const takeBack = (b, c) => () => { layout[b] = layout[b].filter((x) => x !== c); picked = null; render(); };
    const put = (b) => () => { if (picked && layout[b].length < 2) { layout[b] = [...layout[b], picked]; picked = null; render(); } };
    const handRow = cardRow(free, (c) => ({ kept: c === picked, onTap: tapFree(c) }));
    handRow.id = "lay-hand"; handRow.classList.add("many");
    const panel = el("div", { class: "panel", id: "laying" },
      el("p", {}, "Lay two of your cards on each board: tap a card, then its board. ", el("span", { class: "clock", "data-clock": true })),
      el("p", { class: "muted" }, "Your laying is secret until the showdown; when the clock runs out, the cards go as dealt (1-2 on A, 3-4 on B, 5-6 on C)."),
      free.length ? handRow : el("p", { class: "muted" }, "All six cards are placed."));
    layout.forEach((cards, b) => {
      const row = cardRow(cards, (c) => ({ kept: true, onTap: takeBack(b, c) }));
      row.classList.add("small"); row.dataset.laid = b;
      const board = cardRow(hand.boards[b] || []); board.classList.add("small");
      panel.append(el("div", { class: "layboard", "data-board": b },
        el("button", { "data-put": b, disabled: !picked || cards.length >= 2, onclick: put(b) }, `Board ${BOARD[b]} (${cards.length}/2)`),
        board, row));
    });
    const ready = layout.every((x) => x.length === 2);
    panel.append(el("div", { class: "actions" },
      el("button", { class: "primary", id: "lay-send", disabled: !ready, onclick: () => sock.command("lay", { sets: layout.map((x) => [...x]) }) },
        ready ? `Lay ${layout.map((x, b) => `${BOARD[b]}: ${x.map(cardText).join(" ")}`).join(" · ")}` : "Lay these (place all six)"),
      placed.length ? el("button", { class: "quiet", id: "lay-reset", onclick: () => { layout = [[], [], []]; picked = null; render(); } }, "Start again") : null));
    return panel;
  }

  // 11.4: the chat of the seated (everyone at the table reads it)
  function chatPanel(seat) {
    const msgs = (view.chat || []).slice(-20);
    if (!msgs.length && seat === null) return null;
    const list = el("ul", { class: "log", id: "chat-log" }, msgs.map((m) => el("li", {}, el("b", {}, `${name(m.account)}: `), m.text)));
    const panel = el("details", { class: "panel", id: "chat", open: true }, el("summary", {}, `Chat (${msgs.length})`), list);
    if (seat !== null && !view.closed) {
      const send = () => { const t = chatDraft.trim(); if (t) { sock.command("chat", { text: t }); chatDraft = ""; render(); } };
      panel.append(el("div", { class: "link" },
        el("input", { id: "chat-text", maxlength: 200, value: chatDraft, placeholder: "a message to the table", "aria-label": "a chat message",
          oninput: (ev) => { chatDraft = ev.target.value; }, onkeydown: (ev) => { if (ev.key === "Enter") send(); } }),
        el("button", { id: "chat-send", onclick: send }, "Send")),
      el("p", { class: "muted" }, "Chat is for the game: the seated players write, everyone at the table reads (11.4)."));
    }
    return panel;
  }

  // 1.9: chips added arrive at the next deal (a buy-in of the bank's chips at once)
  function addForm(info) {
    const top = MAX_BUYIN_BB * view.big_blind;
    const room = top - (info.stack + (info.contributed || 0)) - (info.pending || 0);
    const hi = view.practice ? room : Math.min(room, bank);
    if (hi < 1) return el("p", { class: "muted", id: "add-none" }, view.practice || room < 1
      ? `Your chips at the table are at the most (${top}, 100 big blinds).` : `Your bank holds ${jbits(bank)}: no chips to add.`);
    if (addDraft === null || addDraft > hi) addDraft = hi;
    return el("div", { class: "actions", id: "add" },
      el("label", { for: "add-amount" }, "Add chips: "),
      el("input", { type: "number", id: "add-amount", min: 1, max: hi, step: 1, value: addDraft,
        oninput: (ev) => { const n = Math.round(Number(ev.target.value)); addDraft = Number.isFinite(n) && ev.target.value !== "" ? n : null; } }),
      el("button", { id: "add-chips", onclick: () => { if (addDraft) sock.command("add", { amount: addDraft }); } }, "Add"),
      el("p", { class: "muted" }, `From 1 to ${hi} chips${view.practice ? " (practice chips)" : ", from your bank"}: they arrive at the next deal (1.9), not in the hand in play.`));
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
    if (mine && mySeat() !== null && !view.closed) {  // 11.7: a disputed hand is raised with its id
      if (!disputeOpen) panel.append(el("button", { class: "quiet", id: "dispute", onclick: () => { disputeOpen = true; render(); } }, "Dispute this hand"));
      else {
        const send = () => { const t = disputeDraft.trim(); if (t) { sock.command("dispute", { hand: r.id, text: t }); disputeOpen = false; disputeDraft = ""; render(); } };
        panel.append(el("div", { class: "panel", id: "dispute-form" },
          el("p", {}, "Dispute hand ", el("span", { class: "mono", id: "dispute-hand" }, r.id), ": what went wrong?"),
          el("div", { class: "link" }, el("input", { id: "dispute-text", maxlength: 200, value: disputeDraft, "aria-label": "the dispute",
            oninput: (ev) => { disputeDraft = ev.target.value; } }),
          el("button", { class: "primary", id: "dispute-send", onclick: send }, "Send")),
          el("button", { class: "quiet", onclick: () => { disputeOpen = false; render(); } }, "Cancel")));
      }
    }
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
      const toAct = hand.to_act === null ? (hand.laying.length ? `Laying (${hand.laying.length} to lay) ` : "") : hand.to_act === me.account ? "Your turn " : `${name(hand.to_act)} (seat ${seatOf(hand.to_act) + 1}) to act `;
      const phase = hand.phase === "showdown" ? "the showdown" : hand.phase === "lay" ? "the laying" : ROUND[hand.round] || hand.round;
      const panel = el("div", { class: "panel", id: "hand", "data-round": hand.round || "", "data-phase": hand.phase },
        el("p", {}, `Hand ${hand.hand} · ${GAME_TITLES[hand.game] || hand.game} · ${phase} · pot `, el("span", { id: "pot" }, String(hand.pot)), " chips"),
        el("p", {}, toAct, toAct ? el("span", { class: "clock", id: "clock", "data-clock": true }) : null),
        el("div", { class: "clockbar" }, el("div", { id: "clockbar" })));
      hand.boards.forEach((b, k) => {
        if (hand.boards.length > 1) panel.append(el("p", { class: "muted" }, `Board ${hand.boards.length === 3 ? BOARD[k] : k + 1}`));
        if (!b.length) { panel.append(el("p", { class: "muted", id: k ? `board-${k}` : "board" }, "No board card yet.")); return; }
        const row = cardRow(b); row.id = k ? `board-${k}` : "board"; row.classList.add("board");
        panel.append(row);
      });
      panel.append(el("p", { class: "muted" }, "Deck commitment (SHA-256 of the seed, published before any card)"), el("p", { class: "mono", id: "commitment" }, hand.commitment));
      root.append(panel);
    }
    if (y && y.hole && y.hole.length && hand) {
      const row = cardRow(y.hole); row.id = "mine";
      if (y.hole.length > 5) row.classList.add("many");
      root.append(el("div", { class: "panel" }, el("p", {}, "Your cards"), row,
        y.laid ? el("p", { class: "muted", id: "laid" }, "Laid (only you see it until the showdown): "
          + y.laid.map((p, b) => `${BOARD[b]}: ${p.map(cardText).join(" ")}`).join(" · ")) : null));
    }
    const laying = layPanel(hand, y);
    if (laying) root.append(laying);
    root.append(actions());
    const adv = advancePanel(hand, y);
    if (adv) root.append(adv);
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
      if (info && !info.leaving) root.append(addForm(info));
    }
    if (notice) root.append(el("p", { class: "ok", id: "notice" }, notice));
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
    const chat = chatPanel(seat);
    if (chat) root.append(chat);
    root.append(el("p", { class: "muted" }, view.edition || ""));
    if (error) root.append(el("p", { class: "error", id: "error" }, error));
    root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
    if (focused) {
      const f = document.getElementById(focused);
      if (f && f.tagName === "INPUT") {
        f.focus();
        if (f.type === "text") f.setSelectionRange(f.value.length, f.value.length);  // the caret where the typing was
      }
    }
    tickClock();
  }
  render();
  return { sock, stop: () => clearInterval(timer) };
}
