"""The playable Riemann v0.6: real cards in, the strategy table's action out.

Rule card "How Riemann bets · v0.6" (points 1–5), SPEC section 7.  A :class:`Riemann` holds
one variant's strategy table (:mod:`poker51.export.tables`) and the variant's abstraction tables
(``classes``: class, base, marker, house_draw; ``buckets``: bucket, low), and plays seat R
of :mod:`poker51.play.engine`.

One decision, :meth:`Riemann.decide` ``(cards, state)``
-------------------------------------------------------
1. **Information.**  Before the draw: the class of Riemann's dealt hand (the House step and
   ranks of the hand, crossed in ``wild``/``bug`` with "holds Ⅰ" and the House draw count;
   :mod:`poker51.abstraction.classes`).  After the draw: the bucket of its final hand (its strength
   placed among the bucket table's ``low`` bounds) and its own draw count.  Both rounds:
   H's announced or completed draw count, **five read as four**, and the betting lines.
2. **Lines** (:func:`lines_from_records`): each betting record becomes a token of the
   table's vocabulary: check ``x``, H's bet ``b{n}`` with ``n`` = :func:`read_bet` of its
   amount (an all-in of another size is read at the **nearest of 1, 2, 4, 8; a tie goes to
   the smaller size**: 3 → 2, 5 → 4, 6 → 4, 7 → 8; above 8 → 8), Riemann's bet ``b2``
   (always 2 jbits), call ``c``, raise or re-raise ``r``.
3. **Row.**  The table row of (street, h_draw, r_draw, pre_line, post_line, class or bucket)
   gives the probabilities of the spot's actions (fold/call/raise, check/bet or fold/call).
4. **Public hash.**  ``u = fnv1a_64(b) / 2**64`` with the ASCII byte string ::

       b = ",".join(card_str(c) for c in sorted(cards)) + ";" + spot_key(state)
       spot_key(state) = f"{street}|{min(h_draw, 4)}|{r_draw}|{pre_line}|{post_line}"

   (cards sorted by their int ``4 * rank + suit``; before the draw ``r_draw = -1`` and
   ``post_line = ""``).  The action is the first of ``fold, call, raise, check, bet`` whose
   cumulative probability exceeds ``u`` (if rounding leaves none, the last action with a
   positive probability).  The same cards in the same spot always give the same action.
5. **Sizes and all-ins.**  Riemann's bet when checked to is 2 and its raise equals H's bet
   (the engine fixes both amounts).  It bets or raises only while H has jbits to answer: a
   solved raise against a player who is all in becomes a call, a solved bet a check.  The
   same conversion applies when Riemann cannot put in a raise or a bet in full (an engine
   rule: a raise must be covered; only a call may be all in for less).

>>> from poker51.cards import parse_cards
>>> s = PublicState(street=0, h_draw=5, pre_line="b4")
>>> hash_bytes(parse_cards("As Kd 7h 7c 3d"), s)
b'3d,7c,7h,Kd,As;0|4|-1|b4|'
>>> hex(fnv1a_64(hash_bytes(parse_cards("As Kd 7h 7c 3d"), s)))
'0x7d7962df84f4d5d3'
>>> [read_bet(a) for a in (1, 2, 3, 4, 5, 6, 7, 8, 12)]
[1, 2, 2, 4, 4, 4, 8, 8, 8]
>>> choose_action((0.2, 0.5, 0.3, 0.0, 0.0), 0.69), choose_action((0.2, 0.5, 0.3, 0.0, 0.0), 0.70)
('call', 'raise')

Riemann's draw is the House rule, :func:`riemann_keep` ``(variant, cards) -> mask``, a pure
function as :meth:`Riemann.decide` is (no table needed).

Loading (:meth:`Riemann.load`) refuses, with a :class:`~poker51.export.tables.StrategyTableError`
naming the file, a table that is missing, truncated, corrupted (bytes, content digest),
foreign (schema), malformed (rows outside [0, 1], not summing to 1, duplicate or unsorted
keys), incomplete (a spot without every class or bucket) or whose SHA-256 differs from the
receipt's.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.keys import class_set_of, hand_class_key_strength, refine_key
from poker51.cards import MARKER, card_str
from poker51.errors import InputError
from poker51.export.compact import read_json_table
from poker51.export.receipt import check_hash, load_receipt
from poker51.export.schema import (
    ACTION_COLUMNS,
    INDEX_COLUMNS,
    StrategyTableError,
    check_table,
    completed_pre_lines,
    decision_lines,
    read_table,
    spot_of_line,
    table_path,
)
from poker51.fnv import FNV64_OFFSET_BASIS, FNV64_PRIME, fnv1a_64
from poker51.hands.pure import pure_house
from poker51.io import check_metadata, read_parquet
from poker51.rules import BET_SIZES, RIEMANN_BET, VARIANT_RULES, class_key, read_bet, read_draw

DEFAULT_TABLES_DIR = "results/tables"
_TWO64 = float(2**64)


# --------------------------------------------------------------------------- pure rules
@dataclass(frozen=True)
class PublicState:
    """Everything public Riemann uses at one decision (module docstring, points 1–2).

    ``street`` 0 before the draw, 1 after; ``h_draw`` H's draw count 0..5 (five is read as
    four); ``r_draw`` Riemann's own draw count (-1 before the draw); ``pre_line`` /
    ``post_line`` in the table's tokens (before the draw ``pre_line`` is the round so far
    and ``post_line`` is ``""``); ``can_raise`` False when H is all in or Riemann cannot
    put in a bet or raise in full (a solved raise is then a call, a solved bet a check).
    """

    street: int
    h_draw: int
    r_draw: int = -1
    pre_line: str = ""
    post_line: str = ""
    can_raise: bool = True

    def __post_init__(self) -> None:
        """Refuse a state no spot can have, with an :class:`InputError` naming the field and its range."""
        if not (  # the fast path: plain ints, strs and a bool in range
            type(self.street) is int
            and type(self.h_draw) is int
            and type(self.r_draw) is int
            and type(self.pre_line) is str
            and type(self.post_line) is str
            and type(self.can_raise) is bool
            and 0 <= self.h_draw <= 5
            and (
                (self.street == 0 and self.r_draw == -1 and not self.post_line)
                or (self.street == 1 and 0 <= self.r_draw <= 5)
            )
        ):
            _check_public_state(self)

    @property
    def line(self) -> str:
        return self.pre_line if self.street == 0 else self.post_line

    def lookup(self) -> tuple[int, int, int, str, str]:
        """(street, h_draw read, r_draw, pre_line, post_line): the spot part of a table key."""
        return (self.street, read_draw(self.h_draw), self.r_draw, self.pre_line, self.post_line)


def _count(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _check_public_state(s: PublicState) -> None:
    """The checks of :meth:`PublicState.__post_init__` one by one (NumPy ints and bools pass)."""
    if not _count(s.street) or s.street not in (0, 1):
        raise InputError(f"PublicState: street is 0 (before the draw) or 1 (after it), got {s.street!r}")
    if not _count(s.h_draw) or not 0 <= s.h_draw <= 5:
        raise InputError(f"PublicState: h_draw is H's draw count 0..5, got {s.h_draw!r}")
    if s.street == 0 and s.r_draw != -1:
        raise InputError(f"PublicState: r_draw is -1 before the draw, got {s.r_draw!r}")
    if s.street == 1 and (not _count(s.r_draw) or not 0 <= s.r_draw <= 5):
        raise InputError(f"PublicState: r_draw is Riemann's draw count 0..5 after the draw, got {s.r_draw!r}")
    if not isinstance(s.pre_line, str) or not isinstance(s.post_line, str):
        raise InputError("PublicState: pre_line and post_line are lines of table tokens (str)")
    if s.street == 0 and s.post_line:
        raise InputError(f"PublicState: post_line is empty before the draw, got {s.post_line!r}")
    if not isinstance(s.can_raise, (bool, np.bool_)):
        raise InputError(f"PublicState: can_raise is a bool, got {s.can_raise!r}")


def spot_key(state: PublicState) -> str:
    """The public spot as hashed (module docstring, point 4).

    >>> spot_key(PublicState(1, 5, 2, "x-b2-c", "b8"))
    '1|4|2|x-b2-c|b8'
    """
    s, d4, k, pre, post = state.lookup()
    return f"{s}|{d4}|{k}|{pre}|{post}"


def hash_bytes(cards: Sequence[int], state: PublicState) -> bytes:
    """The byte string whose FNV-1a hash picks the action (module docstring, point 4)."""
    return (",".join(card_str(c) for c in sorted(int(c) for c in cards)) + ";" + spot_key(state)).encode("ascii")


def hash_unit(cards: Sequence[int], state: PublicState) -> float:
    """``u = fnv1a_64(hash_bytes(cards, state)) / 2**64`` in [0, 1)."""
    return fnv1a_64(hash_bytes(cards, state)) / _TWO64


def choose_action(probs: Sequence[float], u: float) -> str:
    """The first action of :data:`~poker51.export.tables.ACTION_COLUMNS` whose cumulative
    probability exceeds ``u``; the last positive one if rounding leaves none."""
    acc, last = 0.0, None
    for name, p in zip(ACTION_COLUMNS, probs):
        if p > 0.0:
            acc += p
            last = name
            if acc > u:
                return name
    if last is None:
        raise ValueError(f"no action has positive probability in {list(probs)}")
    return last


def play_converted(action: str, can_raise: bool) -> str:
    """How Riemann bets 5: without a player able to answer, raise → call and bet → check."""
    if not can_raise:
        return {"raise": "call", "bet": "check"}.get(action, action)
    return action


def token(seat: str, kind: str, amount: int) -> str:
    """A betting record as a table token (H's bets read by :func:`read_bet`)."""
    if kind == "check":
        return "x"
    if kind == "bet":
        return f"b{read_bet(amount)}" if seat == "H" else f"b{RIEMANN_BET}"
    if kind in ("call", "raise", "fold"):
        return kind[0]
    raise ValueError(f"unknown action kind {kind!r}")


def lines_from_records(records: Sequence[Any]) -> tuple[str, str]:
    """(pre_line, post_line) of betting records (``round, seat, kind, amount``) in tokens."""
    pre: list[str] = []
    post: list[str] = []
    for r in records:
        (pre if r.round == "pre" else post).append(token(r.seat, r.kind, r.amount))
    return "-".join(pre), "-".join(post)


def state_from_view(view) -> PublicState:
    """The :class:`PublicState` of an engine :class:`~poker51.play.engine.View` of seat R."""
    if view.phase not in ("pre", "post"):
        raise ValueError(f"Riemann acts only in a betting round, not in phase {view.phase!r}")
    if view.opp_draw_count is None:
        raise ValueError("H's draw count is not announced yet")
    street = 0 if view.phase == "pre" else 1
    pre, post = lines_from_records(view.line)
    if view.to_call == 0:
        need = RIEMANN_BET
    else:
        need = view.to_call + int(view.opening_bet or 0)
    can = view.opp_stack > 0 and view.stack >= need
    return PublicState(
        street, int(view.opp_draw_count), int(view.draw_count) if street else -1, pre, post if street else "", bool(can)
    )


def riemann_keep(variant: str, cards: Sequence[int]) -> int:
    """Riemann's keep mask for its five dealt ``cards`` (bit ``i`` keeps ``cards[i]``): the
    House rule, a pure function of the variant and the cards, as :func:`Riemann.decide` is of
    the cards and the public state.  It needs no strategy table.

    The House rule (rule card "The House rule", :func:`poker51.hands.pure.pure_house`, equal
    to the pipeline's :func:`poker51.hands.house.house_kernel`) takes the first step that
    applies: 1 a made hand (straight or better) stands pat; 2 trips, 3 two pair, 4 one pair
    keep the cards of the repeated ranks; 5 four to a flush, 6 four to a straight (open or
    not, 2-3-4-5 up to T-J-Q-K) keep those four; 7 otherwise keep the highest card (rank,
    then suit).  In ``wild`` and ``bug`` a hand holding the marker Ⅰ (2c) is read at its best
    under the variant's marker rule: Ⅰ is always kept, with the cards of the ranks that make
    its trips, two pair or pair, and a made hand stands pat.

    >>> from poker51.cards import parse_cards
    >>> riemann_keep("standard", parse_cards("As Kd 7h 7c 3d"))       # a pair of sevens
    12
    >>> riemann_keep("wild", parse_cards("2c 9h 9d 4s Jc"))           # Ⅰ + two nines
    7
    >>> riemann_keep("standard", parse_cards("As Kd 7h"))
    Traceback (most recent call last):
    ...
    poker51.errors.InputError: Riemann's keep needs five distinct cards of the standard deck, got ['As', 'Kd', '7h']
    """
    if variant not in VARIANT_RULES:
        raise InputError(f"unknown variant {variant!r}; expected one of {sorted(VARIANT_RULES)}")
    hand = [int(c) for c in cards]
    ok = len(hand) == 5 and len(set(hand)) == 5 and all(0 <= c < 52 for c in hand)
    if not ok or (variant == "standard" and MARKER in hand):
        shown = [card_str(c) if isinstance(c, (int, np.integer)) and 0 <= c < 52 else c for c in cards]
        raise InputError(f"Riemann's keep needs five distinct cards of the {variant} deck, got {shown}")
    return pure_house(hand, VARIANT_RULES[variant], MARKER)[0]


# --------------------------------------------------------------------------- the player
_MASK64 = (1 << 64) - 1


def _fnv_from(h: int, data: bytes) -> int:
    """FNV-1a 64 from state ``h`` over ``data``: ``_fnv_from(offset basis, b) == fnv1a_64(b)``."""
    for byte in data:
        h = ((h ^ byte) * FNV64_PRIME) & _MASK64
    return h


def abstraction_frames(variant: str, classes, buckets) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Classes and buckets from frames, Parquet paths, or (None) the abstraction itself.

    Recomputing the abstraction (``None``) enumerates every dealt hand with the pipeline's
    Numba kernels: it needs ``poker51[pipeline]``; the slim core reads the Parquet tables."""

    def get(x, which: str) -> pd.DataFrame:
        if isinstance(x, pd.DataFrame):
            return x
        if x is not None:
            return read_parquet(x)
        try:
            from poker51.abstraction.buckets import exact_buckets
            from poker51.abstraction.classes import class_frame
        except ImportError as exc:
            raise StrategyTableError(
                f"no {which} table given for {variant}, and recomputing it needs the pipeline extra "
                f"(pip install 'poker51[pipeline]'): {exc}"
            ) from None
        return class_frame(variant) if which == "classes" else exact_buckets(variant)

    return get(classes, "classes"), get(buckets, "buckets")


def _spot_keys(r_draws: Sequence[int]) -> list[tuple[int, int, int, str, str]]:
    """Every spot of a variant's table, in table order: (street, h_draw, r_draw, pre, post)."""
    out = [(0, d, -1, line, "") for d in range(5) for line in decision_lines()]
    out += [
        (1, d, k, pre, post)
        for d in range(5)
        for k in r_draws
        for pre in completed_pre_lines()
        for post in decision_lines()
    ]
    return out


class Riemann:
    """Riemann v0.6 for one variant: the engine's player protocol for seat R.

    Build with :meth:`load` (a file) or directly from a checked table frame.  ``classes``
    and ``buckets`` are the variant's abstraction tables (DataFrames or Parquet paths as
    written by the abstraction stage; ``None`` recomputes them from the variant, a few
    seconds, with the pipeline extra).  Classification results are cached per hand.

    Plain Python and NumPy only (no Numba, no SciPy): classes and strengths come from
    :mod:`poker51.abstraction.keys` and :mod:`poker51.hands.pure`, equal to the pipeline's
    kernels on every hand, and the hash from :mod:`poker51.fnv`.
    """

    def __init__(
        self,
        table: pd.DataFrame,
        variant: str,
        classes=None,
        buckets=None,
        name: str = "<table>",
        sha256: str | None = None,
        check: bool = True,
    ) -> None:
        if variant not in VARIANT_RULES:
            raise ValueError(f"unknown variant {variant!r}; expected one of {sorted(VARIANT_RULES)}")
        if check:  # Riemann.load has checked the table already (read_table)
            check_table(table, name)
        self.variant, self.rule, self.name, self.sha256 = variant, VARIANT_RULES[variant], name, sha256
        self.table = table
        cls_df, bkt_df = abstraction_frames(variant, classes, buckets)
        self._key_class = self._class_map(cls_df, name)
        #: the class table is the refined set's (the abstraction-size study's; keys.CLASS_SETS)
        self._refined = class_set_of(cls_df["base"]) == "refined"
        self.n_classes = len(self._key_class)
        self.r_draws = tuple(sorted({k % 10 for k in self._key_class}))
        b = bkt_df.sort_values("bucket")
        if not np.array_equal(b["bucket"].to_numpy(), np.arange(len(b))) or not b["low"].is_monotonic_increasing:
            raise StrategyTableError(f"{name}: the bucket table is not buckets 0..B-1 with ascending lows")
        self._lows = [int(x) for x in b["low"]]
        self.n_buckets = len(self._lows)
        self._deck = frozenset(c for c in range(52) if variant != "standard" or c != MARKER)
        self._index(table, name)
        #: sorted hand -> [FNV state after "cards;", class or -1, bucket], at most cache_size
        self._hand_cache: dict[tuple[int, ...], list] = {}
        self.cache_size = 500_000

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(
        cls,
        source: str | Path,
        *,
        receipt: str | Path | Mapping | None = None,
        classes=None,
        buckets=None,
        tables_dir: str | Path = DEFAULT_TABLES_DIR,
        variant: str | None = None,
    ) -> Riemann:
        """Load and check a table: ``source`` is a Parquet path (or the compact JSON table,
        :mod:`poker51.export.compact`, whose probabilities are rounded), or a variant name
        whose table is ``{tables_dir}/riemann-v06-{variant}.parquet``.  With ``receipt`` (a path or a loaded
        receipt dict) the file's SHA-256 must be the receipt's.  The variant comes from the
        table's metadata and must match ``variant`` (or the name) when given."""
        if str(source) in VARIANT_RULES and not Path(source).exists():
            variant = variant or str(source)
            if variant != str(source):
                raise StrategyTableError(f"variant {variant!r} asked for the {source!r} table")
            path = table_path(tables_dir, str(source))
        else:
            path = Path(source)
        sha = check_hash(path, load_receipt(receipt)) if receipt is not None else None
        df, meta = read_json_table(path) if path.suffix == ".json" else read_table(path)
        meta_variant = meta.get("variant")
        if meta_variant not in VARIANT_RULES:
            raise StrategyTableError(f"{path}: metadata names no known variant ({meta_variant!r})")
        if variant is not None and variant != meta_variant:
            raise StrategyTableError(f"{path}: a {meta_variant} table, not {variant}")
        frames: dict[str, Any] = {"class": classes, "bucket": buckets}
        for which, given in frames.items():  # another variant's or another abstraction run's files
            if isinstance(given, (str, Path)) and Path(given).is_file():
                check_metadata(given, {"variant": meta_variant}, f"{which} table", f"the variant of {path}")
                frames[which] = frame = read_parquet(given)
                used = df.loc[df["street"] == (0 if which == "class" else 1), which]
                want = int(used.max()) + 1 if len(used) else len(frame)
                if which in frame.columns and len(frame) != want:
                    plural = "classes" if which == "class" else "buckets"
                    raise StrategyTableError(
                        f"{given}: {len(frame)} {plural}, but {path} is a table of {want} "
                        f"(the {which} table of another abstraction)"
                    )
        return cls(df, meta_variant, frames["class"], frames["bucket"], name=str(path), sha256=sha, check=False)

    @staticmethod
    def _class_map(c: pd.DataFrame, name: str) -> dict[int, int]:
        need = {"class", "base", "marker", "house_draw"}
        if not need <= set(c.columns):
            raise StrategyTableError(f"{name}: the class table lacks {sorted(need - set(c.columns))}")
        keys = class_key(
            c["base"].astype(np.int64), c["marker"].astype(np.int64), c["house_draw"].astype(np.int64)
        ).tolist()
        ids = c["class"].astype(np.int64).tolist()
        if sorted(ids) != list(range(len(ids))) or len(set(keys)) != len(keys):
            raise StrategyTableError(f"{name}: the class table is not classes 0..C-1 with distinct keys")
        return dict(zip(keys, ids))

    def _index(self, df: pd.DataFrame, name: str) -> None:
        """Spot -> id, and a dense (spot, state, action) array of the rows; every spot must hold
        every state.  Vectorised: a row's spot id is a mixed-radix number of its draw counts
        and the positions of its lines (the table order of :func:`_spot_keys`)."""
        want = _spot_keys(self.r_draws)
        self._spot_id = {s: i for i, s in enumerate(want)}
        n_dec, n_pre, n_k = len(decision_lines()), len(completed_pre_lines()), len(self.r_draws)
        street = df["street"].to_numpy().astype(np.int64)
        h_draw = df["h_draw"].to_numpy().astype(np.int64)

        def positions(col: str, lines: Sequence[str]) -> np.ndarray:
            codes, uniques = pd.factorize(df[col].astype(str))
            at = {line: i for i, line in enumerate(lines)}
            return np.array([at.get(str(u), -1) for u in uniques] + [-1], np.int64)[codes]

        dec_pre, dec_post = positions("pre_line", decision_lines()), positions("post_line", decision_lines())
        done_pre = positions("pre_line", completed_pre_lines())
        k_at = np.full(11, -1, np.int64)
        k_at[list(self.r_draws)] = np.arange(n_k)
        k = k_at[np.clip(df["r_draw"].to_numpy().astype(np.int64), -1, 9)]
        pre_sid = h_draw * n_dec + dec_pre
        post_sid = 5 * n_dec + ((h_draw * n_k + k) * n_pre + done_pre) * n_dec + dec_post
        ok0 = (dec_pre >= 0) & (h_draw >= 0) & (h_draw < 5)
        ok1 = (k >= 0) & (done_pre >= 0) & (dec_post >= 0) & (h_draw >= 0) & (h_draw < 5)
        sid = np.where(street == 0, np.where(ok0, pre_sid, -1), np.where(ok1, post_sid, -1))
        if (sid < 0).any():
            r = int(np.flatnonzero(sid < 0)[0])
            row = tuple(df.iloc[r][["street", "h_draw", "r_draw", "pre_line", "post_line"]].tolist())
            raise StrategyTableError(f"{name}: row {r} is not a spot of this variant's game: {row}")
        state = np.where(street == 0, df["class"].to_numpy(np.int64), df["bucket"].to_numpy(np.int64))
        n_states = np.where(street == 0, self.n_classes, self.n_buckets)
        if (state >= n_states).any():
            raise StrategyTableError(f"{name}: a class or bucket beyond the abstraction's")
        width = max(self.n_classes, self.n_buckets)
        P = np.full((len(want), width, len(ACTION_COLUMNS)), np.nan)
        P[sid, state] = df[list(ACTION_COLUMNS)].to_numpy(np.float64)
        n_pre_spots = 5 * n_dec
        n_expected = n_pre_spots * self.n_classes + (len(want) - n_pre_spots) * self.n_buckets
        if (
            len(df) != n_expected
            or np.isnan(P[:n_pre_spots, : self.n_classes]).any()
            or np.isnan(P[n_pre_spots:, : self.n_buckets]).any()
        ):
            raise StrategyTableError(
                f"{name}: {len(df)} rows, a complete {self.variant} table has {n_expected} "
                f"(every spot with every class or bucket)"
            )
        self._P = P
        self._want = want
        #: per spot, built on first use: (rows as tuples, spot bytes hashed, key prefix)
        self._spots: list[tuple[list[tuple[float, ...]], bytes, tuple] | None] = [None] * len(want)

    def _spot_entry(self, sid: int) -> tuple[list[tuple[float, ...]], bytes, tuple]:
        """(the spot's rows as tuples, ``b"<street>|<h_draw>|<r_draw>|<pre>|<post>"``, key prefix)."""
        e = self._spots[sid]
        if e is None:
            st, d4, k, pre, post = self._want[sid]
            spot, h_bet = spot_of_line(pre if st == 0 else post)
            rows = [tuple(r) for r in self._P[sid].tolist()]
            e = self._spots[sid] = (
                rows,
                f"{st}|{d4}|{k}|{pre}|{post}".encode("ascii"),
                (st, spot, h_bet, d4, k, pre, post),
            )
        return e

    def kernel_arrays(self) -> tuple[dict[tuple[int, int, int, str, str], int], np.ndarray]:
        """(spot key ``(street, h_draw read, r_draw, pre_line, post_line)`` -> spot id, the rows as
        a (spots, max(classes, buckets), 5) array in ``ACTION_COLUMNS`` order, NaN where a spot
        has no such state): the table as :mod:`poker51.policies.kernels` reads it."""
        return dict(self._spot_id), self._P

    # ------------------------------------------------------------------ classification
    def _hand(self, t: tuple[int, ...]) -> list:
        """The cache entry ``[FNV state after "cards;", class, bucket]`` of a sorted hand,
        computed (and the hand checked) on first sight; class -1 when the hand is not a
        possible dealt hand of the class table (reported by :meth:`classify`)."""
        e = self._hand_cache.get(t)
        if e is None:
            if len(self._hand_cache) >= self.cache_size:
                self._hand_cache.clear()  # bounded memory over millions of hands
            if len(t) != 5 or len(set(t)) != 5 or not set(t) <= self._deck:
                raise InputError(f"a {self.variant} hand is five distinct cards of its deck, got {list(t)!r}")
            key, strength = hand_class_key_strength(t, self.rule, MARKER)
            if self._refined:
                key = refine_key(key, strength)
            prefix = (",".join(card_str(c) for c in t) + ";").encode("ascii")
            e = self._hand_cache[t] = [
                _fnv_from(FNV64_OFFSET_BASIS, prefix),
                self._key_class.get(key, -1),
                max(bisect_right(self._lows, strength) - 1, 0),
            ]
        return e

    def classify(self, cards: Sequence[int]) -> int:
        """Class of a dealt hand (cached)."""
        e = self._hand(tuple(sorted(int(c) for c in cards)))
        if e[1] < 0:
            raise ValueError(f"hand {list(cards)} has a class key not in the {self.variant} class table")
        return e[1]

    def bucket(self, cards: Sequence[int]) -> int:
        """Bucket of a final hand (cached): the last bucket whose ``low`` is at most its strength."""
        return self._hand(tuple(sorted(int(c) for c in cards)))[2]

    # ------------------------------------------------------------------ deciding
    def _spot(self, state: PublicState) -> int:
        d = state.h_draw
        sid = self._spot_id.get((state.street, d if d < 4 else 4, state.r_draw, state.pre_line, state.post_line))
        if sid is None:
            raise InputError(f"{state} is not a spot of the {self.variant} table")
        return sid

    def row(self, cards: Sequence[int], state: PublicState) -> tuple[tuple[float, ...], tuple]:
        """(probabilities in ACTION_COLUMNS order, table key in INDEX_COLUMNS order)."""
        sid = self._spot(state)
        if state.street == 0:
            c, b = self.classify(cards), -1
        else:
            c, b = -1, self.bucket(cards)
        rows, _, prefix = self._spot_entry(sid)
        return rows[b if state.street else c], prefix + (c, b)

    def decide(self, cards: Sequence[int], state: PublicState) -> tuple[str, tuple[float, ...], tuple]:
        """(action played, the row's probabilities in ``ACTION_COLUMNS`` order, table key):
        a pure function of the cards, the public state and the table (module docstring).
        Bad input is an :class:`~poker51.errors.InputError` naming it: a state outside its
        ranges (:class:`PublicState` checks them when built), cards that are not five distinct
        cards of the variant's deck, a spot not in the table.  It equals the plain recipe
        ``play_converted(choose_action(row, hash_unit(cards, state)), state.can_raise)``."""
        t = tuple(sorted(cards))
        e = self._hand_cache.get(t) or self._hand(tuple(sorted(int(c) for c in cards)))
        d = state.h_draw
        sid = self._spot_id.get((state.street, d if d < 4 else 4, state.r_draw, state.pre_line, state.post_line))
        if sid is None:
            sid = self._spot(state)  # raises
        info = self._spots[sid] or self._spot_entry(sid)
        if state.street == 0:
            c = e[1] if e[1] >= 0 else self.classify(t)  # raises
            b = -1
            probs = info[0][c]
        else:
            b = e[2]
            c = -1
            probs = info[0][b]
        h = e[0]
        for byte in info[1]:  # FNV-1a 64 continued over the spot (constants inline: the hot loop)
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        u = h / _TWO64
        acc = 0.0
        solved = ""
        for name, p in zip(ACTION_COLUMNS, probs):
            if p > 0.0:
                acc += p
                solved = name
                if acc > u:
                    break
        if not state.can_raise and (solved == "raise" or solved == "bet"):
            solved = "call" if solved == "raise" else "check"
        return solved, probs, info[2] + (c, b)

    # ------------------------------------------------------------------ engine protocol
    def choose_keep(self, view) -> int:
        """The House rule (with the variant's marker rule): :func:`riemann_keep` of the view's cards."""
        return riemann_keep(self.variant, view.cards)

    def act(self, view, legal: Sequence[Any]):
        """The table's action for the view, as one of the ``legal`` engine actions."""
        action, _, key = self.decide(view.cards, state_from_view(view))
        for a in legal:
            if a.kind == action:
                return a
        raise RuntimeError(f"Riemann chose {action} at {key}, which is not legal: {[str(a) for a in legal]}")


__all__ = [
    "BET_SIZES", "INDEX_COLUMNS", "PublicState", "Riemann", "choose_action", "hash_bytes", "hash_unit",
    "lines_from_records", "play_converted", "read_bet", "read_draw", "riemann_keep", "spot_key", "state_from_view",
    "token",
]  # fmt: skip
