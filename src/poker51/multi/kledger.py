"""Numba twin of the table's ledger (:class:`poker51.multi.ledger.Ledger`), seat-indexed.

``kind[s]``: 0 empty, 1 person, 2 Riemann; ``held[r, p]`` the jbits Riemann ``r`` holds for the
person in seat ``p``; ``stats[s]`` = (net against people, abit score, Riemann's abits
result, hands dealt in).  :func:`book_k` is :meth:`~poker51.multi.ledger.Ledger.book`,
:func:`riemann_leaves_k` :meth:`~poker51.multi.ledger.Ledger.riemann_leaves`,
:func:`person_leaves_k` the cash-out of :class:`poker51.multi.table.Table` and
:func:`audit_k` :meth:`~poker51.multi.ledger.Ledger.audit` (``audit = (steps, failures)``).
"""

from __future__ import annotations

from numba import njit

from poker51.multi.law import N_SEATS

EMPTY, PERSON, RIEMANN = 0, 1, 2


@njit(cache=True)
def book_k(a, b, v, kind, stack, held, net, sess_net, stats):
    """Book ``v`` cents of a pot contributed by seat ``a`` and won by seat ``b``."""
    if kind[b] == RIEMANN:
        stats[b, 2] += v
    if a == b or (kind[a] == RIEMANN and kind[b] == RIEMANN):
        stack[b] += v
    elif kind[a] == PERSON and kind[b] == PERSON:
        stack[b] += v
        net[b] += v
        net[a] -= v
        sess_net[b] += v
        sess_net[a] -= v
        stats[b, 0] += v
        stats[a, 0] -= v
    elif kind[b] == RIEMANN:
        held[b, a] += v
        stack[b] += v
    else:
        y = min(v, held[a, b])
        held[a, b] -= y
        stack[b] += y
        stats[b, 1] += v - y


@njit(cache=True)
def riemann_leaves_k(r, kind, stack, held, bank):
    """Every jbit Riemann ``r`` holds returns to its owner; its abits vanish."""
    for p in range(N_SEATS):
        if held[r, p] > 0:
            if kind[p] == PERSON:
                stack[p] += held[r, p]
            else:
                bank[p] += held[r, p]
            held[r, p] = 0
    stack[r] = 0
    kind[r] = EMPTY


@njit(cache=True)
def person_leaves_k(p, kind, adder, stack, held, bank, initial, net, sess_in, sess_net, audit):
    """``p`` leaves: its Riemanns leave, every Riemann pays back what it holds for ``p``, cash-out."""
    for r in range(N_SEATS):
        if kind[r] == RIEMANN and adder[r] == p:
            riemann_leaves_k(r, kind, stack, held, bank)
    got = 0
    for r in range(N_SEATS):
        got += held[r, p]
        held[r, p] = 0
    amount = stack[p] + got
    if amount != sess_in[p] + sess_net[p]:
        audit[1] += 1
    bank[p] += amount
    stack[p] = 0
    kind[p] = EMPTY


@njit(cache=True)
def audit_k(kind, stack, held, bank, initial, net, committed, audit):
    """bank + stack + pot + held - net == initial bank, for every person (Ledger.audit)."""
    audit[0] += 1
    for p in range(N_SEATS):
        if initial[p] == 0 and bank[p] == 0 and kind[p] != PERSON:
            continue
        total = bank[p]
        if kind[p] == PERSON:
            total += stack[p] + committed[p]
        for r in range(N_SEATS):
            total += held[r, p]
            if held[r, p] < 0:
                audit[1] += 1
        if total - net[p] != initial[p]:
            audit[1] += 1


__all__ = ["EMPTY", "PERSON", "RIEMANN", "audit_k", "book_k", "person_leaves_k", "riemann_leaves_k"]
