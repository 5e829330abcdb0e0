"""Conservation (4.4) as a property over random legal games of every variant (Hypothesis).

Hypothesis draws the table (players, stacks, blind) and every choice of random legal play
(:mod:`poker51.rulebook.simulate`: bets and raises of every size, all-ins, timeouts, choices
made in advance, sit-outs, chips added, players leaving, mucks and layings).  Before every
choice, chips at the table + chips added and not yet arrived + balances of players who left
+ the rake taken equal the chips brought plus the chips added; after every hand its pots and
payouts add up, nobody's stack is negative, and the rake of each pot follows Article X.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker51.rulebook.games import GAMES, RANDOM, RANDOM_SEATS
from poker51.rulebook.showdown import rake_of
from poker51.rulebook.simulate import play_hands
from poker51.rulebook.table import Table

VARIANTS = [*GAMES, RANDOM]


@pytest.mark.parametrize("game", VARIANTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_chips_are_conserved_at_every_step(game, data):
    seats = RANDOM_SEATS if game == RANDOM else GAMES[game].seats
    n = data.draw(st.integers(2, seats), label="players")
    stacks = data.draw(st.lists(st.sampled_from([1, 2, 3, 7, 20, 60, 300]), min_size=n, max_size=n), label="stacks")
    bb = data.draw(st.sampled_from([2, 4, 10]), label="big blind")
    table = Table(game, bb, [(s, f"p{s}", stacks[s]) for s in range(n)])
    brought = table.total_chips()
    added = [0]
    table_action = table.table_action

    def tracked(name, kind, arg=None):
        if kind == "add":
            added[0] += arg
        return table_action(name, kind, arg)

    table.table_action = tracked  # type: ignore[method-assign]

    def choose(options):
        assert table.total_chips() == brought + added[0]
        if table.hand is not None and table.record is None:
            assert all(p.stack >= 0 and p.contrib >= 0 for p in table.hand.players)
        return data.draw(st.sampled_from(list(options)))

    entropy = data.draw(st.integers(0, 2**32 - 1), label="deck entropy")
    records = play_hands(table, data.draw(st.integers(1, 4), label="hands"), choose, entropy=entropy)
    assert table.total_chips() == brought + added[0]
    for rec in records:
        assert rec["conserved"]
        assert sum(rec["contributions"].values()) == sum(p["amount"] for p in rec["pots"]) + sum(
            rec["returned"].values()
        )
        flop = len(rec["boards"][0]) >= 3
        for pot in rec["pots"]:
            assert pot["rake"] == rake_of(pot["amount"], rec["big_blind"], flop)
            assert sum(pot["shares"].values()) == pot["amount"] - pot["rake"]
            assert set(pot["winners"]) <= set(pot["eligible"]) and set(pot["shares"]) == set(pot["winners"])
            shares = sorted(pot["shares"].values())
            assert shares[-1] - shares[0] <= 1  # 5.6: as evenly as possible
        assert all(v >= 0 for v in rec["stacks"].values())
