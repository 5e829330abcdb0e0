"""Numba twin of the shared pot law (:mod:`poker51.table.pots`) as the tables apply it (:mod:`poker51.multi.hand`).

:func:`settle_kernel` returns the same transfer sequence ``(from, to, cents)`` as
``Hand._settle``: the chips returned by :func:`poker51.table.pots.return_uncalled` (ascending
seat), then pot by pot (:func:`~poker51.table.pots.build_pots`, smallest level first) the rows
of :func:`~poker51.table.pots.pot_transfers` with the winners in payout order from the seat
after the button and the contributors in turn order.  ``tests/multi/test_kernels.py``
compares the two on random contributions (Hypothesis).  Seats not dealt in have
``dealt[s] == 0``; ``rank`` orders hands (higher wins).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from poker51.multi.law import N_SEATS


@njit(cache=True)
def settle_kernel(order, n, committed, live, rank, showdown, button, t_from, t_to, t_amt, pots_out):
    """Fill the transfer rows; returns (number of rows, number of pots).  ``order[:n]`` the
    seats dealt in, in turn order; ``pots_out[k] = (amount, eligible mask, winner mask)``."""
    c = np.zeros(N_SEATS, np.int64)
    for i in range(n):
        c[order[i]] = committed[order[i]]
    returned = np.zeros(N_SEATS, np.int64)
    # return_uncalled, step 1: the top contribution above the second
    top, second, top_seat = -1, -1, -1
    for s in range(N_SEATS):  # dict order of the contributions is ascending seat order
        if not _dealt(order, n, s):
            continue
        v = c[s]
        if v > top:
            second, top, top_seat = top, v, s
        elif v > second:
            second = v
    if n >= 2 and top > second:
        returned[top_seat] += top - second
        c[top_seat] = second
    # step 1, second part: nothing above the largest level of a player still in
    cap = 0
    for i in range(n):
        s = order[i]
        if live[s] and c[s] > cap:
            cap = c[s]
    for i in range(n):
        s = order[i]
        if c[s] > cap:
            returned[s] += c[s] - cap
            c[s] = cap
    k = 0
    for s in range(N_SEATS):
        if returned[s] > 0:
            t_from[k], t_to[k], t_amt[k] = s, s, returned[s]
            k += 1
    # build_pots: one pot per distinct level of the players still in
    levels = np.empty(N_SEATS, np.int64)
    nl = 0
    for i in range(n):
        s = order[i]
        v = c[s]
        if live[s] and v > 0:
            seen = False
            for j in range(nl):
                if levels[j] == v:
                    seen = True
            if not seen:
                levels[nl] = v
                nl += 1
    levels[:nl].sort()
    below = 0
    winners = np.empty(N_SEATS, np.int64)
    for p in range(nl):
        level = levels[p]
        amount = 0
        elig = 0
        for i in range(n):
            s = order[i]
            if c[s] > below:
                amount += min(c[s], level) - below
            if live[s] and c[s] >= level:
                elig |= 1 << s
        best = -1
        if showdown:
            for s in range(N_SEATS):
                if (elig >> s) & 1 and rank[s] > best:
                    best = rank[s]
        nw = 0
        for j in range(N_SEATS):  # payout order: from the seat after the button
            s = (button + 1 + j) % N_SEATS
            if (elig >> s) & 1 and (not showdown or rank[s] == best):
                winners[nw] = s
                nw += 1
        wmask = 0
        for j in range(nw):
            wmask |= 1 << winners[j]
        pots_out[p, 0], pots_out[p, 1], pots_out[p, 2] = amount, elig, wmask
        turn = 0
        for i in range(n):  # contributors in turn order
            s = order[i]
            if c[s] <= below:
                continue
            part = min(c[s], level) - below
            q, r = part // nw, part % nw
            for j in range(nw):
                extra = 1 if (j - turn) % nw < r else 0
                if q + extra:
                    t_from[k], t_to[k], t_amt[k] = s, winners[j], q + extra
                    k += 1
            turn = (turn + r) % nw
        below = level
    return k, nl


@njit(cache=True, inline="always")
def _dealt(order, n, s):
    for i in range(n):
        if order[i] == s:
            return True
    return False


__all__ = ["settle_kernel"]
