"""Plain twins of the lower-bound play (:mod:`poker51.realcard.bounds_kernels`), slow and for tests.

- :func:`deck_plain` the same lazily shuffled deck in Python ints (all positions, so the
  engine can be given the whole permutation);
- :func:`play_hand_plain` one hand in Python: H's choices read from the :class:`HumanTable`,
  Riemann's from a *decider*: :class:`RealDecider` (the deployed
  :class:`poker51.policies.riemann.Riemann`, its own classes, buckets and FNV-1a hash) or
  :class:`IndDecider` (the table's probabilities of :mod:`poker51.realcard.gind` and a uniform,
  mode IND), strengths by :func:`poker51.hands.pure.pure_strength`, Riemann's keep by
  :func:`poker51.policies.riemann.riemann_keep` (or the deck's House keeps);
- :class:`TablePlayer` the same table as an engine player (:mod:`poker51.play.engine`) for seat H,
  so a kernel's hand can be replayed by the real engine against the real Riemann.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from poker51.export.schema import completed_pre_lines
from poker51.hands.pure import pure_strength
from poker51.play.actions import Action
from poker51.policies.kernels import colex_plain
from poker51.policies.riemann import PublicState, Riemann, lines_from_records, riemann_keep
from poker51.realcard.bounds_kernels import GOLDEN, R_OFFSET, REAL, U_OFFSET, HumanTable, mix64_plain
from poker51.rules import ANTE, BET_SIZES, RIEMANN_BET

_M64 = (1 << 64) - 1
PRE_DONE = completed_pre_lines()
OPENINGS = ("x",) + tuple(f"b{b}" for b in BET_SIZES)


def word_plain(key: int, t: int) -> int:
    return mix64_plain((int(key) + GOLDEN * (1 + t)) & _M64)


def hand_key_plain(stream_key: int, i: int) -> int:
    return mix64_plain((int(stream_key) + GOLDEN * (i + 1)) & _M64)


def deck_plain(cards: Sequence[int], key: int, base: int = 0, positions: int | None = None) -> list[int]:
    """The deck of a hand's key: Fisher–Yates over every position (or the first ``positions``)."""
    deck = [int(c) for c in sorted(cards)]
    n = len(deck)
    for t in range(n if positions is None else positions):
        m = n - t
        a = 0
        while True:
            prod = (word_plain(key, base + t + 64 * a) >> 32) * m
            if prod & 0xFFFFFFFF >= (1 << 32) % m:
                break
            a += 1
        j = t + (prod >> 32)
        deck[t], deck[j] = deck[j], deck[t]
    return deck


def unit_plain(key: int, i: int) -> float:
    return (word_plain(key, U_OFFSET + i) >> 11) * (1.0 / 9007199254740992.0)


class RealDecider:
    """Riemann as deployed: :meth:`Riemann.decide` (FNV-1a), the House rule by ``riemann_keep``."""

    def __init__(self, riemann: Riemann) -> None:
        self.r = riemann

    def keep(self, cards: list[int]) -> int:
        return riemann_keep(self.r.variant, cards)

    def act(self, cards: list[int], state: PublicState, key: int, i: int) -> str:
        return self.r.decide(cards, state)[0]


class IndDecider:
    """Riemann in G_ind: the probabilities of a :class:`poker51.realcard.gind.TableArrays` by the
    class (bucket) of a :class:`poker51.realcard.gind.GindDeck`, picked by the ``i``-th uniform."""

    def __init__(self, gd, table) -> None:
        self.gd, self.table = gd, table
        self.row = {tuple(int(c) for c in h): i for i, h in enumerate(gd.hands)}
        from poker51.realcard.gind import DEC_LINES, LINE_SLOTS, PRE_LINES

        self.dec, self.slots, self.pre_lines = DEC_LINES, LINE_SLOTS, PRE_LINES

    def keep(self, cards: list[int]) -> int:
        """The House keep over ``cards`` in the given order (the deck's mask is over sorted cards)."""
        srt = sorted(cards)
        m = int(self.gd.r_keep[self.row[tuple(srt)]])
        kept = {srt[i] for i in range(5) if m >> i & 1}
        return sum(1 << i for i, c in enumerate(cards) if c in kept)

    def act(self, cards: list[int], state: PublicState, key: int, i: int) -> str:
        gd = self.gd
        line = state.pre_line if state.street == 0 else state.post_line
        li = self.dec.index(line)
        d4 = min(state.h_draw, 4)
        if state.street == 0:
            probs = self.table.pre[d4, li, int(gd.r_class[self.row[tuple(sorted(cards))]])]
        else:
            s = pure_strength(sorted(cards), gd.rule)
            b = int(gd.bj[int(np.searchsorted(gd.values, s))])
            probs = self.table.post[d4, state.r_draw, self.pre_lines.index(state.pre_line), li, b]
        u, acc, out = unit_plain(key, i), 0.0, None
        for name, p in zip(self.slots[li], probs):
            if p > 0.0:
                acc += p
                out = name
                if acc > u:
                    break
        assert out is not None
        return out


def play_hand_plain(S: HumanTable, decider, cards: Sequence[int], values: np.ndarray, rule: int, key: int, mode: int):
    """(net, h_draw, r_draw, pre line, post line, the deck) of one hand (the kernel's rules in
    Python; ``values`` the deck's distinct strengths ascending; the deck is H's own in mode IND)."""
    cards = sorted(int(c) for c in cards)
    deck = deck_plain(cards, key)
    rdeck = deck_plain(cards, key, R_OFFSET) if mode != REAL else deck
    h = sorted(deck[:5])
    r = sorted(rdeck[5:10] if mode == REAL else rdeck[:5])
    hi = colex_plain(h)
    mask = int(S.keep[hi])
    hd = 5 - bin(mask).count("1")
    dec = [0]

    def riemann(street, hand, line, pre="", rd=-1):
        st = PublicState(street, hd, rd, pre if street else line, line if street else "")
        a = decider.act(hand, st, key, dec[0])
        dec[0] += 1
        return a

    a = int(S.open[hi])
    c_h = c_r = ANTE
    toks = [OPENINGS[a]]
    net, done, pre_done = 0, False, None
    if a == 0:
        act = riemann(0, r, "x")
        if act == "check":
            toks.append("x")
        else:
            toks.append(f"b{RIEMANN_BET}")
            c_r += RIEMANN_BET
            unit, choice, raise_line = RIEMANN_BET, int(S.xb2[hi]), "x-b2-r"
    else:
        b = BET_SIZES[a - 1]
        c_h += b
        act = riemann(0, r, f"b{b}")
        toks.append(act[0])
        if act == "fold":
            net, done = c_r, True
        elif act == "call":
            c_r = c_h
        else:
            c_r = c_h + b
            unit, choice, raise_line = b, int(S.br[hi, a - 1]), f"b{b}-r-r"
    if not done and toks[-1] in ("b2", "r"):
        toks.append("fcr"[choice])
        if choice == 0:
            net, done = -c_h, True
        elif choice == 1:
            c_h = c_r
        else:
            c_h = c_r + unit
            act = riemann(0, r, raise_line)
            toks.append(act[0])
            if act == "fold":
                net, done = c_r, True
            else:
                c_r = c_h
    pre_line = "-".join(toks)
    if done:
        return net, hd, -1, pre_line, "", deck
    pre_done = PRE_DONE.index(pre_line)
    kept = [h[i] for i in range(5) if mask >> i & 1]
    at = 10 if mode == REAL else 5
    hf = sorted(kept + deck[at : at + hd])
    rm = decider.keep(r)
    rk = [r[i] for i in range(5) if rm >> i & 1]
    rd = 5 - len(rk)
    start = 10 + hd if mode == REAL else 5
    rf = sorted(rk + rdeck[start : start + rd])
    s_h, s_r = pure_strength(hf, rule), pure_strength(rf, rule)
    si = int(np.searchsorted(values, s_h))
    c_h = c_r = _contrib(pre_line)
    at_ = (hd, rd, pre_done, si)
    a = int(S.post_open[at_])
    toks = [OPENINGS[a]]
    showdown = False
    if a == 0:
        act = riemann(1, rf, "x", pre_line, rd)
        if act == "check":
            toks.append("x")
            showdown = True
        else:
            toks.append(f"b{RIEMANN_BET}")
            c_r += RIEMANN_BET
            unit, choice, raise_line = RIEMANN_BET, int(S.post_xb2[at_]), "x-b2-r"
    else:
        b = BET_SIZES[a - 1]
        c_h += b
        act = riemann(1, rf, f"b{b}", pre_line, rd)
        toks.append(act[0])
        if act == "fold":
            net, done = c_r, True
        elif act == "call":
            c_r = c_h
            showdown = True
        else:
            c_r = c_h + b
            unit, choice, raise_line = b, int(S.post_br[at_ + (a - 1,)]), f"b{b}-r-r"
    if not done and not showdown:
        toks.append("fcr"[choice])
        if choice == 0:
            net, done = -c_h, True
        elif choice == 1:
            c_h = c_r
            showdown = True
        else:
            c_h = c_r + unit
            act = riemann(1, rf, raise_line, pre_line, rd)
            toks.append(act[0])
            if act == "fold":
                net, done = c_r, True
            else:
                c_r = c_h
                showdown = True
    if showdown:
        net = c_r if s_h > s_r else (-c_h if s_h < s_r else 0)
    return net, hd, rd, pre_line, "-".join(toks), deck


def _contrib(pre_line: str) -> int:
    """Each player's contribution after a completed pre-draw line (antes included)."""
    toks = pre_line.split("-")
    if toks[0] == "x":
        return {"x-x": 1, "x-b2-c": 3, "x-b2-r-c": 5}[pre_line]
    b = int(toks[0][1:])
    return ANTE + b * (len(toks) - 1)


class TablePlayer:
    """A :class:`HumanTable` as an engine player for seat H (:mod:`poker51.play.engine`)."""

    def __init__(self, S: HumanTable, values: np.ndarray, rule: int) -> None:
        self.S, self.values, self.rule = S, values, rule

    def choose_keep(self, view) -> int:
        cards = [int(c) for c in view.cards]
        srt = sorted(cards)
        m = int(self.S.keep[colex_plain(srt)])
        kept = {srt[i] for i in range(5) if m >> i & 1}
        return sum(1 << i for i, c in enumerate(cards) if c in kept)

    def act(self, view, legal: Sequence[Action]) -> Action:
        S = self.S
        pre, post = lines_from_records(view.line)
        cards = sorted(int(c) for c in view.cards)
        if view.phase == "pre":
            hi = colex_plain(cards)
            toks = pre.split("-") if pre else []
            if not toks:
                choice, kind = int(S.open[hi]), "open"
            elif toks == ["x", "b2"]:
                choice, kind = int(S.xb2[hi]), "answer"
            else:
                choice, kind = int(S.br[hi, OPENINGS.index(toks[0]) - 1]), "answer"
        else:
            hd, rd = int(view.draw_count), int(view.opp_draw_count)
            si = int(np.searchsorted(self.values, pure_strength(cards, self.rule)))
            at = (hd, rd, PRE_DONE.index(pre), si)
            toks = post.split("-") if post else []
            if not toks:
                choice, kind = int(S.post_open[at]), "open"
            elif toks == ["x", "b2"]:
                choice, kind = int(S.post_xb2[at]), "answer"
            else:
                choice, kind = int(S.post_br[at + (OPENINGS.index(toks[0]) - 1,)]), "answer"
        if kind == "open":
            want = Action("check") if choice == 0 else Action("bet", BET_SIZES[choice - 1])
            for a in legal:
                if a.kind == want.kind and (want.kind == "check" or a.amount == want.amount):
                    return a
        else:
            name = ("fold", "call", "raise")[choice]
            for a in legal:
                if a.kind == name:
                    return a
        raise RuntimeError(f"the table's choice {choice} ({kind}) is not legal: {[str(a) for a in legal]}")


__all__ = [
    "IndDecider", "RealDecider", "TablePlayer", "deck_plain", "hand_key_plain", "play_hand_plain", "unit_plain",
    "word_plain",
]  # fmt: skip
