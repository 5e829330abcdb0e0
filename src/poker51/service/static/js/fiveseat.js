// The five-seat table (rule card "Poker 51 tables" v1): the link to share, five seats (take an
// open one with a buy-in of 2, 4, 8 or 16 jbits, never above the bank; add Riemann to an open
// seat once seated), the hand (the deck commitment before anything is dealt, the pot, whose turn,
// the 45-second clock), your cards (tap the ones to discard at the draw), the legal actions only,
// away / "I'm back", leave, and the last hand shown with "Check the deck".
//
// Frames: the room's public "state" events update the table at once; the viewer's own part
// (cards, receipts, away) comes in its per-viewer view, asked for after each change.  The
// commitment of each hand is remembered (localStorage, per table and hand) when it is first
// seen, so that "Check the deck" compares the revealed deck with what was published *before*.
import { RoomSocket } from "./socket.js";
import { cardRow } from "./cards.js";
import { checkDeck } from "./deck.js";
import { category, el, jb, jbits, showClock } from "./ui.js";

const BUYINS = [2, 4, 8, 16];
const LABEL = { check: "Check", call: "Call", fold: "Fold", raise: "Raise", open: "Open", allin: "All in" };

export function moveLabel(m) {
  const amount = m.amount_cents ? ` ${jb(m.amount_cents)}` : "";
  if (m.kind === "check" || m.kind === "fold") return LABEL[m.kind];
  return (LABEL[m.kind] || m.kind) + amount + (m.all_in ? " (all in)" : "");
}

export function fiveSeatScreen(root, roomId, setBank, me) {
  let view = null, bank = me.bank, buyin = null, discard = new Set(), discardHand = null, error = "", checks = {};
  let wantView = false, closed = false;
  const commitKey = (hand) => `poker51-commit:${roomId}:${hand}`;
  const remember = (hand, c) => { if (hand && c && !localStorage.getItem(commitKey(hand))) localStorage.setItem(commitKey(hand), c); };

  const sock = new RoomSocket(roomId, (f) => {
    if (f.type === "welcome" || f.type === "view") { view = f.view; wantView = false; if (f.bank !== null && f.bank !== undefined) { bank = f.bank; setBank(bank); } }
    else if (f.type === "event") {
      const e = f.event;
      if (e.type === "hand") remember(e.hand, e.commitment);
      if (e.type === "state" && !f.replayed) {
        view = { ...e, you: view ? view.you : null };
        if (me.account && !wantView) { wantView = true; sock.raw({ type: "view" }); }
      }
      if (e.type === "cards" && view && view.you) view = { ...view, you: { ...view.you, cards: e.cards } };
    } else if (f.type === "ack") { error = ""; if (f.bank !== null && f.bank !== undefined) { bank = f.bank; setBank(bank); } }
    else if (f.type === "error") {
      error = `${f.detail}${f.rule ? " [" + f.rule + "]" : ""}`;
      if (f.code === "stale_turn") sock.raw({ type: "view" });
      if (f.code === "unknown_room" || f.code === "closed") closed = true;
    }
    if (view && view.hand) remember(view.hand.hand, view.hand.commitment);
    render();
  });

  const you = () => (view && view.you) || null;
  const mySeat = () => { const y = you(); return y && y.seat !== null && y.seat !== undefined ? y.seat : null; };
  const name = (s, info) => {
    if (!info) return "open";
    if (info.kind !== "person") return info.name;
    return person(info.account);
  };
  // an account's display name (the view's "people"), never its id; "You" for this page's account
  const person = (acc) => acc === me.account ? "You" : ((view && view.people && view.people[acc]) || "Player " + String(acc).slice(1, 5));

  function sit(seat) { if (buyin) sock.command("sit", { seat, buyin }); }

  async function doCheck(hand, reveal) {
    const published = localStorage.getItem(commitKey(hand));
    checks[hand] = { pending: true };
    render();
    if (!published) { checks[hand] = { unseen: true }; render(); return; }
    try { checks[hand] = await checkDeck(reveal.deck, reveal.salt, published); }
    catch (e) { checks[hand] = { error: e.message }; }
    render();
  }

  // the clock: the seconds left of the decision on turn, redrawn four times a second
  function tickClock() {
    if (!view || !view.hand || view.hand.deadline === undefined) return;
    showClock(view.hand.deadline, view.params ? view.params.clock_s : 45);
  }
  const timer = setInterval(tickClock, 250);

  function seatList(hand) {
    const ul = el("ul", { class: "seats", id: "seats" });
    const seated = mySeat() !== null;
    for (let s = 0; s < 5; s += 1) {
      const info = view.seats[String(s)];
      const li = el("li", { class: "seat", "data-seat": s });
      if (hand && hand.to_act === s) li.classList.add("turn");
      if (info && info.account === me.account) li.classList.add("me");
      const tags = [];
      if (view.button === s) tags.push("dealer");
      if (info && info.away) tags.push("away");
      if (info && info.leaving) tags.push("leaving");
      if (hand && hand.order.includes(s) && !hand.live.includes(s)) tags.push("folded");
      if (hand && hand.draws && hand.draws[String(s)] !== undefined) tags.push(`drew ${hand.draws[String(s)]}`);
      if (info && info.kind !== "person") tags.push(`abits · added by ${info.added_by === me.account ? "you" : person(info.added_by)}`);
      li.append(el("span", { class: "who" }, `${s + 1}. ${name(s, info)}`));
      if (info) {
        const stack = info.kind === "person" ? info.stack_cents : info.abits_cents;
        li.append(el("span", {}, jbits(stack, info.kind === "person" ? "jbit" : "abit")));
        if (info.in_pot_cents) li.append(el("span", { class: "tags" }, `in pot ${jb(info.in_pot_cents)}`));
        if (hand && hand.to_act === s) li.append(el("span", { class: "clock", "data-clock": true }, ""));
      } else if (!seated && !view.closed) {
        li.append(el("button", { "data-sit": s, disabled: !buyin, onclick: () => sit(s) }, buyin ? `Sit here · ${buyin}` : "Sit here"));
      } else if (seated && !view.closed) {
        li.append(el("button", { class: "quiet", "data-riemann": s, onclick: () => sock.command("add_riemann", { seat: s }) }, "Add Riemann"));
      }
      if (info && info.kind !== "person" && seated) {
        li.append(el("button", { class: "quiet", onclick: () => sock.command("remove_riemann", { seat: s }) }, "Remove"));
      }
      if (tags.length) li.append(el("span", { class: "tags" }, tags.join(" · ")));
      ul.append(li);
    }
    return ul;
  }

  function lastHand() {
    const last = view.last;
    if (!last || !last.result) return null;
    const r = last.result, rev = last.reveal;
    const panel = el("div", { class: "panel", id: "last" }, el("h2", {}, `Hand ${r.hand}: ${r.showdown ? "showdown" : "won without a showdown"}`));
    for (const [s, cards] of Object.entries(r.hands)) {
      const won = r.payouts[s] || 0;
      const who = String(r.names[s]).startsWith("Riemann") ? r.names[s] : person(r.names[s]);
      const row = cardRow(cards); row.classList.add("small");
      const cat = r.strengths && r.strengths[s] !== undefined ? ` · ${category(r.strengths[s])}` : "";
      panel.append(el("p", {}, `${Number(s) + 1}. ${who}${cat}` + (won ? ` · takes ${jbits(won)}` : "")), row);
    }
    if (rev) {
      const c = checks[r.hand];
      panel.append(el("p", { class: "muted" }, "Commitment published before the hand"),
        el("p", { class: "mono", id: "last-commitment" }, localStorage.getItem(commitKey(r.hand)) || "(not seen by this page)"),
        el("p", { class: "muted" }, "Salt"), el("p", { class: "mono" }, rev.salt),
        el("p", { class: "muted" }, "Deck"), el("p", { class: "mono deck", id: "last-deck" }, rev.deck.join(" ")),
        el("button", { id: "check-deck", onclick: () => doCheck(r.hand, rev) }, "Check the deck"));
      if (c && c.pending) panel.append(el("p", {}, "Checking…"));
      else if (c && c.unseen) panel.append(el("p", { class: "bad", id: "check-result" }, "This page did not see the commitment before the hand: nothing to check against."));
      else if (c && c.error) panel.append(el("p", { class: "bad", id: "check-result" }, `Cannot check: ${c.error}`));
      else if (c) {
        panel.append(el("p", { class: c.ok ? "ok" : "bad", id: "check-result" }, c.ok
          ? "Match: the deck and salt hash to the commitment published before the hand."
          : "Mismatch: the deck and salt do not hash to the commitment published before the hand."),
        el("p", { class: "muted" }, `SHA-256 computed with ${c.by}:`), el("p", { class: "mono" }, c.computed));
      }
    }
    return panel;
  }

  function render() {
    root.innerHTML = "";
    if (!view) { root.textContent = closed ? "No such table." : "Connecting…"; return; }
    const hand = view.hand, y = you(), seat = mySeat();
    const link = `${location.origin}/?room=${roomId}`;
    const input = el("input", { readonly: true, value: link, id: "table-link", "aria-label": "the table's link" });
    root.append(el("h2", {}, `Five-seat table${view.closed ? " (closed)" : ""}`),
      el("div", { class: "link" }, input, el("button", { class: "quiet", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(link).catch(() => {}); } }, "Copy link")),
      el("p", { class: "muted" }, seat === null ? "Anyone with the link can watch or take an open seat." : `You sit in seat ${seat + 1}.`));
    if (seat === null && !view.closed) {
      if (buyin === null || buyin * 100 > bank) buyin = BUYINS.find((b) => b * 100 <= bank) || null;  // the smallest that fits, shown chosen
      const choose = el("div", { class: "actions", id: "buyins" }, el("span", {}, "Buy-in: "));
      for (const b of BUYINS) {
        choose.append(el("button", { "data-buyin": b, class: buyin === b ? "chosen" : "", disabled: b * 100 > bank,
          title: b * 100 > bank ? "above your bank" : "", onclick: () => { buyin = b; render(); } }, `${b}`));
      }
      root.append(choose, el("p", { class: "muted" }, bank < BUYINS[0] * 100
        ? `Your bank holds ${jbits(bank)}: a buy-in is at least ${BUYINS[0]}. The bank recovers toward 8 over time.`
        : `Your bank holds ${jbits(bank)}; a buy-in is never more.`));
    }
    // a seated player sees the hand, their cards and their actions first (no scrolling on a
    // phone); someone choosing a seat sees the seats first
    if (seat === null) root.append(seatList(hand));
    if (hand) {
      root.append(el("div", { class: "panel", id: "hand" },
        el("p", {}, `Hand ${hand.hand} · ${hand.phase === "pre" ? "first betting round" : hand.phase === "draw" ? "the draw" : "second betting round"} · pot ${jbits(hand.pot_cents)}`),
        el("p", {}, hand.to_act === null ? "" : hand.to_act === seat ? "Your turn " : `Seat ${hand.to_act + 1} to act `, el("span", { class: "clock", id: "clock", "data-clock": true })),
        el("div", { class: "clockbar" }, el("div", { id: "clockbar" })),
        el("p", { class: "muted" }, "Deck commitment (SHA-256, published before the deal)"), el("p", { class: "mono", id: "commitment" }, hand.commitment)));
    }
    if (y && y.cards && y.cards.length && hand) {
      if (discardHand !== hand.hand) { discardHand = hand.hand; discard = new Set(); }
      const drawing = hand.phase === "draw" && hand.to_act === seat;
      const row = cardRow(y.cards, (c) => ({ out: drawing && discard.has(c),
        onTap: drawing ? () => { discard.has(c) ? discard.delete(c) : discard.add(c); render(); } : null }));
      row.id = "mine";
      root.append(el("div", { class: "panel" }, el("p", {}, drawing ? `Tap the cards to replace: ${discard.size} to draw.` : "Your cards"), row));
    }
    const acts = el("div", { class: "actions", id: "actions" });
    if (hand && seat !== null && hand.to_act === seat && !(y && y.away)) {
      for (const m of view.legal || []) {
        if (m.kind === "draw") {
          acts.append(el("button", { class: "primary", "data-act": "draw", onclick: () => sock.command("draw", { discard: [...discard] }) },
            discard.size ? `Draw ${discard.size}` : "Stand pat"));
        } else {
          const { type, ...fields } = m.cmd;
          acts.append(el("button", { "data-act": m.kind, onclick: () => sock.command(type, fields) }, moveLabel(m)));
        }
      }
    }
    if (y && y.away) acts.append(el("button", { class: "primary", "data-act": "back", onclick: () => sock.command("back") }, "I’m back"));
    root.append(acts);
    if (y && y.away) root.append(el("p", { id: "away" }, "You are marked away after three timeouts in a row; you sit out until you press I’m back."));
    if (seat !== null) root.append(seatList(hand));
    if (seat !== null && !view.closed) {
      const info = view.seats[String(seat)];
      root.append(el("div", { class: "actions" }, info && info.leaving
        ? el("p", { class: "muted" }, "You are leaving: your stack is paid when this hand ends.")
        : el("button", { class: "quiet", id: "leave", onclick: () => sock.command("leave") }, "Leave the table")));
    }
    if (!hand && !view.closed) {
      const ready = Object.values(view.seats).filter((s) => (s.kind === "person" ? s.stack_cents : s.abits_cents) >= 100 && !s.away).length;
      const due = view.next_deadline ? Math.max(0, Math.ceil(view.next_deadline - Date.now() / 1000)) : null;
      root.append(el("p", { class: "muted", id: "waiting" }, ready >= 2
        ? (due !== null && due > 1 ? `The next hand starts in about ${due} s.` : "The next hand starts in a moment.")
        : "A hand starts when two seated players who are not away hold 1 jbit or more."));
    }
    const last = lastHand();
    if (last) root.append(last);
    if (y && y.receipts && y.receipts.length) {
      root.append(el("details", { class: "panel" }, el("summary", {}, `Your receipts at this table (${y.receipts.length})`),
        el("ul", { class: "log" }, y.receipts.map((r) => el("li", {}, `${r.kind} ${jbits(r.amount_cents)} · `, el("span", { class: "mono" }, r.sha256.slice(0, 16) + "…"))))));
    }
    if (error) root.append(el("p", { class: "error", id: "error" }, error));
    root.append(el("p", {}, el("a", { href: "/?history=1" }, "Your hands"), " · ", el("a", { href: "/" }, "Lobby")));
    tickClock();
  }
  render();
  return { sock, stop: () => clearInterval(timer) };
}
