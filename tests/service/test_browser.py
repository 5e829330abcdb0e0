"""The page in a real browser: Debian's chromium driven by Playwright (``executable_path``; never
``playwright install``) against a real uvicorn server on 127.0.0.1 with a SQLite database.

(a) Two players in two browser contexts open a five-seat table, sit, play a hand to showdown (a
    third context watches: no card before the hand ends) and check the deck: the page's SHA-256
    (Web Crypto) matches the commitment it saw before the hand, which is also
    :func:`poker51.table.deal.deck_commitment` of the revealed deck and salt in Python; a tampered
    commitment, deck or salt reads "Mismatch".  Then one leaves and is paid.
(c) A table with a 1-second clock: three timeouts mark both players away; "I'm back"; Riemann
    added to an open seat with abits equal to the adder's stack, and removed.
(b) One player plays a heads-up hand against Riemann v0.6, reloads mid-hand and finds the same
    cards, pot, keep and legal actions; finishes it, checks the deck (the seed's hash and its
    shuffle, recomputed in the page) and opens the hand's log from the history.
(d) The card room: two players open a Hold'em table from the lobby, sit with their buy-ins, play
    one hand to its showdown by the page's buttons (the legal actions only, a bet sized in the
    page), open the hand's archived log (replayed action by action, and step by step) and check
    the deck: the page's SHA-256 of the seed is the commitment it saw before the hand (Python
    agrees), the page re-deals the hand from the seed card by card (Match), a log with two hole
    cards swapped between the seats reads "Mismatch" naming the first card of the deal that
    differs, and a commitment it did not see reads "Mismatch".  Then one sits out, comes back and
    leaves, and is paid.
(e) The card room's 3 Sets at a practice table (open to all): a choice made in advance discarded
    and one played (in the hand and in its archived log), chat, a report and a dispute (to the
    store), chips added (pending, then in the stack at the next deal), a laying chosen by tapping
    cards and boards (the archived log records exactly it; the other page never sees it before the
    showdown), and the hand checked from the history page.
(f) The card room's other games (OG Omaha, Omaha 5 and 3 Cards, Open Flop, Random) at practice
    tables, by the same two players: each hand played to its end by the legal buttons, the hole
    cards and boards each game deals, a muck (in the log, never on the other page), and a third
    context watching the Random table checks its seed; the Random hand's log re-deals to Match
    and draws the block's game again.
(g) The page's re-deal (cardlog.js) against the engine's deal on seeded hands of every game, and
    the first card of a tampered log named at the slot Python's ``deal_order`` gives.

Screenshots at a phone's width (375 px) and a desktop's go to ``results/test-artifacts/browser/``.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import time

import pytest
from browser_helpers import (
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    ServerThread,
    ensure_chromium,
    shot,
)

from poker51.cards import parse_card
from poker51.table.deal import deck_bytes, deck_commitment

HEX64 = re.compile(r"^[0-9a-f]{64}$")
STEP_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory, riemann):
    from poker51.service.app import Host, create_app
    from poker51.service.rooms import Context
    from poker51.service.store import Store

    db = tmp_path_factory.mktemp("browser") / "service.db"
    store = Store.open(f"sqlite:///{db}", now=time.time())
    host = Host(store, Context(riemann={"standard": riemann}))
    srv = ServerThread(create_app(host, clock_period=0.2)).start()
    try:
        yield srv, host
    finally:
        srv.stop()
        store.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    try:
        binary = ensure_chromium()
    except RuntimeError as exc:
        pytest.fail(f"the browser tests need Debian's chromium: {exc}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=binary, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def context(browser, size):
    ctx = browser.new_context(viewport=size)
    ctx.set_default_timeout(STEP_MS)
    return ctx


def buttons(page, selector="#actions button"):
    return [b.inner_text() for b in page.query_selector_all(selector)]


def press(page, act: str) -> bool:
    """Click the action button ``act`` if the page shows it, then wait until the page has redrawn
    (the clicked button is gone: the server's answer arrived).  The page redraws on every frame,
    so a button can vanish under the click: then nothing was pressed."""
    from playwright.sync_api import Error as PlaywrightError

    button = page.query_selector(f'#actions button[data-act="{act}"]')
    if button is None:
        return False
    try:
        button.click(timeout=2000)
    except PlaywrightError:
        return False
    with contextlib.suppress(PlaywrightError):
        button.wait_for_element_state("hidden", timeout=5000)
    return True


def play_checks(page, draw_one: bool) -> bool:
    """One move if it is this page's turn: discard the first card and draw (or stand pat) at the
    draw, else check.  Whether it moved."""
    if page.query_selector('#actions button[data-act="draw"]') is not None:
        if draw_one:
            page.click("#mine button.card >> nth=0")
            page.wait_for_selector('#actions button[data-act="draw"]:has-text("Draw 1")')
        return press(page, "draw")
    return press(page, "check")


# --------------------------------------------------------------------------- (a) five-seat
def test_two_players_five_seat_hand_to_showdown_and_check_the_deck(server, browser):
    srv, host = server
    a_ctx, b_ctx, c_ctx = context(browser, PHONE), context(browser, DESKTOP), context(browser, PHONE)
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(srv.url + "/")
        a.click("#open-table")
        a.wait_for_url(re.compile(r"\?room="))
        link = a.input_value("#table-link")
        room_id = link.split("room=")[1]
        assert link == f"{srv.url}/?room={room_id}"
        shot(a, "fiveseat-open-phone")

        b.goto(link)
        b.wait_for_selector("#seats")
        # the buy-ins: 2, 4, 8 offered with a bank of 8; 16 is above it
        assert [x.get_attribute("data-buyin") for x in b.query_selector_all("#buyins button")] == ["2", "4", "8", "16"]
        assert b.is_disabled('#buyins button[data-buyin="16"]') and not b.is_disabled('#buyins button[data-buyin="8"]')

        a.click('#buyins button[data-buyin="4"]')
        a.click('#seats button[data-sit="0"]')
        a.wait_for_selector('#seats li[data-seat="0"].me')
        assert "Bank 4 jbits" in a.inner_text("#bank")
        b.click('#buyins button[data-buyin="4"]')
        b.click('#seats button[data-sit="2"]')

        # the hand starts: both see the same commitment before any action
        a.wait_for_selector("#commitment")
        b.wait_for_selector("#commitment")
        commitment = a.inner_text("#commitment")
        assert HEX64.match(commitment) and b.inner_text("#commitment") == commitment
        a.wait_for_selector("#mine button.card, #mine div.card")
        b.wait_for_selector("#mine .card")
        mine_a = [c.get_attribute("data-card") for c in a.query_selector_all("#mine .card")]
        mine_b = [c.get_attribute("data-card") for c in b.query_selector_all("#mine .card")]
        assert len(mine_a) == len(mine_b) == 5 and not set(mine_a) & set(mine_b)
        assert re.search(r"\d+ s", a.inner_text("#hand"))  # the clock is visible
        # a watcher with the link: the public table, no card of anyone until the hand ends
        c = c_ctx.new_page()
        c.goto(link)
        c.wait_for_selector("#commitment")
        assert c.inner_text("#commitment") == commitment
        assert c.query_selector("#mine") is None and c.query_selector_all("[data-card]") == []
        assert c.query_selector_all("#seats button[data-sit]")  # open seats to take
        shot(a, "fiveseat-hand-phone")
        shot(b, "fiveseat-hand-desktop")

        # checks to the showdown; A replaces one card at the draw, B stands pat
        deadline = time.monotonic() + 30
        while a.query_selector("#last") is None or b.query_selector("#last") is None:
            assert time.monotonic() < deadline, "the hand did not reach its showdown"
            moved = play_checks(a, draw_one=True) or play_checks(b, draw_one=False)
            if moved:
                a.wait_for_timeout(150)
            else:
                a.wait_for_timeout(50)
        last = a.inner_text("#last")
        assert "Hand 1: showdown" in last
        assert a.inner_text("#last-commitment") == commitment
        c.wait_for_selector("#last")
        assert len(c.query_selector_all("#last [data-card]")) == 10  # every hand shown after the hand

        # Check the deck on both pages: a match, and Python agrees on the format
        for page in (a, b, c):
            page.click("#check-deck")
            page.wait_for_selector("#check-result")
            assert page.inner_text("#check-result").startswith("Match"), page.inner_text("#check-result")
        shot(a, "fiveseat-checked-phone")
        shot(b, "fiveseat-checked-desktop")
        reveal = host.slots[room_id].room.last["reveal"]
        deck, salt = reveal["deck"], reveal["salt"]
        assert deck_commitment([parse_card(c) for c in deck], bytes.fromhex(salt)) == commitment

        # the page's hash of tampered decks: a mismatch each time; its own SHA-256 = Web Crypto = Python
        swapped = [deck[1], deck[0], *deck[2:]]
        got = a.evaluate(
            """async ([deck, swapped, salt, c]) => {
                 const m = await import("/static/js/deck.js");
                 const good = await m.checkDeck(deck, salt, c);
                 const bad1 = await m.checkDeck(swapped, salt, c);
                 const bad2 = await m.checkDeck(deck, salt.slice(0, -1) + (salt.endsWith("0") ? "1" : "0"), c);
                 const own = m.hex(m.sha256Sync(m.deckBytes(deck, salt)));
                 return [good.ok, good.by, bad1.ok, bad2.ok, own, m.hex(m.sha256Sync(new Uint8Array(0)))];
               }""",
            [deck, swapped, salt, commitment],
        )
        assert got == [True, "Web Crypto", False, False, commitment, hashlib.sha256(b"").hexdigest()]
        assert deck_bytes([parse_card(c) for c in deck], bytes.fromhex(salt)).startswith(b"poker51-deck/1\n")

        # the page's own check with a commitment it did not see: "Mismatch"
        a.evaluate(f"localStorage.setItem('poker51-commit:{room_id}:1', '{'0' * 64}')")
        a.click("#check-deck")
        a.wait_for_selector("#check-result.bad")
        assert a.inner_text("#check-result").startswith("Mismatch")
        shot(a, "fiveseat-mismatch-phone")

        # A leaves: the seat opens on B's page, A's stack comes back; the two banks and B's stack
        # hold the 16 jbits the two accounts started with (nobody else played against them)
        a.click("#leave")
        b.wait_for_selector('#seats li[data-seat="0"] button')
        store = host.store
        acc_a, acc_b = (store.account_of(p.evaluate("localStorage.getItem('poker51-token')")) for p in (a, b))
        bank_a = store.bank(acc_a)  # cents, as the page shows them: "Bank 5.5 jbits"
        shown = f"{bank_a // 100}" if bank_a % 100 == 0 else f"{bank_a / 100:.2f}".rstrip("0")
        a.wait_for_function(f"document.querySelector('#bank').textContent === 'Bank {shown} jbits'")
        chips = host.slots[room_id].room.chips()  # cents: stacks and chips in play, per account
        assert store.bank(acc_a) + store.bank(acc_b) + chips[acc_a] + chips[acc_b] == 1600
        assert chips[acc_a] == 0 and store.bank(acc_a) > 400  # A's stack is back in A's bank
    finally:
        for ctx in (a_ctx, b_ctx, c_ctx):
            ctx.close()


# --------------------------------------------------------------------------- (b) heads-up
def hand_state(page) -> dict:
    return {
        "cards": [c.get_attribute("data-card") for c in page.query_selector_all("#mine .card")],
        "kept": [c.get_attribute("data-card") for c in page.query_selector_all("#mine .card.kept")],
        "pot": page.inner_text("#pot"),
        "riemann": page.inner_text("#riemann"),
        "actions": buttons(page),
    }


def test_heads_up_hand_resumes_after_a_reload(server, browser):
    srv, _host = server
    ctx = context(browser, PHONE)
    try:
        page = ctx.new_page()
        page.goto(srv.url + "/")
        page.wait_for_selector("#play-riemann")
        shot(page, "lobby-phone")
        page.click("#play-riemann")
        page.wait_for_url(re.compile(r"\?room="))
        page.click('button[data-act="deal"]')
        page.wait_for_selector("#mine button.card")
        # keep the first two cards: the draw count and the odds panel follow the selection
        page.click("#mine button.card >> nth=0")
        page.click("#mine button.card >> nth=1")
        page.wait_for_selector("#odds")
        assert "you will draw 3" in page.inner_text("#keepnote")
        assert "C(46" not in page.inner_text("body") and "15,180" in page.inner_text("body")  # C(46, 3) draws
        shot(page, "headsup-keep-phone")
        page.click('#actions button[data-act="check"]')
        page.wait_for_function("!document.querySelector('#keepnote')")
        page.wait_for_selector("#actions button")
        before = hand_state(page)
        assert len(before["cards"]) == 5 and len(before["kept"]) == 2 and before["actions"]
        shot(page, "headsup-midhand-phone")

        page.reload()
        page.wait_for_selector("#mine .card")
        page.wait_for_selector("#actions button")
        after = hand_state(page)
        assert after == before
        shot(page, "headsup-reloaded-phone")

        # to the end: call or check, draw when asked
        deadline = time.monotonic() + 30
        while page.query_selector("#result") is None:
            assert time.monotonic() < deadline, "the heads-up hand did not end"
            any(press(page, act) for act in ("draw", "check", "call"))
            page.wait_for_timeout(150)
        page.click("#check-deck")
        page.wait_for_selector("#check-result")
        assert page.inner_text("#check-result").startswith("Match"), page.inner_text("#check-result")
        shot(page, "headsup-result-phone")

        # the hand's log from the history, and its deck checked there too
        page.goto(srv.url + "/?history=1")
        page.click("#history a[data-hand]")
        page.wait_for_selector("#hand-log li")
        page.click("#check-deck")
        page.wait_for_selector("#check-result p")
        assert page.inner_text("#check-result").startswith("Match"), page.inner_text("#check-result")
        shot(page, "headsup-log-phone")
        page.set_viewport_size(DESKTOP)
        shot(page, "headsup-log-desktop")
    finally:
        ctx.close()


# --------------------------------------------------------------------------- (c) the clock
def test_three_timeouts_mark_a_player_away_until_im_back(server, browser):
    """A table with a 1-second clock (its params, as POST /api/rooms takes them): nobody acts, the
    clock checks and stands pat for both, three timeouts each mark both away; "I'm back" returns one.
    Then Riemann added to an open seat, with abits equal to the adder's stack, and removed."""
    srv, _host = server
    a_ctx, b_ctx = context(browser, PHONE), context(browser, PHONE)
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(srv.url + "/")
        a.wait_for_selector("#open-table")
        room = a.evaluate(
            """async () => (await (await import('/static/js/api.js'))
                 .createRoom('fiveseat', {clock_s: 1, pause_s: 600})).room"""
        )
        for page, seat in ((a, 1), (b, 4)):
            page.goto(f"{srv.url}/?room={room}")
            page.click('#buyins button[data-buyin="2"]')
            page.click(f'#seats button[data-sit="{seat}"]')
            page.wait_for_selector(f'#seats li[data-seat="{seat}"].me')
        a.wait_for_selector('#actions button[data-act="back"]', timeout=20_000)
        b.wait_for_selector('#actions button[data-act="back"]', timeout=5_000)
        assert "away" in a.inner_text('#seats li[data-seat="1"]') and "away" in a.inner_text('#seats li[data-seat="4"]')
        assert "Hand 1: showdown" in a.inner_text("#last")  # checked and stood pat to the showdown
        shot(a, "fiveseat-away-phone")
        a.click('#actions button[data-act="back"]')
        a.wait_for_selector("#away", state="detached")
        assert "away" not in a.inner_text('#seats li[data-seat="1"]')
        assert "away" in a.inner_text('#seats li[data-seat="4"]')
        assert b.query_selector('#actions button[data-act="back"]') is not None

        # A adds Riemann to seat 1 (the page's first seat): abits equal to A's stack; then removes it
        a.click('#seats button[data-riemann="0"]')
        # (not :has-text("Riemann"): the open seat's "Add Riemann" button matches that)
        a.wait_for_selector('#seats button[data-riemann="0"]', state="detached")
        a.wait_for_selector('#seats li[data-seat="0"]:has-text("abit")')
        stack = re.search(r"(\d+) jbits?", a.inner_text('#seats li[data-seat="1"]')).group(1)
        assert re.search(rf"\b{stack} abits?\b", a.inner_text('#seats li[data-seat="0"]'))
        assert "added by you" in a.inner_text('#seats li[data-seat="0"]')
        shot(a, "fiveseat-riemann-phone")
        a.click('#seats li[data-seat="0"] button:has-text("Remove")')
        a.wait_for_selector('#seats button[data-riemann="0"]')
    finally:
        a_ctx.close()
        b_ctx.close()


# --------------------------------------------------------------------------- (d) the card room
def acts(page) -> set[str]:
    return {x.get_attribute("data-act") for x in page.query_selector_all("#actions button[data-act]")}


def card_room_move(page, bet: dict) -> bool:
    """One move if this page has one: show at the showdown; on the flop the first to act bets 6
    (typed into the page's size box), else check, else call.  Whether it moved."""
    options = acts(page)
    if not options:
        return False
    if "show" in options:
        return press(page, "show")
    if "bet" in options and page.get_attribute("#hand", "data-round") == "flop" and not bet:
        page.fill("#size", "6")
        page.dispatch_event("#size", "change")
        assert page.inner_text('#actions button[data-act="bet"]') == "Bet 6"
        bet["by"] = page
        return press(page, "bet")
    return press(page, "check") or press(page, "call")


def test_card_room_holdem_hand_through_the_page_then_its_log_replayed_and_the_deck_checked(server, browser):
    srv, host = server
    a_ctx, b_ctx = context(browser, PHONE), context(browser, DESKTOP)
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(srv.url + "/")
        a.select_option("#cardroom-game", "holdem")
        a.click("#open-cardroom")
        a.wait_for_url(re.compile(r"\?room="))
        link = a.input_value("#table-link")
        room_id = link.split("room=")[1]
        assert link == f"{srv.url}/?room={room_id}" and host.slots[room_id].kind == "cardroom"
        assert "Texas Hold'em" in a.inner_text("h2") and "Blinds 1/2 chips" in a.inner_text("#stakes")

        # the buy-in: one to 100 big blinds (2..200 chips), the bank holding 800 cents
        b.goto(link)
        b.wait_for_selector("#seats")
        assert (b.get_attribute("#buyin", "min"), b.get_attribute("#buyin", "max")) == ("2", "200")
        assert len(b.query_selector_all("#seats button[data-sit]")) == 9  # a Hold'em table seats nine
        a.fill("#buyin", "120")
        a.click('#seats button[data-sit="0"]')
        a.wait_for_selector('#seats li[data-seat="0"].me')
        b.click('#seats button[data-sit="1"]')  # the default: 200 chips

        # the hand starts at once: the same commitment on both pages, each its own two cards only
        a.wait_for_selector("#commitment")
        b.wait_for_selector("#mine .card")
        a.wait_for_selector("#mine .card")
        commitment = a.inner_text("#commitment")
        assert HEX64.match(commitment) and b.inner_text("#commitment") == commitment
        mine_a = [c.get_attribute("data-card") for c in a.query_selector_all("#mine .card")]
        mine_b = [c.get_attribute("data-card") for c in b.query_selector_all("#mine .card")]
        assert len(mine_a) == len(mine_b) == 2 and not set(mine_a) & set(mine_b)
        assert not {c.get_attribute("data-card") for c in b.query_selector_all("[data-card]")} & set(mine_a)
        # the button, the blinds (seat 1 has the button; seat 2, left of it, posts the small blind)
        assert "button" in a.inner_text('#seats li[data-seat="0"]')
        assert "small blind 1" in a.inner_text('#seats li[data-seat="1"]')
        assert "big blind 2" in a.inner_text('#seats li[data-seat="0"]')
        # the legal actions only, on the page of the player on turn; the clock is shown
        b.wait_for_selector('#actions button[data-act="call"]')
        assert acts(b) == {"fold", "call", "raise", "allin"} and acts(a) == set()
        assert (b.get_attribute("#size", "min"), b.get_attribute("#size", "max")) == ("4", "200")
        assert b.inner_text('#actions button[data-act="call"]') == "Call 1"
        assert re.search(r"\d+ s", b.inner_text("#hand")) and re.search(r"\d+ s", a.inner_text("#hand"))
        shot(a, "cardroom-hand-phone")
        shot(b, "cardroom-hand-desktop")

        bet: dict = {}
        deadline = time.monotonic() + 30
        while a.query_selector("#last") is None or b.query_selector("#last") is None:
            assert time.monotonic() < deadline, "the card-room hand did not end"
            moved = card_room_move(a, bet) or card_room_move(b, bet)
            a.wait_for_timeout(100 if moved else 50)
        assert bet, "nobody bet on the flop"
        result = host.slots[room_id].room.last
        assert result["hand"] == 1 and len(result["shows"]) == 2 and len(result["boards"][0]) == 5
        seed = result["seed"]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment == result["commitment"]
        assert a.inner_text("#last-commitment") == commitment and a.inner_text("#last-seed") == seed
        assert "shows" in a.inner_text("#last") and "The pot: 16 chips" in a.inner_text("#last")
        b.click("#check-seed")
        b.wait_for_selector("#seed-result p")
        assert b.inner_text("#seed-result").startswith("Match"), b.inner_text("#seed-result")
        shot(b, "cardroom-result-desktop")

        # the hand's archived log, replayed in the page, and its deck checked
        a.click("#hand-link")
        a.wait_for_selector("#hand-log li")
        steps = [x.inner_text() for x in a.query_selector_all("#hand-log li")]
        # dealt one card at a time from the seat left of the button: B's (hidden here), then A's
        order = ["the small blind", "the big blind", "is dealt 2 cards", "You are dealt", "Betting before the flop",
                 "Flop:", "bets? 6 chips", "calls? 6 chips", "Turn:", "River:", "shows?", "The pot: 16 chips",
                 "Stacks after the hand"]  # fmt: skip
        at = [next(i for i, t in enumerate(steps) if re.search(w, t)) for w in order]
        assert at == sorted(at), steps
        assert not any(set(mine_b) <= set(t.split()) and "dealt" in t for t in steps)  # B's cards: only as shown
        a.click("#check-deck")
        a.wait_for_selector("#check-result p.ok, #check-result p.bad")
        assert a.inner_text("#check-result").startswith("Match: SHA-256 of the seed is the commitment this page saw"), (
            a.inner_text("#check-result")
        )
        assert a.inner_text("#log-commitment") == commitment
        # IX.5 "the log decides": the page re-deals the hand from the seed by the rule and compares
        # card by card: two players, 2 hole cards each, three burns, five board cards
        assert "the seed's deal gives every card of this log in order (12 cards" in a.inner_text("#check-verdict")
        assert len(a.query_selector_all("#redeal li")) == 12
        shot(a, "cardroom-log-phone")
        # the replay step by step
        a.click("#step-start")
        a.click("#step-next")
        a.click("#step-next")
        assert a.inner_text("#step-count").strip() == f"step 3 of {len(steps)}"
        assert len([li for li in a.query_selector_all("#hand-log li") if li.is_visible()]) == 3
        a.click("#step-all")
        assert len([li for li in a.query_selector_all("#hand-log li") if li.is_visible()]) == len(steps)
        # one card of the log tampered (A's first hole card and B's swapped in the log the page
        # loads): "Mismatch" naming the first card of the deal that differs, B's first (dealt first)
        store = host.store
        acc_a, acc_b = (store.account_of(p.evaluate("localStorage.getItem('poker51-token')")) for p in (a, b))
        rec = store.hand(f"{room_id}:1")[0]["log"]["record"]
        assert [s["name"] for s in rec["seats"]] == [acc_b, acc_a]  # from the seat left of the button

        def swap_first_hole_cards(route):
            resp = route.fetch()
            body = resp.json()
            hole = body["log"]["record"]["hole"]
            hole[acc_a][0], hole[acc_b][0] = hole[acc_b][0], hole[acc_a][0]
            route.fulfill(response=resp, json=body)

        a.route("**/api/hands/**", swap_first_hole_cards)
        a.reload()
        a.click("#check-deck")
        a.wait_for_selector("#check-result p.bad")
        verdict = a.inner_text("#check-verdict")
        assert verdict == (
            f"Mismatch: the seed's deal differs from the log at card 1 of 12, seat 2 (Player {acc_b[1:5]})'s 1st "
            f"hole card: the seed deals {cardtext(rec['hole'][acc_b][0])}, "
            f"the log says {cardtext(rec['hole'][acc_a][0])}."
        ), verdict
        assert (a.get_attribute("#check-verdict", "data-at"), a.get_attribute("#check-verdict", "data-slot")) == (
            "1", f"hole:{acc_b}:0")  # fmt: skip
        shot(a, "cardroom-log-tampered-phone")
        a.unroute("**/api/hands/**")
        # a commitment this page did not see before the hand: "Mismatch"
        a.evaluate(f"localStorage.setItem('poker51-commit:{room_id}:1', '{'0' * 64}')")
        a.reload()
        a.click("#check-deck")
        a.wait_for_selector("#check-result p.bad")
        assert a.inner_text("#check-result").startswith("Mismatch"), a.inner_text("#check-result")

        # B sits out, comes back, and leaves (folding the next hand if it was dealt meanwhile): the
        # seat opens, B's chips are in B's bank, and the two banks with A's chips hold the 16 jbits
        b.click("#sit-out")
        b.wait_for_selector("#sit-in")
        assert "sitting out" in b.inner_text('#seats li[data-seat="1"]')
        b.click("#sit-in")
        b.wait_for_selector("#sit-out")
        b.click("#leave")
        b.wait_for_selector('#seats button[data-sit="1"]')
        chips = host.slots[room_id].room.chips()
        assert acc_b not in chips and store.bank(acc_a) + store.bank(acc_b) + chips[acc_a] == 1600
        bank_b = store.bank(acc_b)
        shown = f"{bank_b // 100}" if bank_b % 100 == 0 else f"{bank_b / 100:.2f}".rstrip("0")
        b.wait_for_function(f"document.querySelector('#bank').textContent === 'Bank {shown} jbits'")
    finally:
        a_ctx.close()
        b_ctx.close()


# --------------------------------------------------------------------------- (e) 3 Sets through the page
def until(page, what: str, act, selector: str, tries: int = 5) -> None:
    """``act()`` until ``selector`` shows on ``page`` (the page redraws on every frame, so a button
    can vanish under a click: then it is clicked again)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(tries):
        with contextlib.suppress(PlaywrightError):
            act()
        with contextlib.suppress(PlaywrightError):
            page.wait_for_selector(selector, timeout=2000)
            return
    raise AssertionError(f"{what}: {selector} never showed")


def on_turn(pages, timeout: float = 15.0):
    """The page whose player is on turn (it shows betting actions) and the other one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for k, p in enumerate(pages):
            if acts(p) & {"check", "call", "bet", "fold"}:
                return p, pages[1 - k]
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn")


def test_card_room_three_sets_advance_choice_laying_chat_report_dispute_and_chips_added(server, browser):
    """Two players at a practice 3 Sets table (open to all: no VIP), a seeded deck and long clocks:
    a choice made in advance discarded (a bet came) and one played (the check appears in the hand
    and in its archived log); chat reaches the other page, a report and a dispute reach the store;
    chips added show as pending and arrive at the next deal; one player lays 6-1 / 2-5 / 3-4 through
    the page (the archived log records exactly that, the other page never sees it before the
    showdown) while the other lays as dealt; the hand is checked from the history page (Match)."""
    import sqlalchemy as sa

    from poker51.service.store import conduct

    srv, host = server
    a_ctx, b_ctx = context(browser, PHONE), context(browser, DESKTOP)
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(srv.url + "/")
        a.wait_for_selector("#open-cardroom")
        params = {"kind": "cardroom", "game": "three_sets", "practice": True, "deck": "seedsequence",
                  "entropy": 2851, "clock_s": 120, "lay_s": 120, "pause_s": 1}  # fmt: skip
        room_id = a.evaluate(
            """async (body) => {
                 const auth = 'Bearer ' + localStorage.getItem('poker51-token');
                 const r = await fetch('/api/rooms', {method: 'POST', body: JSON.stringify(body),
                   headers: {'Content-Type': 'application/json', Authorization: auth}});
                 const d = await r.json(); if (!r.ok) throw new Error(d.detail); return d.room; }""",
            params,
        )
        link = f"{srv.url}/?room={room_id}"
        a.goto(link)
        b.goto(link)
        b.wait_for_selector("#seats")
        assert len(b.query_selector_all("#seats button[data-sit]")) == 6  # 3 Sets seats six
        a.fill("#buyin", "40")
        a.click('#seats button[data-sit="0"]')
        a.wait_for_selector('#seats li[data-seat="0"].me')
        b.fill("#buyin", "40")
        b.click('#seats button[data-sit="1"]')
        b.wait_for_selector("#mine .card")
        a.wait_for_selector("#mine .card")
        store = host.store
        acc_a, acc_b = (store.account_of(p.evaluate("localStorage.getItem('poker51-token')")) for p in (a, b))
        hole_a = [c.get_attribute("data-card") for c in a.query_selector_all("#mine .card")]
        hole_b = [c.get_attribute("data-card") for c in b.query_selector_all("#mine .card")]
        assert len(hole_a) == len(hole_b) == 6 and not set(hole_a) & set(hole_b)
        assert len(a.query_selector_all("#hand .cards.board")) == 3  # three flops at once
        assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # six cards fit a phone

        # chat (11.4): A's message reaches B's page; a report of B from A's seat list reaches the store
        a.fill("#chat-text", "good luck, all")
        a.click("#chat-send")
        b.wait_for_selector('#chat-log li:has-text("good luck, all")')
        assert b.inner_text("#chat-log li").startswith(f"Player {acc_a[1:5]}: ")
        assert a.inner_text("#chat-log li").startswith("You: ")
        a.click('#seats button[data-report="1"]')
        a.select_option("#report-reason", "other")
        a.click("#report-send")
        a.wait_for_selector('#notice:has-text("Your report of")')
        assert f"Player {acc_b[1:5]} (seat 2)" in a.inner_text("#notice")
        assert b.query_selector('#seats button[data-report="1"]') is None  # no report of oneself

        # chips added (1.9): pending now, at the next deal in the stack
        assert b.get_attribute("#add-amount", "max") == str(200 - 40)  # 100 big blinds at most at the table
        b.fill("#add-amount", "30")
        b.click("#add-chips")
        a.wait_for_selector('#seats li[data-seat="1"]:has-text("+30 at the next deal")')
        assert "arrive at the next deal" in b.inner_text("#notice")
        stack_b = int(b.inner_text('[data-stack="1"]').split()[0])
        assert stack_b < 40  # the ante is in the pot; the 30 chips are not in the stack yet

        # 8.5: the player not on turn chooses "check" in advance; a bet comes: discarded
        first, second = on_turn([a, b])
        assert first.query_selector("#advance [data-advance]") is None  # on turn: no choices in advance
        assert {x.get_attribute("data-advance") for x in second.query_selector_all("#advance [data-advance]")} == {
            "fold", "check_fold", "check", "call"}  # fmt: skip
        until(second, "advance", lambda: second.click('#advance [data-advance="check"]'), "#advance-pending")
        assert "Chosen in advance: Check" in second.inner_text("#advance-pending")
        assert second.get_attribute('#advance [data-advance="check"]', "aria-pressed") == "true"
        # withdrawn with "Clear" (the choice "none"), then chosen again
        until(second, "clear", lambda: second.click("#advance-clear"), "#advance:not(:has(#advance-pending))")
        assert second.get_attribute('#advance [data-advance="check"]', "aria-pressed") != "true"
        until(second, "advance", lambda: second.click('#advance [data-advance="check"]'), "#advance-pending")
        shot(second, "cardroom-3sets-advance-" + ("phone" if second is a else "desktop"))
        assert press(first, "bet")
        second.wait_for_selector("#advance-discarded")
        assert "(Check) was not legal when the action came: discarded" in second.inner_text("#advance-discarded")
        assert second.query_selector("#advance-pending") is None
        second.wait_for_selector('#actions button[data-act="call"]')
        assert press(second, "call")
        # the turn: "check" in advance again, and the check before it: played at once
        second.wait_for_function("document.querySelector('#hand').dataset.round === 'turn'")
        first.wait_for_selector('#actions button[data-act="check"]')
        until(second, "advance", lambda: second.click('#advance [data-advance="check"]'), "#advance-pending")
        assert press(first, "check")
        second.wait_for_function("document.querySelector('#hand').dataset.round === 'river'")
        line = first.wait_for_selector('#table-log li:has-text("chosen in advance")').inner_text()
        assert re.fullmatch(r"(You check|Player \w{4} checks) \(chosen in advance: check\)\.", line), line
        assert line.startswith("Player")  # the second player's check, on the first player's page
        # the river: checks; then the laying
        for p in on_turn([a, b]):
            p.wait_for_selector('#actions button[data-act="check"]')
            assert press(p, "check")

        # 7.6: A lays 6-1 on A, 2-5 on B, 3-4 on C by tapping cards and boards; B lays as dealt
        a.wait_for_selector("#laying")
        b.wait_for_selector('#actions button[data-act="lay"]')
        assert re.search(r"\d+ s", a.inner_text("#laying .clock")) and "Laying" in a.inner_text("#hand")
        assert a.get_attribute("#lay-send", "disabled") is not None  # not before all six are placed
        chosen = [[hole_a[5], hole_a[0]], [hole_a[1], hole_a[4]], [hole_a[2], hole_a[3]]]
        a.click(f'#lay-hand button[data-card="{hole_a[2]}"]')  # a card put on A, then taken back
        a.click('button[data-put="0"]')
        a.click(f'[data-laid="0"] button[data-card="{hole_a[2]}"]')
        a.wait_for_selector(f'#lay-hand button[data-card="{hole_a[2]}"]')
        for board, pair in enumerate(chosen):
            for card in pair:
                a.click(f'#lay-hand button[data-card="{card}"]')
                a.click(f'button[data-put="{board}"]')
        assert [[c.get_attribute("data-card") for c in a.query_selector_all(f'[data-laid="{k}"] .card')]
                for k in range(3)] == chosen  # fmt: skip
        assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(a, "cardroom-3sets-laying-phone")
        a.click("#lay-send")
        a.wait_for_selector("#laid")
        assert "A: " in a.inner_text("#laid")
        b.wait_for_selector('#seats li[data-seat="0"]:has-text("laid")')
        assert not {c.get_attribute("data-card") for c in b.query_selector_all("[data-card]")} & set(hole_a)
        assert press(b, "lay")
        # the final round and the showdown
        deadline = time.monotonic() + 30
        while a.query_selector("#last") is None or b.query_selector("#last") is None:
            assert time.monotonic() < deadline, "the 3 Sets hand did not end"
            moved = card_room_move(a, {"done": True}) or card_room_move(b, {"done": True})
            a.wait_for_timeout(100 if moved else 50)
        hand_id = f"{room_id}:1"
        row = store.hand(hand_id)
        assert row is not None and {acc_a, acc_b} <= set(row[1])
        rec = row[0]["log"]["record"]
        lays = {e["player"]: e["sets"] for e in rec["events"] if e["event"] == "lay"}
        assert lays == {acc_a: chosen, acc_b: [hole_b[0:2], hole_b[2:4], hole_b[4:6]]}
        advanced = [e for e in rec["events"] if e["event"] == "action" and e.get("advance")]
        assert [(e["action"], e["advance"]) for e in advanced] == [("check", "check")]
        assert [e["choice"] for e in rec["events"] if e["event"] == "advance_discarded"] == ["check"]
        laid_a = f"A {cardtext(chosen[0][0])} {cardtext(chosen[0][1])} ("  # A's laying, shown at the showdown
        last_a, last_b = a.inner_text("#last"), b.inner_text("#last")
        assert "You show" in last_a and laid_a in last_a and laid_a in last_b
        shot(b, "cardroom-3sets-result-desktop")

        # 11.7: A disputes the finished hand by its id
        a.click("#dispute")
        assert a.inner_text("#dispute-hand") == hand_id
        a.fill("#dispute-text", "the river looked odd")
        a.click("#dispute-send")
        a.wait_for_selector(f'#notice:has-text("dispute of hand {hand_id}")')
        with store.engine.connect() as conn:
            rows = conn.execute(sa.select(conduct).where(conduct.c.room_id == room_id)).all()
        assert sorted((r.kind, r.account, r.by, r.hand) for r in rows) == [
            ("dispute", acc_a, acc_a, hand_id), ("report", acc_b, acc_a, hand_id)]  # fmt: skip

        # the next deal: B's 30 chips have arrived (its stack after hand 1, plus 30, less the ante)
        after = host.slots[room_id].room.last["stacks"][acc_b]
        b.wait_for_function("(document.querySelector('#hand') || {textContent: ''}).textContent.startsWith('Hand 2')")
        ante = int(re.search(r"ante (\d+)", b.inner_text('#seats li[data-seat="1"]')).group(1))
        assert b.inner_text('[data-stack="1"]') == f"{after + 30 - ante} chips"
        assert "+30" not in b.inner_text('#seats li[data-seat="1"]')

        # the hand from A's history: replayed (A's own laying named, B's not before its show) and checked
        a.goto(srv.url + "/?history=1")
        a.click(f'#history a[data-hand="{hand_id}"]')
        a.wait_for_selector("#hand-log li")
        steps = [x.inner_text() for x in a.query_selector_all("#hand-log li")]
        mine = " · ".join(f"{'ABC'[k]}: {' '.join(cardtext(c) for c in pair)}" for k, pair in enumerate(chosen))
        assert f"You lay {mine}." in steps, steps
        assert any("(chosen in advance: check)" in t for t in steps) and any("discarded" in t for t in steps)
        a.click("#check-deck")
        a.wait_for_selector("#check-result p.ok, #check-result p.bad")
        assert a.inner_text("#check-result").startswith("Match: SHA-256 of the seed is the commitment this page saw"), (
            a.inner_text("#check-result")
        )
        shot(a, "cardroom-3sets-log-phone")
    finally:
        a_ctx.close()
        b_ctx.close()


# --------------------------------------------------------------------------- (f) every other game through the page
def open_table(page, params: dict) -> str:
    """A card-room table opened by ``page``'s account through ``POST /api/rooms``; its id."""
    return page.evaluate(
        """async (body) => {
             const auth = 'Bearer ' + localStorage.getItem('poker51-token');
             const r = await fetch('/api/rooms', {method: 'POST', body: JSON.stringify(body),
               headers: {'Content-Type': 'application/json', Authorization: auth}});
             const d = await r.json(); if (!r.ok) throw new Error(d.detail); return d.room; }""",
        {"kind": "cardroom", **params},
    )


def cards_on(page) -> set[str]:
    """Every card the page shows (its ``data-card``)."""
    return {c.get_attribute("data-card") for c in page.query_selector_all("[data-card]")}


def calm_move(page, muck: dict) -> bool:
    """One move if this page has one, by the legal buttons only: at the showdown muck (where
    ``muck`` asks for one and none was made yet) or show; at 3 Sets' laying, lay as dealt; else
    check, else call.  Whether it moved."""
    options = acts(page)
    if not options:
        return False
    if "muck" in options and muck.get("want") and "page" not in muck:
        muck["page"] = page
        return press(page, "muck")
    for act in ("show", "lay", "check", "call"):
        if act in options:
            return press(page, act)
    return False


def test_card_room_every_other_game_sat_and_played_through_the_page_a_muck_and_a_watcher_checking(server, browser):
    """Two players (the same two contexts) sit at a practice table of each game not yet driven in
    a browser: OG Omaha, Omaha (5 Cards), Omaha (3 Cards), Omaha (Open Flop) and Random (VIP by the
    documented rule, hands played, set directly), each with a seeded deck, and play one hand to its
    end by the legal buttons (call, check, show; 3 Sets' "Lay as dealt" where Random draws it):
    each page holds its own hole cards only, as many as the game deals, and the game's number of
    boards; at the first table the player showing first mucks (the log records the muck, the other
    page never shows those cards); a third context watches the Random table only (its block line,
    no hole card) and its "Check the seed" reads Match; the Random hand's log, opened by a player,
    re-deals to Match and draws the block's game again from its seed."""
    from poker51.rulebook.games import GAMES
    from poker51.rulebook.table import draw_game
    from poker51.service.conduct import VIP_HANDS
    from poker51.table.deal import new_seed

    srv, host = server
    store = host.store
    a_ctx, b_ctx, w_ctx = context(browser, PHONE), context(browser, DESKTOP), context(browser, PHONE)
    try:
        a, b, w = a_ctx.new_page(), b_ctx.new_page(), w_ctx.new_page()
        for p in (a, b, w):
            p.goto(srv.url + "/")
            p.wait_for_selector("#open-cardroom")
        acc_a, acc_b = (store.account_of(p.evaluate("localStorage.getItem('poker51-token')")) for p in (a, b))
        for acc in (acc_a, acc_b):  # VIP by the documented rule (finished hands), set directly
            host.context.conduct.hands[acc] = VIP_HANDS
        random_game = draw_game(new_seed("seedsequence", 1, key=(1, 1)), None)[0]  # block 1's game
        tables = {}
        for k, game in enumerate(("omaha", "omaha5", "omaha3", "omaha_open", "random")):
            entropy = 1 if game == "random" else 40 + k
            params = {"game": game, "practice": True, "deck": "seedsequence", "entropy": entropy,
                      "clock_s": 120, "lay_s": 120, "pause_s": 600}  # fmt: skip
            room_id = open_table(a, params)
            link = f"{srv.url}/?room={room_id}"
            dealt = random_game if game == "random" else game
            rules = GAMES[dealt]
            if game == "random":  # the watcher opens the table before the hand
                w.goto(link)
                w.wait_for_selector("#seats")
            a.goto(link)
            b.goto(link)
            a.wait_for_selector('#seats button[data-sit="0"]')
            a.click('#seats button[data-sit="0"]')
            a.wait_for_selector('#seats li[data-seat="0"].me')
            until(b, "sit", lambda: b.click('#seats button[data-sit="1"]'), '#seats li[data-seat="1"].me')
            a.wait_for_selector("#mine .card")
            b.wait_for_selector("#mine .card")
            hole_a = [c.get_attribute("data-card") for c in a.query_selector_all("#mine .card")]
            hole_b = [c.get_attribute("data-card") for c in b.query_selector_all("#mine .card")]
            assert len(hole_a) == len(hole_b) == rules.hole and not set(hole_a) & set(hole_b), game
            assert rules.title in a.inner_text("#hand")
            # Open Flop and 3 Sets deal the flop at once (one board, or three); the others none yet
            assert len(a.query_selector_all("#hand .cards.board")) == (rules.boards if rules.ante else 0), game
            if game == "random":
                assert "Random: block 1, hand 1 of 3" in a.inner_text("#stakes")
                w.wait_for_selector("#hand")
                assert w.query_selector("#mine") is None and "Random: block 1, hand 1 of 3" in w.inner_text("#stakes")
                assert not cards_on(w) & {*hole_a, *hole_b}
            muck = {"want": k == 0}
            deadline = time.monotonic() + 20
            while a.query_selector("#last") is None or b.query_selector("#last") is None:
                assert time.monotonic() < deadline, f"the {game} hand did not end"
                moved = calm_move(a, muck) or calm_move(b, muck)
                a.wait_for_timeout(60 if moved else 30)
            rec = store.hand(f"{room_id}:1")[0]["log"]["record"]
            assert rec["game"] == dealt and [len(x) for x in rec["boards"]] == [5] * rules.boards
            assert rec["hole"] == {acc_a: hole_a, acc_b: hole_b}
            last_boards = [len(r.query_selector_all(".card")) for r in a.query_selector_all("#last .cards")]
            assert last_boards == [5] * rules.boards, game
            tables[game] = (room_id, rec)
            if k == 0:  # 5.4: a muck is recorded in the log, never shown
                assert "page" in muck, "no muck was offered"
                mucker, other = (acc_a, b) if muck["page"] is a else (acc_b, a)
                assert [(s["player"], s["shown"]) for s in rec["shows"]][0] == (mucker, False)
                assert other.query_selector("#last") and "mucks" in other.inner_text("#last")
                assert not cards_on(other) & set(rec["hole"][mucker])
                shot(other, "cardroom-omaha-muck-" + ("phone" if other is a else "desktop"))
            if game == "omaha5":
                assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # five cards fit a phone
                shot(a, "cardroom-omaha5-phone")

        # the watcher of the Random table checks the seed against the commitment it saw before the hand
        w.wait_for_selector("#last")
        w.click("#check-seed")
        w.wait_for_selector("#seed-result p")
        assert w.inner_text("#seed-result").startswith("Match: SHA-256 of the seed is the commitment this page saw"), (
            w.inner_text("#seed-result")
        )
        assert w.query_selector("#hand-link") is None  # the log opens for the hand's players only
        shot(w, "cardroom-random-watcher-phone")
        # a player of the Random hand opens its log: re-dealt (Match) and the block's game drawn again
        room_id, rec = tables["random"]
        a.goto(f"{srv.url}/?hand={room_id}:1")
        a.click("#check-deck")
        a.wait_for_selector("#check-result p.ok, #check-result p.bad")
        assert a.inner_text("#check-verdict").startswith("Match: SHA-256 of the seed is the commitment this page saw")
        assert f"({rec['cards_dealt']} cards, by {GAMES[random_game].title}'s rule" in a.inner_text("#check-verdict")
        rotation = a.inner_text("#rotation-result")
        assert rotation.startswith("Random, block 1: SHA-256 of the block's seed is its commitment this page saw")
        assert f"draws {GAMES[random_game].title} among" in rotation
        shot(a, "cardroom-random-log-phone")
    finally:
        for ctx in (a_ctx, b_ctx, w_ctx):
            ctx.close()


# --------------------------------------------------------------------------- (g) the deal recomputed in the page
def test_card_room_the_pages_re_deal_is_the_engines_for_every_game_and_names_the_first_card_tampered(server, browser):
    """cardlog.js's re-deal (``redeal``/``compareDeal``, what "Check the deck" runs) against the
    engine: hands of every game (Random's too) dealt by :class:`poker51.rulebook.table.Table` from
    seeds and played with random legal moves, ending on every street; the page's deal of each,
    from the seed's shuffle computed in the page, is exactly the engine's record (each player's
    hole cards, the burns, the boards); one card of each log tampered (a swap of two cards, or a
    card never dealt) is reported at exactly the first slot of :func:`poker51.rulebook.log.deal_order`
    that differs; a wrong ``cards_dealt`` is a mismatch; a Random block's game is drawn again
    from its seed (and a wrong commitment or game reads a mismatch); the page's games are
    :data:`poker51.rulebook.games.GAMES`."""
    import numpy as np

    from poker51.rulebook.games import GAMES, RANDOM_GAMES
    from poker51.rulebook.log import deal_order
    from poker51.rulebook.simulate import play_hands
    from poker51.rulebook.table import Table

    srv, _ = server
    recs, cases = [], []
    for k, game in enumerate([*GAMES, "random"]):
        rng = np.random.default_rng(k)
        t = Table(game, 2, [(0, "a", 100), (1, "b", 60), (2, "c", 40), (4, "d", 80)])
        played = play_hands(t, 6, lambda o, rng=rng: o[rng.integers(len(o))], entropy=k + 1, leaves=False)
        lengths = {len(r["boards"][0]) for r in played}
        assert len(played) >= 5 and 5 in lengths and lengths & {0, 3, 4}, (game, lengths)
        recs += played
    assert {r["game"] for r in recs} == set(GAMES) and sum("rotation" in r for r in recs) >= 2
    assert max(len(r["seats"]) for r in recs) == 4
    rng = np.random.default_rng(28)
    for n, rec in enumerate(recs):
        streets = {0: 0, 3: 1, 4: 2, 5: 3}[len(rec["boards"][0])]
        order = deal_order(rec["game"], [s["name"] for s in rec["seats"]], streets)
        places = [(kind, who, sum(1 for x in order[:i] if x == (kind, who))) for i, (kind, who) in enumerate(order)]
        i = int(rng.integers(len(order)))
        if n % 2:  # a swap with a later card of the deal
            j = int(rng.integers(i + 1, len(order) + 1))
            cases.append({"n": n, "places": [places[i], places[j % len(order)]], "first": min(i, j % len(order))})
        else:  # a card that was never dealt
            cases.append({"n": n, "places": [places[i]], "first": i})
        cases[-1]["expected"] = list(places[cases[-1]["first"]])
    page = context(browser, DESKTOP).new_page()
    try:
        page.goto(srv.url + "/")
        out = page.evaluate(
            """async ({recs, cases}) => {
              const log = await import('/static/js/cardlog.js'), deck = await import('/static/js/deck.js');
              const dealOf = (rec) => deck.shuffle(deck.unhex(rec.seed), [...Array(52).keys()]);
              const at = (r, [kind, who, k]) =>
                (kind === 'hole' ? r.hole[who] : kind === 'burn' ? r.burns : r.boards[Number(who)]);
              const res = {rules: log.DEAL_RULES, random: log.RANDOM_GAMES, deals: [], plain: [], tampered: [],
                           rot: []};
              for (const rec of recs) {
                const d = log.redeal(dealOf(rec), rec);
                res.deals.push({hole: d.hole, burns: d.burns, boards: d.boards});
                res.plain.push(log.compareDeal(dealOf(rec), rec).ok);
                if (rec.rotation) {
                  res.rot.push([(await log.checkRotation(rec, rec.rotation.commitment)).ok,
                                (await log.checkRotation(rec, '0'.repeat(64))).ok,
                                (await log.checkRotation(
                                   {...rec, game: rec.rotation.candidates.find((g) => g !== rec.game)},
                                   rec.rotation.commitment)).ok]);
                }
              }
              for (const c of cases) {
                const r = structuredClone(recs[c.n]), deal = dealOf(r);
                const [p, q] = c.places;
                if (q) { const a = at(r, p), b = at(r, q); [a[p[2]], b[q[2]]] = [b[q[2]], a[p[2]]]; }
                else {
                  const used = new Set(deal.slice(0, r.cards_dealt));
                  at(r, p)[p[2]] = deal.find((x) => !used.has(x));
                }
                const got = log.compareDeal(deal, r);
                const s = got.first && got.first.slot;
                const who = s && (s.kind === 'hole' ? s.player : s.kind === 'burn' ? '' : String(s.board));
                res.tampered.push(s ? [s.at, s.kind, who, s.kind === 'board' ? null : s.index, got.ok]
                                    : [null, null, null, null, got.ok]);
              }
              const r0 = {...recs[0], cards_dealt: recs[0].cards_dealt + 1};
              res.dealtWrong = log.compareDeal(dealOf(r0), r0);
              // the events the replay reads must deal the same cards
              const r1 = structuredClone(recs[1]), hole = r1.events.find((e) => e.event === 'hole');
              hole.cards = [...hole.cards].reverse();
              const isRiver = (e) => e.event === 'board' && e.street === 'river';
              const r2 = structuredClone(recs.find((r) => r.events.some(isRiver)));
              const river = r2.events.find(isRiver);
              river.cards = [r2.burns.length ? r2.burns[0] : r2.hole[Object.keys(r2.hole)[0]][0]];
              res.eventsWrong = [log.compareDeal(dealOf(r1), r1), log.compareDeal(dealOf(r2), r2)];
              return res;
            }""",
            {"recs": recs, "cases": cases},
        )
    finally:
        page.context.close()
    assert out["rules"] == {g.name: {"hole": g.hole, "boards": g.boards, "burns": g.burns} for g in GAMES.values()}
    assert out["random"] == list(RANDOM_GAMES)
    for rec, deal in zip(recs, out["deals"], strict=True):
        assert deal == {"hole": rec["hole"], "burns": rec["burns"], "boards": rec["boards"]}, rec["hand"]
        assert list(deal["hole"]) == [s["name"] for s in rec["seats"]]
    assert all(out["plain"])
    assert out["rot"] and all(r == [True, False, False] for r in out["rot"])
    for case, got in zip(cases, out["tampered"], strict=True):
        at, kind, who, index, ok = got
        assert not ok and at == case["first"], (case, got)
        exp_kind, exp_who, exp_k = case["expected"]
        assert (kind, who) == (exp_kind, exp_who), (case, got)
        if kind != "board":  # a board card's index counts the flop's three, the turn and the river
            assert index == exp_k, (case, got)
    assert not out["dealtWrong"]["ok"] and out["dealtWrong"].get("first") is None
    assert "cards dealt in the log" in out["dealtWrong"]["extra"]
    hole, river = out["eventsWrong"]
    assert not hole["ok"] and "an event dealing Player" in hole["extra"] and "other hole cards" in hole["extra"]
    assert not river["ok"] and river["extra"].startswith("an event dealing the river")


def cardtext(name: str) -> str:
    """A card as the page writes it ("Th" -> "10♥")."""
    return ("10" if name[0] == "T" else name[0]) + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[name[1]]
