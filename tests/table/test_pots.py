"""The shared pot law: pots, uncalled chips, splits with odd units, transfers per contributor."""

from hypothesis import given, settings
from hypothesis import strategies as st

from poker51.table.pots import Pot, build_pots, payout_order, pot_transfers, return_uncalled, split_amount


def test_three_all_ins_make_three_pots_smallest_first():
    c = {0: 300, 1: 700, 2: 1000, 3: 1000, 4: 200}  # 0, 1 all in; 4 folded early
    returned, c2 = return_uncalled(c, live={0, 1, 2, 3})
    assert returned == {}
    pots = build_pots(c2, live={0, 1, 2, 3})
    assert [(p.amount, p.eligible) for p in pots] == [(1400, (0, 1, 2, 3)), (1200, (1, 2, 3)), (600, (2, 3))]
    assert dict(pots[0].parts) == {0: 300, 1: 300, 2: 300, 3: 300, 4: 200}


def test_uncalled_bet_is_returned_before_any_pot():
    returned, c = return_uncalled({0: 100, 1: 60, 2: 10}, live={0, 2})  # 1 folded to the raise
    assert returned == {0: 40} and c == {0: 60, 1: 60, 2: 10}
    pots = build_pots(c, live={0, 2})
    assert [(p.amount, p.eligible) for p in pots] == [(30, (0, 2)), (100, (0,))]


def test_chips_no_live_player_matched_go_back():
    returned, c = return_uncalled({0: 10, 1: 50, 2: 50}, live={0})
    assert returned == {1: 40, 2: 40}
    assert build_pots(c, live={0}) == [Pot(30, (0,), ((0, 10), (1, 10), (2, 10)))]


def test_odd_units_go_in_turn_from_the_seat_after_the_button():
    order = payout_order([0, 1, 3], after=1, n_seats=5)
    assert order == [3, 0, 1]
    assert split_amount(1000, order) == {3: 334, 0: 333, 1: 333}
    assert split_amount(1001, order) == {3: 334, 0: 334, 1: 333}


def test_transfers_split_each_contributor_and_carry_the_turn():
    pot = Pot(31, (0, 1), ((0, 10), (1, 10), (2, 11)))
    t = pot_transfers(pot, [1, 0])
    assert t == {(0, 1): 5, (0, 0): 5, (1, 1): 5, (1, 0): 5, (2, 1): 6, (2, 0): 5}
    got = {w: sum(v for (_, to), v in t.items() if to == w) for w in (0, 1)}
    assert got == split_amount(31, [1, 0])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(0, 4), st.integers(0, 2000), min_size=2, max_size=5), st.data())
def test_pots_conserve_and_nobody_wins_more_than_they_put_in(contrib, data):
    seats = sorted(contrib)
    live = set(data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True)))
    returned, c = return_uncalled(contrib, live)
    pots = build_pots(c, live)
    assert sum(returned.values()) + sum(p.amount for p in pots) == sum(contrib.values())
    won = {s: 0 for s in seats}
    from_ = {(a, b): 0 for a in seats for b in seats}
    for p in pots:
        winners = data.draw(st.lists(st.sampled_from(list(p.eligible)), min_size=1, unique=True))
        t = pot_transfers(p, winners)
        assert sum(t.values()) == p.amount
        share = split_amount(p.amount, winners)
        for w in winners:
            assert sum(v for (_, to), v in t.items() if to == w) == share[w]
        for (a, b), v in t.items():
            won[b] += v
            from_[(a, b)] += v
    for a in seats:
        for b in seats:
            if a != b:  # b never wins more from a than b itself put in
                assert from_[(a, b)] <= contrib[b]
