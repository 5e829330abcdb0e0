"""Lower bounds on V_real by play (issue 26, point 2).

Any fixed strategy of seat H, played against the deployed Riemann v0.6 on real cards, wins on
average at most what the best real-card response wins (V_real): its mean winnings are a lower
bound on V_real.  Estimated by play, the bound holds *up to sampling error*: the estimate
``mean`` is unbiased, and ``[ci_low, ci_high]`` is a Student-t 95% interval for the strategy's
true value ``v_S``; ``ci_low`` is the conservative figure (``V_real >= v_S >= ci_low`` except
with probability about 2.5% over the deals).  The strongest strategy's estimate is the
real-card lower bound; the maximum over several strategies of an estimate is biased upwards by
the selection, so the bound reported is that of the strategy with the highest ``ci_low``, and
with four or fewer strategies a Bonferroni reading (each at 95%) still bounds it at about 90%.

Strategies (:data:`STRATEGIES`; each a :class:`~poker51.realcard.bounds_kernels.HumanTable`):

- ``gind``: the exact best response of :mod:`poker51.realcard.gind` against the table
  (its keep, opening and every answer per exact dealt hand; per public post-draw node and exact
  final strength after the draw: :func:`gind_table`).  It assumes independent hands, so on real
  cards it can win less (or more) than V_ind.
- ``given``: the G_ind best response with Riemann's class prior corrected for H's own five cards
  (:func:`poker51.realcard.gind.v_ind_given`): per exact dealt hand its keep, opening and answers
  are the best response when Riemann's dealt class is distributed as over Riemann's hands that
  avoid H's cards (its draw and H's still from their own decks); after the draw it plays the
  ``gind`` strategy's choices per public node and exact strength, unchanged (:func:`given_table`).
  It is a fixed strategy played on real cards, so its estimate is a lower bound on V_real like
  the others', on the same fresh seeds; it has no exact G_ind value here (``v_gind`` NaN: every
  dealt hand's value is computed under its own Riemann prior, whose mean is no game's value).
- ``abstract``: the abstract game's best-response human (:func:`poker51.realcard.gind.abstract_human`,
  by class and bucket, House keeps of its draw count): :func:`abstract_table`.
- ``lbr`` (the local best response) plays by a posterior, not a table; its result comes from
  the ``lbr`` stage and is reported beside (:func:`lbr_rows`).

The class-prior correction of ``given`` is the pre-draw one only: the class mix enters Riemann's
pre-draw reach, fold masses and post-draw masses of the completed-line values exactly, but H's
post-draw answers stay G_ind's (``docs/design/realcard-bounds.md``).

Seeds.  No strategy above is built from sampled deals (``gind`` and ``abstract`` are exact
computations on the table; the solver is deterministic), so every deal is out of sample.  The
deals of stream ``s`` of seed ``S`` use the key ``stream_key(S, s) = mix64(φ S + s + DOMAIN)``
and hand ``i`` the key ``mix64(stream_key + φ (i + 1))`` (:mod:`~poker51.realcard.bounds_kernels`):
stream :data:`MAIN` (0) gives the estimate, stream :data:`PILOT` (1) the pilot hands that fix
the control variate's coefficient, so the coefficient is independent of the estimate's hands.
The domain word keeps them apart from the engine's ``SeedSequence([seed, i])`` decks and from
LBR's keys.

Control variate.  ``g(h)`` = V_ind's value of H's dealt hand ``h`` (the G_ind best response's
expectation given ``h``); H's dealt hand is uniform on real cards as in G_ind, so ``E[g(h)] =
mean over dealt hands = V_ind`` exactly and ``y = x - β (g(h) - V_ind)`` has the same mean as
the net ``x`` for any fixed β.  β = cov(x, g) / var(g) on the pilot hands.  Both estimates
(plain and with the control variate) are reported; the tests prove both unbiased on a small
deck where the exact value is known.  ``given`` uses the same ``g`` (V_ind's hand values), so
the control variate's mean is V_ind for every strategy.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from math import comb

import numpy as np

from poker51.errors import InputError
from poker51.policies.kernels import BINOM, N_HANDS52, PolicyArrays
from poker51.realcard import bounds_kernels as K
from poker51.realcard.bounds_kernels import BLOCK, GOLDEN, N_SUMS, REAL, HumanTable, mix64_plain
from poker51.realcard.gind import (
    ANSWERS,
    BR_COLUMNS,
    N_K,
    PRE_LINES,
    GindDeck,
    GindResult,
    HumanStrategy,
    TableArrays,
    answer_columns,
    riemann_joint,
    v_ind,
    v_ind_given,
)

STRATEGIES = ("gind", "given", "abstract")
#: the strategies played and read when none are named (``given`` costs realcard_br minutes: asked for by name)
DEFAULT_STRATEGIES = ("gind", "abstract")
MAIN, PILOT = 0, 1
#: entropy word of the bounds' deal streams ("RCB")
DOMAIN = 0x524342
CONFIDENCE = 0.95
#: unit of every figure (H's side, as V_ind and V_A)
UNIT = "jbits per hand won by H from Riemann (+ = H wins)"
_M64 = (1 << 64) - 1


def stream_key(seed: int, stream: int) -> int:
    """The key of a deal stream (module docstring)."""
    if int(seed) < 0 or int(stream) < 0:
        raise InputError(f"seed and stream are non-negative ints, got {seed}, {stream}")
    return mix64_plain((GOLDEN * int(seed) + int(stream) + DOMAIN) & _M64)


def colex_rows(hands: np.ndarray) -> np.ndarray:
    """Colex index (:func:`poker51.policies.kernels.colex`) of each sorted hand row."""
    return BINOM[np.asarray(hands, np.int64), np.arange(1, 6)].sum(axis=1)


# --------------------------------------------------------------------------- tables
def empty_table(n_strengths: int) -> HumanTable:
    """Check and call everything, keep all five (every entry 0 but ``keep`` = 31 and calls)."""
    L = len(PRE_LINES)
    return HumanTable(
        np.full(N_HANDS52, 31, np.uint8), np.zeros(N_HANDS52, np.int8), np.ones(N_HANDS52, np.int8),
        np.ones((N_HANDS52, 4), np.int8), np.zeros((6, N_K, L, n_strengths), np.int8),
        np.ones((6, N_K, L, n_strengths), np.int8), np.ones((6, N_K, L, n_strengths, 4), np.int8),
        np.zeros(N_HANDS52),
    )  # fmt: skip


def with_g(S: HumanTable, gd: GindDeck, g: np.ndarray) -> HumanTable:
    """``S`` with the control variate ``g`` (one value per dealt hand of ``gd``)."""
    arr = np.zeros(N_HANDS52)
    arr[colex_rows(gd.hands)] = np.asarray(g, np.float64)
    return S._replace(g=arr)


def result_table(gd: GindDeck, r: GindResult) -> HumanTable:
    """The G_ind best response ``r`` (:func:`~poker51.realcard.gind.v_ind`: keeps, openings and
    answers per dealt hand, openings and answers per public post-draw node and strength, the
    answers of the very maxima that make V_ind) as a :class:`HumanTable`; its control variate is
    V_ind's value of each dealt hand.  After the draw H's exact draw count 5 reads the row of 4
    (Riemann reads five as four, so the best response is the same)."""
    S = empty_table(gd.values.size)
    for d in range(6):
        d4 = min(d, 4)
        for a, k in enumerate(r.draws):
            S.post_open[d, k] = r.post_opening[d4, a]
            S.post_xb2[d, k] = r.post_xb2[d4, a]
            S.post_br[d, k] = r.post_br[d4, a]
    idx = colex_rows(gd.hands)
    S.keep[idx] = np.asarray(r.keep, np.uint8)
    S.open[idx] = np.asarray(r.opening, np.int8)
    S.xb2[idx] = np.asarray(r.xb2, np.int8)
    S.br[idx] = np.asarray(r.br, np.int8)
    return with_g(S, gd, r.hand_value)


def gind_table(
    gd: GindDeck, table: TableArrays, r: GindResult | None = None, joint=None
) -> tuple[HumanTable, GindResult]:
    """The G_ind best response against ``table`` as a :class:`HumanTable` (:func:`result_table`)
    and its :class:`GindResult` (computed when ``r`` is None)."""
    r = v_ind(gd, table, riemann_joint(gd) if joint is None else joint) if r is None else r
    return result_table(gd, r), r


def given_table(gd: GindDeck, table: TableArrays, base: GindResult, joint=None) -> tuple[HumanTable, GindResult]:
    """The strategy ``given`` (module docstring) as a :class:`HumanTable` and its
    :class:`GindResult` (:func:`~poker51.realcard.gind.v_ind_given` on the G_ind best response
    ``base``): its pre-draw choices per dealt hand, ``base``'s post-draw choices, and V_ind's value
    of each dealt hand as the control variate (not its own hand values)."""
    rg = v_ind_given(gd, table, riemann_joint(gd) if joint is None else joint, None, base)
    return with_g(result_table(gd, rg), gd, base.hand_value), rg


# --------------------------------------------------------------------------- tables as frames
def human_frames(gd: GindDeck, st: HumanStrategy):
    """A pure :class:`~poker51.realcard.gind.HumanStrategy` (the abstract human) as two frames:
    per dealt hand (``c0..c4``, ``keep``, ``draw``, ``opening``, the answers) and per (H's exact
    draw count ``h_draw`` 0..5, ``r_draw``, ``pre_line``, ``bucket``) its post-draw opening and
    answers; :func:`table_of_frames` reads them back."""
    import pandas as pd

    from poker51.realcard.gind import OPENINGS

    keep = np.asarray(st.keep, np.int64)
    draw = 5 - np.unpackbits(keep.astype(np.uint8)[:, None], axis=1).sum(axis=1)
    hands = pd.DataFrame({f"c{i}": gd.hands[:, i].astype(np.int8) for i in range(5)})
    hands = hands.assign(
        keep=keep.astype(np.int8), draw=draw.astype(np.int8),
        opening=pd.Categorical.from_codes(_pure(st.pre_open, "opening"), OPENINGS),
        **answer_columns(_pure(st.pre_xb2, "answer to a bet"), _pure(st.pre_br, "answer to a raise")),
    )  # fmt: skip
    shape = st.post_open.shape[:4]
    d, k, ell, b = np.meshgrid(*(np.arange(x) for x in shape), indexing="ij")
    post = pd.DataFrame({
        "h_draw": d.ravel().astype(np.int8), "r_draw": k.ravel().astype(np.int8),
        "pre_line": np.asarray(PRE_LINES, dtype=object)[ell.ravel()], "bucket": b.ravel().astype(np.int16),
        "opening": pd.Categorical.from_codes(_pure(st.post_open, "post-draw opening").ravel(), OPENINGS),
        **answer_columns(_pure(st.post_xb2, "post-draw answer to a bet"),
                         _pure(st.post_br, "post-draw answer to a raise")),
    })  # fmt: skip
    return hands, post


def _codes(df, col: str, names) -> np.ndarray:
    """The codes of a categorical column of ``names`` (refused otherwise)."""
    c = df[col]
    if not hasattr(c, "cat") or tuple(c.cat.categories) != tuple(names):
        raise InputError(f"column {col!r} must be a categorical of {list(names)}")
    return c.cat.codes.to_numpy(np.int8)


def table_of_frames(gd: GindDeck, hands, post, g: np.ndarray | None = None) -> HumanTable:
    """The :class:`HumanTable` of a strategy written as frames: the G_ind best response's
    (:func:`~poker51.realcard.gind.strategy_frames`: post-draw by ``strength``, ``h_draw`` 0..4
    with five read as four) or a strategy's of :func:`human_frames` (post-draw by ``bucket``,
    ``h_draw`` 0..5); ``g`` the control variate per dealt hand (default: the frame's ``value``
    column when present, else 0).  Refuses (:class:`~poker51.errors.InputError`) frames of
    another deck: dealt hands not the deck's in order, strengths not the deck's, buckets out of
    range."""
    from poker51.realcard.gind import OPENINGS

    cards = hands[[f"c{i}" for i in range(5)]].to_numpy(np.int64)
    if cards.shape != gd.hands.shape or not np.array_equal(cards, gd.hands):
        raise InputError("the strategy's dealt hands are not the deck's (another variant?)")
    S = empty_table(gd.values.size)
    idx = colex_rows(gd.hands)
    keep = hands["keep"].to_numpy(np.int64)
    if keep.min() < 0 or keep.max() > 31:
        raise InputError("a keep mask out of 0..31")
    S.keep[idx] = keep.astype(np.uint8)
    S.open[idx] = _codes(hands, "opening", OPENINGS)
    S.xb2[idx] = _codes(hands, "xb2", ANSWERS)
    S.br[idx] = np.stack([_codes(hands, c, ANSWERS) for c in BR_COLUMNS], axis=1)
    d = post["h_draw"].to_numpy(np.int64)
    k = post["r_draw"].to_numpy(np.int64)
    lines = {line: i for i, line in enumerate(PRE_LINES)}
    ell = post["pre_line"].map(lines)
    if ell.isna().any() or d.min() < 0 or d.max() > 5 or k.min() < 0 or k.max() >= N_K:
        raise InputError("a post-draw row's draw counts or pre-draw line are out of range")
    ell = ell.to_numpy(np.int64)
    if "strength" in post.columns:
        u = post["strength"].to_numpy(np.int64)
        j = np.searchsorted(gd.values, u)
        if np.any(j >= gd.values.size) or not np.array_equal(gd.values[np.minimum(j, gd.values.size - 1)], u):
            raise InputError("a post-draw row's strength is not one of the deck's")
        cols = j
    else:
        b = post["bucket"].to_numpy(np.int64)
        if b.min() < 0 or b.max() >= gd.n_buckets:
            raise InputError("a post-draw row's bucket is out of range")
        cols = b
    po = _codes(post, "opening", OPENINGS)
    px = _codes(post, "xb2", ANSWERS)
    pb = np.stack([_codes(post, c, ANSWERS) for c in BR_COLUMNS], axis=1)
    rows = [d] if "strength" not in post.columns else [d, np.where(d == 4, 5, -1)]  # G_ind's: 5 reads 4
    for dd in rows:
        ok = dd >= 0
        if "strength" in post.columns:
            S.post_open[dd[ok], k[ok], ell[ok], cols[ok]] = po[ok]
            S.post_xb2[dd[ok], k[ok], ell[ok], cols[ok]] = px[ok]
            S.post_br[dd[ok], k[ok], ell[ok], cols[ok]] = pb[ok]
        else:  # by bucket: every strength of the bucket reads its row
            B_ = gd.n_buckets
            open_b = np.zeros((6, N_K, len(PRE_LINES), B_), np.int8)
            xb2_b = np.zeros_like(open_b)
            br_b = np.zeros(open_b.shape + (4,), np.int8)
            open_b[dd, k, ell, cols], xb2_b[dd, k, ell, cols], br_b[dd, k, ell, cols] = po, px, pb
            S.post_open[:], S.post_xb2[:], S.post_br[:] = open_b[..., gd.bj], xb2_b[..., gd.bj], br_b[:, :, :, gd.bj]
    if g is None and "value" in hands.columns:
        g = hands["value"].to_numpy(np.float64)
    return S if g is None else with_g(S, gd, g)


def _pure(p: np.ndarray, what: str) -> np.ndarray:
    """The action of each pure row of ``p`` (rows of zeros, unreachable, read as action 0)."""
    p = np.asarray(p, np.float64)
    tot = p.sum(axis=-1)
    live = tot > 0.5
    if np.any(live & (np.abs(p.max(axis=-1) - 1.0) > 1e-9)):
        raise InputError(f"the human's {what} is not a pure strategy (a table plays one action per spot)")
    return p.argmax(axis=-1).astype(np.int8)


def strategy_table(gd: GindDeck, st: HumanStrategy) -> HumanTable:
    """A pure :class:`~poker51.realcard.gind.HumanStrategy` (post-draw by bucket) as a
    :class:`HumanTable` (post-draw by strength: each strength reads its bucket's row)."""
    S = empty_table(gd.values.size)
    idx = colex_rows(gd.hands)
    S.keep[idx] = np.asarray(st.keep, np.uint8)
    S.open[idx] = _pure(st.pre_open, "opening")
    S.xb2[idx] = _pure(st.pre_xb2, "answer to a bet")
    S.br[idx] = _pure(st.pre_br, "answer to a raise")
    S.post_open[:] = _pure(st.post_open, "post-draw opening")[..., gd.bj]
    S.post_xb2[:] = _pure(st.post_xb2, "post-draw answer to a bet")[..., gd.bj]
    S.post_br[:] = _pure(st.post_br, "post-draw answer to a raise")[:, :, :, gd.bj, :]
    return S


def abstract_table(gd: GindDeck, st: HumanStrategy, g: np.ndarray | None = None) -> HumanTable:
    """The abstract best-response human (:func:`poker51.realcard.gind.abstract_human`) as a
    table, with the control variate ``g`` per dealt hand (V_ind's) when given."""
    S = strategy_table(gd, st)
    return S if g is None else with_g(S, gd, g)


def pure_random_strategy(gd: GindDeck, seed: int) -> HumanStrategy:
    """A random pure strategy (uniform keeps, one random action per spot; for tests)."""
    from poker51.realcard.gind import random_strategy

    st = random_strategy(gd, seed)

    def onehot(p):
        return np.eye(p.shape[-1])[np.asarray(p).argmax(axis=-1)]

    return HumanStrategy(st.keep, *(onehot(x) for x in (st.pre_open, st.pre_xb2, st.pre_br, st.post_open,
                                                         st.post_xb2, st.post_br)))  # fmt: skip


def random_human_table(n_strengths: int, seed: int) -> HumanTable:
    """A random pure table over every colex index and strength (uniform keeps and actions; for
    tests on the variants' decks, where a :class:`GindDeck` is not needed)."""
    rng = np.random.default_rng(seed)
    L = len(PRE_LINES)
    post = (6, N_K, L, n_strengths)
    return HumanTable(
        rng.integers(0, 32, N_HANDS52).astype(np.uint8), rng.integers(0, 5, N_HANDS52).astype(np.int8),
        rng.integers(0, 3, N_HANDS52).astype(np.int8), rng.integers(0, 3, (N_HANDS52, 4)).astype(np.int8),
        rng.integers(0, 5, post).astype(np.int8), rng.integers(0, 3, post).astype(np.int8),
        rng.integers(0, 3, post + (4,)).astype(np.int8), rng.normal(size=N_HANDS52),
    )  # fmt: skip


# --------------------------------------------------------------------------- the kernel's view of a small deck
def small_model(gd: GindDeck, table: TableArrays) -> PolicyArrays:
    """The :class:`~poker51.policies.kernels.PolicyArrays` of a reduced deck's Riemann (its
    classes, House keeps, buckets and the table's probabilities; spot strings as the deployed
    Riemann hashes them), so the kernel plays on the tests' decks too."""
    from poker51.export.schema import ACTION_COLUMNS
    from poker51.policies.kernels import V06
    from poker51.policies.kernels import TableArrays as KTable
    from poker51.realcard.gind import DEC_LINES, LINE_SLOTS

    idx = colex_rows(gd.hands)
    strength = np.full(N_HANDS52, -1, np.int32)
    strength[idx] = gd.strengths
    srank = np.full(N_HANDS52, -1, np.int32)
    srank[idx] = gd.sidx
    mask = np.zeros(N_HANDS52, np.uint8)
    mask[idx] = gd.r_keep
    cls = np.full(N_HANDS52, -1, np.int16)
    cls[idx] = gd.r_class
    bkt = np.full(N_HANDS52, -1, np.int16)
    bkt[idx] = gd.bj[gd.sidx]
    rank_table, flush_table, marker_table = _rank_tables(gd)
    # the table's spots
    draws = sorted({int(k) for k in gd.class_draw})
    width = max(gd.n_classes, gd.n_buckets)
    spots: list[tuple[str, np.ndarray]] = []
    pre_sid = np.full((5, len(DEC_LINES)), -1, np.int64)
    post_sid = np.full((5, 5, len(PRE_LINES), len(DEC_LINES)), -1, np.int64)
    for d4 in range(5):
        for li, line in enumerate(DEC_LINES):
            row = np.zeros((width, 5))
            for s, act in enumerate(LINE_SLOTS[li]):
                row[: gd.n_classes, ACTION_COLUMNS.index(act)] = table.pre[d4, li, :, s]
            pre_sid[d4, li] = len(spots)
            spots.append((f"0|{d4}|-1|{line}|", row))
    for d4 in range(5):
        for k in draws:
            for pi, pre in enumerate(PRE_LINES):
                for li, line in enumerate(DEC_LINES):
                    row = np.zeros((width, 5))
                    for s, act in enumerate(LINE_SLOTS[li]):
                        row[: gd.n_buckets, ACTION_COLUMNS.index(act)] = table.post[d4, k, pi, li, :, s]
                    post_sid[d4, k, pi, li] = len(spots)
                    spots.append((f"1|{d4}|{k}|{pre}|{line}", row))
    P = np.ascontiguousarray(np.nan_to_num(np.stack([r for _, r in spots]), nan=0.0))
    w = max(len(t) for t, _ in spots)
    spot_bytes = np.zeros((len(spots), w), np.uint8)
    for i, (t, _) in enumerate(spots):
        spot_bytes[i, : len(t)] = np.frombuffer(t.encode("ascii"), np.uint8)
    spot_len = np.array([len(t) for t, _ in spots], np.int64)
    kt = KTable(P, spot_bytes, spot_len, pre_sid, post_sid)
    return PolicyArrays(
        np.int64(V06), gd.deck.astype(np.int64), strength, mask, cls, bkt, kt.P, kt.spot_bytes, kt.spot_len,
        kt.pre_sid, kt.post_sid, np.zeros((1, 6)), np.zeros((1, 6)), srank, np.zeros((1, 5), np.int8),
        np.zeros(7, np.int64), np.zeros(1, np.uint64), rank_table, flush_table, gd.bj.astype(np.int16),
        np.int64(gd.rule != 0), marker_table,
    )  # fmt: skip


def _multiset(ranks: np.ndarray) -> np.ndarray:
    """Multiset number of each row of ranks, as :func:`poker51.policies.kernels.rank5` reads it."""
    r = np.sort(ranks, axis=1)
    return sum(BINOM[r[:, i] + i, i + 1] for i in range(r.shape[1]))


def _keyed(size: int, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    t = np.full(size, -1, np.int32)
    t[keys] = values
    if (t[keys] != values).any():
        raise InputError("two hands of one rank key have different strengths")
    return t


def _rank_tables(gd: GindDeck) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rank, flush, marker) tables of :func:`poker51.policies.kernels.rank5` for a reduced deck:
    its strength indices by the multiset number of the ranks, the rank set of a one-suit hand, and
    (a hand holding the marker, its lowest card) twice the other four ranks' number plus suited."""
    marker = (gd.hands == 0).any(axis=1) & (gd.rule != 0)
    suited = (gd.hands & 3 == gd.hands[:, :1] & 3).all(axis=1)
    plain, flush = ~marker & ~suited, ~marker & suited
    other = gd.hands[marker][:, 1:]
    mkeys = 2 * _multiset(other >> 2) + (other & 3 == other[:, :1] & 3).all(axis=1)
    return (
        _keyed(comb(17, 5), _multiset(gd.hands[plain] >> 2), gd.sidx[plain]),
        _keyed(1 << 13, (1 << (gd.hands[flush] >> 2)).sum(axis=1), gd.sidx[flush]),
        _keyed(2 * comb(16, 4), mkeys, gd.sidx[marker]),
    )


def check_model(gd: GindDeck, M: PolicyArrays) -> None:
    """Refuse a kernel model whose strength numbering is not the deck's (the post-draw look-ups
    of a table index the deck's distinct strengths)."""
    idx = colex_rows(gd.hands)
    if M.cards.shape[0] != gd.n or not np.array_equal(M.srank[idx], gd.sidx):
        raise InputError("the table's strength numbering is not the deck's (another variant or abstraction)")


# --------------------------------------------------------------------------- play
def play_sums(M: PolicyArrays, S: HumanTable | K.PlayTable, seed: int, stream: int, first: int, n: int,
              mode: int = REAL, nets: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """(blocks, N_SUMS) sums of hands ``first .. first + n - 1`` of a stream (``first`` a
    multiple of :data:`~poker51.realcard.bounds_kernels.BLOCK`); ``S`` a human table or its
    :func:`~poker51.realcard.bounds_kernels.pack`."""
    if first % BLOCK:
        raise ValueError(f"first must be a multiple of {BLOCK}")
    sums = np.zeros(((n + BLOCK - 1) // BLOCK, N_SUMS))
    out = np.zeros(0, np.int64) if nets is None else nets
    T = S if isinstance(S, K.PlayTable) else K.pack(M, S)
    K.play_blocks(M, T, np.uint64(stream_key(seed, stream)), int(first), int(n), int(mode), sums, out)
    return sums


def play_detail(M: PolicyArrays, S: HumanTable, seed: int, stream: int, first: int, n: int, mode: int = REAL):
    """(details (n, 7) :data:`~poker51.realcard.bounds_kernels.DETAIL_COLUMNS`, decks (n, cards))."""
    out = np.zeros((n, len(K.DETAIL_COLUMNS)), np.int64)
    decks = np.zeros((n, M.cards.shape[0]), np.int64)
    T = S if isinstance(S, K.PlayTable) else K.pack(M, S)
    K.play_detail(M, T, np.uint64(stream_key(seed, stream)), int(first), int(mode), out, decks)
    return out, decks


def run_sums(M, S, hands: int, seed: int, stream: int = MAIN, mode: int = REAL, progress: bool = False,
             desc: str = "bounds") -> np.ndarray:  # fmt: skip
    """All blocks' sums of ``hands`` hands, in chunks of whole blocks (Ctrl-C between chunks
    inside :func:`poker51.interrupt.interruptible`; a tqdm bar on ``progress``)."""
    import time

    from tqdm import tqdm

    from poker51.interrupt import check

    hands = int(hands)
    if hands < 2:
        raise InputError(f"need at least 2 hands for an interval, got {hands}")
    S = S if isinstance(S, K.PlayTable) else K.pack(M, S)  # once, not per chunk
    out = []
    bar = tqdm(total=hands, desc=desc, disable=not progress, unit="hand", unit_scale=True)
    first, size = 0, BLOCK * 4
    while first < hands:
        check()
        n = min(size, hands - first)
        t = time.perf_counter()
        out.append(play_sums(M, S, seed, stream, first, n, mode))
        dt = time.perf_counter() - t
        first += n
        bar.update(n)
        if dt < 0.2:  # chunks of whole blocks only: the sums do not depend on the chunking
            size *= 2
        elif dt > 0.5 and size > BLOCK:
            size //= 2
    bar.close()
    return np.concatenate(out)


@dataclass(frozen=True)
class Estimate:
    """What a strategy wins (:data:`UNIT`): the plain mean of the nets and the control-variate
    estimate (``cv_*``; β fixed on the pilot hands), each with its sd, se and Student-t interval."""

    hands: int
    mean: float
    sd: float
    se: float
    ci_low: float
    ci_high: float
    beta: float
    cv_mean: float
    cv_sd: float
    cv_se: float
    cv_ci_low: float
    cv_ci_high: float

    def row(self) -> dict:
        return asdict(self)


def _t(n: int, confidence: float) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.5 + confidence / 2, n - 1))


def _moments(sums: np.ndarray, beta: float, g_mean: float) -> tuple[int, float, float]:
    """(n, mean, sd) of ``y = x - β (g - g_mean)`` from block sums (summed in block order)."""
    s = sums.sum(axis=0) if sums.ndim == 2 else sums
    n = int(s[0])
    sx, sxx, sg, sgg, sxg = (float(v) for v in s[1:])
    sy = sx - beta * (sg - n * g_mean)
    # sum (y - ybar)^2 with y = x - beta g + const: the constant drops out
    syy = sxx - 2 * beta * sxg + beta * beta * sgg
    sz = sx - beta * sg
    var = max(syy - sz * sz / n, 0.0) / (n - 1)
    return n, sy / n, math.sqrt(var)


def beta_of(sums: np.ndarray) -> float:
    """cov(x, g) / var(g) of the pilot hands (0 when g does not vary)."""
    s = sums.sum(axis=0)
    n, sx, sg, sgg, sxg = s[0], s[1], s[3], s[4], s[5]
    vg = sgg - sg * sg / n
    return float((sxg - sx * sg / n) / vg) if vg > 1e-12 * max(sgg, 1.0) else 0.0


def estimate(sums: np.ndarray, beta: float, g_mean: float, confidence: float = CONFIDENCE) -> Estimate:
    """The :class:`Estimate` of a run's block sums."""
    n, m, sd = _moments(sums, 0.0, 0.0)
    _, cm, csd = _moments(sums, beta, g_mean)
    t = _t(n, confidence)
    se, cse = sd / math.sqrt(n), csd / math.sqrt(n)
    return Estimate(n, m, sd, se, m - t * se, m + t * se, float(beta), cm, csd, cse, cm - t * cse, cm + t * cse)


def pilot_hands(hands: int) -> int:
    """Pilot hands for β: a tenth of the run, at least one block, at most 2**20."""
    return int(min(max(BLOCK, hands // 10), 1 << 20))


def evaluate(M, S: HumanTable, hands: int, seed: int, g_mean: float, mode: int = REAL, progress: bool = False,
             desc: str = "bounds") -> Estimate:  # fmt: skip
    """Play ``S`` on ``hands`` fresh deals of stream :data:`MAIN` (β from :func:`pilot_hands`
    hands of stream :data:`PILOT`)."""
    beta = beta_of(run_sums(M, S, pilot_hands(hands), seed, PILOT, mode, False))
    return estimate(run_sums(M, S, hands, seed, MAIN, mode, progress, desc), beta, g_mean)


__all__ = [
    "CONFIDENCE", "DEFAULT_STRATEGIES", "DOMAIN", "Estimate", "MAIN", "PILOT", "STRATEGIES", "TableBounds", "UNIT",
    "abstract_table", "beta_of", "check_model", "colex_rows", "deployed_model", "empty_table", "estimate", "evaluate",
    "gind_table", "given_table", "human_frames", "pilot_hands", "play_detail", "play_strategies", "play_sums",
    "pure_random_strategy", "random_human_table", "read_strategies", "result_table", "run_sums", "small_model",
    "strategy_table", "stream_key", "table_bounds", "table_of_frames", "with_g",
]  # fmt: skip


# --------------------------------------------------------------------------- one table
@dataclass(frozen=True)
class TableBounds:
    """The plays of one table: ``rows`` one per strategy (:meth:`Estimate.row` plus
    ``strategy``, ``v_gind`` its exact G_ind value), ``v_ind`` and ``v_abstract`` (= V_A, the
    abstract best response's value), ``seconds`` per step."""

    rows: list[dict]
    v_ind: float
    v_abstract: float
    seconds: dict[str, float]
    #: the kernel's model of the table and each strategy's table (for benchmarks and reruns)
    model: PolicyArrays | None = None
    built: dict | None = None


def _check_strategies(strategies) -> None:
    bad = [s for s in strategies if s not in STRATEGIES]
    if bad or not strategies:
        raise InputError(f"unknown strategy {bad[0] if bad else '(none)'!r}: expected some of {list(STRATEGIES)}")


def deployed_model(variant: str, tables, frame, gd: GindDeck | None = None) -> PolicyArrays:
    """The kernel's model of the deployed Riemann playing the strategy table ``frame`` (checked
    against the deck ``gd`` when given: :func:`check_model`)."""
    from poker51.policies.kernels import V06, hand_arrays, policy_tuple
    from poker51.policies.kernels import table_arrays as kernel_arrays
    from poker51.policies.riemann import Riemann

    riemann = Riemann(frame, variant, tables.classes, tables.buckets)
    M = policy_tuple(V06, hand_arrays(variant, tables.classes, tables.buckets), kernel_arrays(*riemann.kernel_arrays()))
    if gd is not None:
        check_model(gd, M)
    return M


def play_strategies(M: PolicyArrays, built: dict, v_ind_value: float, v_abstract: float, hands: int, seed: int,
                    strategies=DEFAULT_STRATEGIES, progress: bool = False, desc: str = "bounds",
                    seconds: dict | None = None) -> TableBounds:  # fmt: skip
    """Play each of ``strategies`` (``built[name]`` = (its :class:`HumanTable`, its exact G_ind
    value)) against the model ``M`` on ``hands`` real-card deals of seed ``seed``
    (:func:`evaluate`; the control variate's mean is ``v_ind_value``)."""
    import time

    _check_strategies(strategies)
    missing = [s for s in strategies if s not in built]
    if missing:
        raise InputError(f"strategy {missing[0]!r} was not built")
    sec = dict(seconds or {})
    rows = []
    for name in strategies:
        S, v_g = built[name]
        t = time.perf_counter()
        e = evaluate(M, S, hands, seed, v_ind_value, REAL, progress, f"{desc} {name}")
        sec[f"play_{name}"] = time.perf_counter() - t
        rows.append({"strategy": name, **e.row(), "v_gind": float(v_g)})
    return TableBounds(rows, float(v_ind_value), float(v_abstract), sec, M, {k: v[0] for k, v in built.items()})


def table_bounds(variant: str, tables, frame, hands: int, seed: int, strategies=DEFAULT_STRATEGIES,
                 progress: bool = False) -> TableBounds:  # fmt: skip
    """Build each strategy of ``strategies`` against the strategy table ``frame`` (a checked
    :mod:`poker51.export.schema` frame of ``variant`` on the abstraction ``tables``) and play it
    on ``hands`` real-card deals of seed ``seed`` (:func:`evaluate`).  (The pipeline's stage reads
    the strategies that ``realcard_br`` built instead: :func:`read_strategies`.)"""
    import time

    from poker51.games.abstract import build_game
    from poker51.realcard.gind import abstract_human, game_policy, strategy_value, table_arrays, variant_deck
    from poker51.solver.best_response import best_response_policy, best_response_value

    _check_strategies(strategies)
    sec: dict[str, float] = {}
    t = time.perf_counter()
    gd = variant_deck(tables)
    joint = riemann_joint(gd)
    ta = table_arrays(frame, gd.n_classes, gd.n_buckets)
    M = deployed_model(variant, tables, frame, gd)
    ab = tables.arrays()
    game = build_game(ab)
    pol = game_policy(game, ta)
    v_a = float(best_response_value(game, pol, 0))
    sec["setup"] = time.perf_counter() - t
    t = time.perf_counter()
    S_gind, r = gind_table(gd, ta, joint=joint)
    sec["gind"] = time.perf_counter() - t
    built: dict[str, tuple[HumanTable, float]] = {"gind": (S_gind, r.value)}
    if "given" in strategies:
        t = time.perf_counter()
        built["given"] = (given_table(gd, ta, r, joint)[0], math.nan)
        sec["given"] = time.perf_counter() - t
    if "abstract" in strategies:
        t = time.perf_counter()
        hs = abstract_human(game, best_response_policy(game, pol, 0), gd)
        built["abstract"] = (abstract_table(gd, hs, r.hand_value), float(strategy_value(gd, ta, hs, joint)))
        sec["abstract"] = time.perf_counter() - t
    return play_strategies(M, built, r.value, v_a, hands, seed, strategies, progress, f"bounds {variant}", sec)


def read_strategies(gd: GindDeck, br: dict, strategies=DEFAULT_STRATEGIES) -> tuple[dict, float, float]:
    """The strategies ``realcard_br`` built for one table, read from its files ``br`` (keys
    ``table``, ``hands``, ``post``, ``human_hands``, ``human_post``, and ``given_hands`` for
    ``given``: the outputs of :func:`poker51.stages.realcard_br.run_realcard_br`):
    (``built`` for :func:`play_strategies`, V_ind, V_A).  The control variate of every strategy is
    V_ind's value of each dealt hand (the ``value`` column of ``hands``); ``given`` plays its own
    dealt-hand choices with the G_ind post-draw choices of ``post``, and its exact G_ind value is
    NaN (not computed)."""
    from poker51.io import read_parquet

    _check_strategies(strategies)
    row = read_parquet(br["table"])
    if len(row) != 1:
        raise InputError(f"{br['table']}: one row expected, got {len(row)}")
    v_ind_value, v_a = float(row["v_ind"].iloc[0]), float(row["v_abstract"].iloc[0])
    hands = read_parquet(br["hands"])
    g = hands["value"].to_numpy(np.float64)
    built: dict[str, tuple[HumanTable, float]] = {}
    if "gind" in strategies:
        built["gind"] = (table_of_frames(gd, hands, read_parquet(br["post"]), g), v_ind_value)
    if "given" in strategies:
        if not br.get("given_hands"):
            raise InputError("strategy 'given' needs realcard_br's given_hands file (realcard_bounds.strategies)")
        built["given"] = (table_of_frames(gd, read_parquet(br["given_hands"]), read_parquet(br["post"]), g), math.nan)
    if "abstract" in strategies:
        human = float(row["v_ind_abstract_human"].iloc[0])
        built["abstract"] = (table_of_frames(gd, read_parquet(br["human_hands"]), read_parquet(br["human_post"]), g),
                             human)  # fmt: skip
    return built, v_ind_value, v_a
