"""Article XI's strike rule (11.5, 11.6) as a property over random report streams with a movable
clock: :class:`poker51.service.conduct.StrikeBook` against a reference recomputed from scratch at
every report, plus the invariants the rule promises (per-day and per-reporter counting, the
thirty-day window, five different reporters, suspension then closure)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from poker51.service.conduct import CLOSE_AT, DAY, STRIKE_REPORTERS, SUSPEND_S, WINDOW_S, StrikeBook, day_of

PLAYERS = [f"p{k}" for k in range(8)]
#: the clock's steps between reports: minutes to hours mostly, now and then days or a month
STEPS = {37: DAY, 38: 3 * DAY, 39: 29 * DAY, 40: 31 * DAY}


def reference(stream):
    """Strikes of ``stream`` ([(reporter, reported, at)], times not decreasing), recomputed from the
    whole prefix at every report: the counted reports are the first of each (reporter, reported,
    day); a strike is due at a counted report when the reporters of the counted reports in
    (at - 30 days, at], after the player's previous strike, are five or more different players,
    while the player has fewer than two strikes."""
    strikes: dict[str, list[float]] = {}
    counted_flags = []
    for i, (reporter, reported, at) in enumerate(stream):
        earlier = {(r, d, day_of(t)) for r, d, t in stream[:i]}
        counted = (reporter, reported, day_of(at)) not in earlier
        counted_flags.append(counted)
        if not counted or len(strikes.get(reported, [])) >= CLOSE_AT:
            continue
        last = strikes[reported][-1] if strikes.get(reported) else float("-inf")
        window = {
            r
            for (r, d, t), c in zip(stream[: i + 1], counted_flags, strict=True)
            if c and d == reported and last < t and at - WINDOW_S < t
        }
        if len(window) >= STRIKE_REPORTERS:
            strikes.setdefault(reported, []).append(at)
    return strikes, counted_flags


reports = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS[:7]),  # reporters
        st.sampled_from(PLAYERS[:3]),  # reported (few, so that strikes happen)
        # the clock's step to this report: within a day mostly, sometimes days or a month
        st.integers(0, 40).map(lambda k: STEPS.get(k, k * DAY / 200)),
    ),
    min_size=20,
    max_size=150,
)


def stream_of(steps, start=1_000_000.0):
    out, t = [], start
    for reporter, reported, dt in steps:
        t += dt
        if reporter != reported:
            out.append((reporter, reported, t))
    return out


@settings(max_examples=200, deadline=None)
@given(reports)
def test_XI_5_the_strike_rule_matches_its_reference_on_random_report_streams(steps):
    stream = stream_of(steps)
    book = StrikeBook()
    results = [book.report(r, d, t) for r, d, t in stream]
    want, counted = reference(stream)
    assert [x.counted for x in results] == counted  # one per reporter per reported per day
    got = {acc: [s.at for s in ss] for acc, ss in book.strikes.items()}
    assert got == want
    for acc, ss in book.strikes.items():
        assert len(ss) <= CLOSE_AT and [s.number for s in ss] == list(range(1, len(ss) + 1))
        prev = float("-inf")
        for s in ss:  # five different reporters, each with a counted report in the window after the last strike
            assert len(set(s.reporters)) >= STRIKE_REPORTERS and acc not in s.reporters
            for r in s.reporters:
                assert any(
                    c and rr == r and d == acc and prev < t <= s.at and t > s.at - WINDOW_S
                    for (rr, d, t), c in zip(stream, counted, strict=True)
                )
            prev = s.at


@settings(max_examples=100, deadline=None)
@given(reports)
def test_XI_6_first_strike_suspends_three_days_second_closes_for_good(steps):
    stream = stream_of(steps)
    book = StrikeBook()
    for r, d, t in stream:
        book.report(r, d, t)
    end = stream[-1][2] if stream else 0.0
    for acc in PLAYERS[:3]:
        ss = book.strikes.get(acc, [])
        if not ss:
            assert book.status(acc, end)["state"] == "ok"
            continue
        first = ss[0].at
        assert book.status(acc, first)["state"] in ("suspended", "closed")
        if len(ss) == 1:
            assert book.status(acc, first + SUSPEND_S - 1e-6)["state"] == "suspended"
            assert book.status(acc, first + SUSPEND_S)["state"] == "ok"
        else:
            assert ss[1].at > first
            assert book.status(acc, ss[1].at + 1000 * DAY) == {"state": "closed", "strikes": 2, "suspended_until": None}


def test_XI_5_repeats_the_same_day_are_recorded_not_added_and_the_window_is_thirty_days():
    book = StrikeBook()
    t0 = 10 * DAY  # the start of a UTC day
    assert [book.report("r1", "x", t0 + 60 + k).counted for k in range(4)] == [True, False, False, False]
    for k in range(2, 5):  # three more different reporters the next day
        assert book.report(f"r{k}", "x", t0 + DAY + 100 * k).strike is None
    # a fifth reporter thirty days after r1's report: r1's has left the window (four reporters)
    assert book.report("r5", "x", t0 + WINDOW_S + 120).strike is None
    # r1 again (another day, so counted): five different reporters within thirty days -> a strike
    s = book.report("r1", "x", t0 + WINDOW_S + 200).strike
    assert s is not None and s.number == 1 and s.reporters == ("r1", "r2", "r3", "r4", "r5")
    assert book.status("x", s.at + SUSPEND_S - 1)["state"] == "suspended"
    # the same five again: the reports a strike used are spent, five new counted reports are needed
    for k in range(1, 5):
        assert book.report(f"r{k}", "x", s.at + DAY + k).strike is None
    s2 = book.report("r5", "x", s.at + DAY + 5).strike
    assert s2 is not None and s2.number == 2 and book.status("x", s2.at)["state"] == "closed"
    assert book.report("r6", "x", s2.at + DAY).strike is None  # closed: recorded, no third strike
