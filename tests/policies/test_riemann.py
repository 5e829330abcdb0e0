"""The playable Riemann: sizes, draws, all-ins, the public hash, table lookups and refusals."""

from __future__ import annotations

import random
import shutil

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import exported_standard, solved_standard

from poker51.abstraction.buckets import bucket_of
from poker51.abstraction.classes import classify
from poker51.cards import parse_cards
from poker51.export.schema import ACTION_COLUMNS, INDEX_COLUMNS, StrategyTableError, completed_pre_lines, decision_lines
from poker51.export.tables import write_table
from poker51.fnv import FNV64_OFFSET_BASIS, fnv1a_64
from poker51.hands.house import house_keep
from poker51.io import TableError, write_parquet
from poker51.play.actions import Action
from poker51.play.engine import play_hand, play_match, replay, stacked_deck
from poker51.play.players import RandomPlayer, ScriptedPlayer
from poker51.policies.riemann import (
    PublicState,
    Riemann,
    _fnv_from,
    choose_action,
    hash_bytes,
    hash_unit,
    play_converted,
    read_bet,
    read_draw,
    state_from_view,
)


@pytest.fixture(scope="module")
def files():
    return exported_standard()


@pytest.fixture(scope="module")
def riemann(files):
    return Riemann.load(files.parquet, receipt=files.receipt, classes=files.classes, buckets=files.buckets)


@pytest.fixture(scope="module")
def df():
    return solved_standard().df


def random_states(r: Riemann, n: int, seed: int = 1) -> list[tuple[tuple[int, ...], PublicState]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = tuple(rng.sample(range(1, 52), 5))
        if rng.random() < 0.5:
            s = PublicState(0, rng.randrange(6), -1, rng.choice(decision_lines()), "", rng.random() < 0.8)
        else:
            s = PublicState(
                1,
                rng.randrange(6),
                rng.choice(r.r_draws),
                rng.choice(completed_pre_lines()),
                rng.choice(decision_lines()),
                rng.random() < 0.8,
            )
        out.append((cards, s))
    return out


# --------------------------------------------------------------------------- reading sizes and draws
def test_all_in_sizes_read_at_the_nearest_bet():
    assert read_bet(3) == 2  # a tie goes to the smaller size (documented)
    assert read_bet(5) == 4 and read_bet(6) == 4 and read_bet(7) == 8 and read_bet(12) == 8
    assert [read_bet(b) for b in (1, 2, 4, 8)] == [1, 2, 4, 8]
    with pytest.raises(ValueError):
        read_bet(0)


def test_five_card_draw_is_read_as_four(riemann):
    assert read_draw(5) == 4 and read_draw(0) == 0
    for cards, s in random_states(riemann, 200, seed=2):
        s5 = PublicState(s.street, 5, s.r_draw, s.pre_line, s.post_line, s.can_raise)
        s4 = PublicState(s.street, 4, s.r_draw, s.pre_line, s.post_line, s.can_raise)
        assert riemann.decide(cards, s5) == riemann.decide(cards, s4)


def test_an_all_in_bet_of_three_is_the_table_row_of_two(riemann):
    """H all in for 3 (stack 4 after the ante): Riemann reads b2 and cannot raise."""
    deck = stacked_deck("standard", parse_cards("Ah Ad Kc 7s 3d  Qh Qd 9c 6s 4h"))
    h = ScriptedPlayer(["bet 3"], keeps=[0b00011])
    log = play_hand({"H": h, "R": riemann}, stacks={"H": 4, "R": 20}, deck=deck).log
    act = [line for line in log.splitlines() if '"seat":"R"' in line and '"event":"action"' in line][0]
    s = PublicState(0, 3, -1, "b2", "", can_raise=False)
    action, _, key = riemann.decide(parse_cards("Qh Qd 9c 6s 4h"), s)
    assert key[:3] == (0, "bet", 2) and f'"kind":"{action}"' in act and action in ("fold", "call")


# --------------------------------------------------------------------------- all-ins
def _find(riemann, line: str, want: str, street: int = 0) -> tuple[tuple[int, ...], PublicState]:
    rng = random.Random(3)
    for _ in range(20000):
        cards = tuple(rng.sample(range(1, 52), 5))
        s = (
            PublicState(street, rng.randrange(5), -1, line, "")
            if street == 0
            else PublicState(1, rng.randrange(5), rng.choice(riemann.r_draws), "x-x", line)
        )
        if riemann.decide(cards, s)[0] == want:
            return cards, s
    raise AssertionError(f"no {want} found at {line}")


def test_solved_raise_against_all_in_becomes_call(riemann):
    cards, s = _find(riemann, "b4", "raise")
    all_in = PublicState(s.street, s.h_draw, s.r_draw, s.pre_line, s.post_line, can_raise=False)
    action, probs, key = riemann.decide(cards, all_in)
    assert action == "call" and probs == riemann.decide(cards, s)[1] and key == riemann.decide(cards, s)[2]
    assert play_converted("raise", False) == "call" and play_converted("fold", False) == "fold"


def test_solved_bet_against_all_in_becomes_check(riemann):
    cards, s = _find(riemann, "x", "bet", street=1)
    all_in = PublicState(s.street, s.h_draw, s.r_draw, s.pre_line, s.post_line, can_raise=False)
    assert riemann.decide(cards, all_in)[0] == "check"
    assert play_converted("bet", False) == "check"


def test_riemann_never_raises_a_player_who_cannot_answer(riemann):
    res = play_match({"H": RandomPlayer(5), "R": riemann}, 300, 17, stacks={"H": 5, "R": 30})
    for r in res:
        assert replay(r.log).log == r.log
        for line in r.log.splitlines():
            if '"seat":"H"' in line and '"all_in":true' in line:
                break
        else:
            continue
        after = r.log.split(line, 1)[1]
        assert '"seat":"R","kind":"raise"' not in after and '"seat":"R","kind":"bet"' not in after


# --------------------------------------------------------------------------- the public hash
def test_hash_is_deterministic_and_matches_the_plain_recipe(riemann):
    for cards, s in random_states(riemann, 3000):
        action, probs, key = riemann.decide(cards, s)
        u = hash_unit(cards, s)
        assert u == fnv1a_64(hash_bytes(cards, s)) / 2**64
        assert action == play_converted(choose_action(probs, u), s.can_raise)
        shuffled = tuple(reversed(cards))
        assert riemann.decide(shuffled, s) == (action, probs, key)  # the order of the cards does not matter


def test_fnv_continued_from_a_prefix_is_the_whole_hash():
    """Riemann hashes a hand's prefix once and continues from its state for each spot."""
    rng = random.Random(9)
    for _ in range(300):
        a = bytes(rng.randrange(256) for _ in range(rng.randrange(20)))
        b = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        assert _fnv_from(_fnv_from(FNV64_OFFSET_BASIS, a), b) == fnv1a_64(a + b)


def test_hash_bytes_are_pinned():
    s = PublicState(1, 2, 3, "b8-r-c", "x-b2-r")
    assert hash_bytes(parse_cards("Ts 2d Ah 9c 9h"), s) == b"2d,9c,9h,Ts,Ah;1|2|3|b8-r-c|x-b2-r"
    assert fnv1a_64(b"2d,9c,9h,Ts,Ah;1|2|3|b8-r-c|x-b2-r") == fnv1a_64(hash_bytes(parse_cards("9h Ah Ts 2d 9c"), s))


def test_frequencies_follow_the_table(riemann):
    """Across hands of one class the hash spreads the actions like the row's probabilities."""
    rng = random.Random(4)
    s = PublicState(0, 2, -1, "b2", "")
    counts, n = {}, 0
    target = None
    while n < 4000:
        cards = tuple(rng.sample(range(1, 52), 5))
        if riemann.classify(cards) != 0:  # no pair, king high or lower
            continue
        action, probs, _ = riemann.decide(cards, s)
        target = probs
        counts[action] = counts.get(action, 0) + 1
        n += 1
    for a, p in zip(ACTION_COLUMNS, target):
        assert abs(counts.get(a, 0) / n - p) < 0.04


# --------------------------------------------------------------------------- lookups
def test_decision_is_a_lookup_in_the_dataframe(riemann, df):
    idx = df.set_index(list(INDEX_COLUMNS))
    for cards, s in random_states(riemann, 300, seed=6):
        action, probs, key = riemann.decide(cards, s)
        row = idx.loc[key]
        assert tuple(row[list(ACTION_COLUMNS)]) == probs


def test_classification_agrees_with_the_abstraction(riemann):
    tables = solved_standard().tables
    rng = random.Random(8)
    for _ in range(300):
        cards = rng.sample(range(1, 52), 5)
        assert riemann.classify(cards) == classify(cards, "standard", tables.classes)
        assert riemann.bucket(cards) == bucket_of(cards, "standard", tables.buckets)
    with pytest.raises(ValueError, match="five distinct cards"):
        riemann.classify([0, 5, 9, 13, 17])  # the marker is not dealt in the standard game


def test_engine_play_uses_the_house_rule_and_the_table(riemann):
    seen = []

    class Spy:
        def choose_keep(self, view):
            k = riemann.choose_keep(view)
            assert k == house_keep(view.cards)[0]
            return k

        def act(self, view, legal):
            a = riemann.act(view, legal)
            seen.append((view.cards, state_from_view(view), a.kind))
            return a

    play_match({"H": RandomPlayer(1), "R": Spy()}, 200, 23)
    assert len(seen) > 150
    for cards, s, kind in seen:
        assert riemann.decide(cards, s)[0] == kind


def test_state_from_view_reads_the_lines(riemann):
    """H checks (draw 3), Riemann bets 2, H calls; after the draw H bets 8."""
    deck = stacked_deck("standard", parse_cards("Ah Ad Kc 7s 3d  Qh Qd 9c 6s 4h"))
    views = []

    class BetThenCall:
        def choose_keep(self, view):
            return riemann.choose_keep(view)

        def act(self, view, legal):
            views.append(state_from_view(view))
            if view.phase == "pre" and any(a.kind == "bet" for a in legal):
                return Action("bet", 2)
            return next(a for a in legal if a.kind in ("check", "call"))

    h = ScriptedPlayer(["check", "call", "bet 8"], keeps=[0b00011])
    play_hand({"H": h, "R": BetThenCall()}, stacks={"H": 30, "R": 30}, deck=deck)
    assert views == [PublicState(0, 3, -1, "x", "", True), PublicState(1, 3, 3, "x-b2-c", "b8", True)]


# --------------------------------------------------------------------------- refusals
def _copy(files, tmp_path):
    p = tmp_path / "riemann-v06-standard.parquet"
    shutil.copy(files.parquet, p)
    return p


def _load(p, files, **kw):
    return Riemann.load(p, classes=files.classes, buckets=files.buckets, **kw)


def test_refuses_truncated_table(files, tmp_path):
    p = _copy(files, tmp_path)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    with pytest.raises(StrategyTableError, match=str(p)):
        _load(p, files)


@pytest.mark.parametrize("where", [0, 3, 0.3, 0.6, 0.9, -40, -1])
def test_refuses_flipped_bytes(files, tmp_path, where):
    """Any flipped byte is refused with the path, without a receipt: the Parquet magic at
    either end (int positions), the pages (the stored content digest), the footer."""
    p = _copy(files, tmp_path)
    b = bytearray(p.read_bytes())
    i = int(len(b) * where) if isinstance(where, float) else where % len(b)
    b[i] ^= 0x5A
    p.write_bytes(bytes(b))
    with pytest.raises(TableError, match=str(p)):
        _load(p, files)


def test_refuses_a_hash_other_than_the_receipts(files, tmp_path):
    p = _copy(files, tmp_path)
    write_table(pd.read_parquet(p).iloc[:-1].reset_index(drop=True), p, {"variant": "standard"})
    with pytest.raises(StrategyTableError, match=f"{p}.*does not match the receipt"):
        _load(p, files, receipt=files.receipt)
    with pytest.raises(StrategyTableError, match=f"{p}.*complete standard table"):  # one row missing
        _load(p, files)


def test_refuses_wrong_schema(files, tmp_path, df):
    p = tmp_path / "riemann-v06-standard.parquet"
    write_parquet(df.astype({"bucket": "int16"}), p, metadata={"format": "poker51-riemann-table/1"})
    with pytest.raises(StrategyTableError, match=f"{p}: schema"):
        _load(p, files)
    q = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"a": [1, 2]}), q)
    with pytest.raises(StrategyTableError, match=f"{q}: schema"):
        _load(q, files)


def test_refuses_rows_not_summing_to_one(files, tmp_path, df):
    from poker51.export.schema import TABLE_SCHEMA, content_digest

    p = tmp_path / "riemann-v06-standard.parquet"
    bad = df.copy()
    bad.loc[10, "call"] += 0.25
    write_parquet(
        bad,
        p,
        schema=TABLE_SCHEMA,
        metadata={
            "format": "poker51-riemann-table/1",
            "variant": "standard",
            "content_sha256": content_digest(bad),
            "rows": len(bad),
        },
    )
    with pytest.raises(StrategyTableError, match=f"{p}: 1 rows do not sum to 1"):
        _load(p, files)


def test_refuses_missing_file_and_wrong_variant(files, tmp_path):
    with pytest.raises(StrategyTableError, match="no such table"):
        _load(tmp_path / "nope.parquet", files)
    with pytest.raises(StrategyTableError, match="a standard table, not wild"):
        _load(files.parquet, files, variant="wild")
    r = Riemann.load("standard", tables_dir=files.tables, classes=files.classes, buckets=files.buckets)
    assert r.variant == "standard" and r.sha256 is None
