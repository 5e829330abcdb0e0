"""Benchmark of the exact best response with card removal (:mod:`poker51.realcard.removal_exact`):
its cost on reduced decks, and what the same pass and the route beyond it would cost on 51 cards.

    .venv/bin/python benchmarks/bench_removal_exact.py [--deck 15|20] [--draws 0,1,2]

On a reduced deck (``15``: ranks T..A in three suits, H drawing at most 2 by default, the stub's
limit; ``20``: ranks T..A in four suits, every draw 0..5) against a random table (seed 51) it
prints V_real, the same pass without removal (G_ind with the same draws), V_ind, and the work:
dead sets, Riemann paths, H's (h, K, f) states, seconds (kernels compiled first, on a 10-card
warm-up), ns per path and per state.  Then the 51-card deck: suit-isomorphic five-card classes
(counted), rank-count profiles of dead sets (counted), the pass's exact operation counts and their
time at the measured rates, and the floor of any method that values H's post-draw states one by
one (the distinct (dead set, final hand) pairs x 75 public nodes at the measured node rate),
on 2 cores and on one GPU at a stated throughput.  The machine figure (bench_machine's Python
loop, CPU and caches, the load average) is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import time
from math import comb

import numpy as np
from _timing import best_of
from bench_machine import caches, python_loop

DECKS = {
    "15": ([4 * r + s for r in range(8, 13) for s in (1, 2, 3)], (0, 1, 2)),
    "20": ([4 * r + s for r in range(8, 13) for s in range(4)], (0, 1, 2, 3, 4, 5)),
}
#: a GPU's sustained rate on this kind of work (fp64 multiply-adds with irregular reads), flops/s:
#: an assumption written down, not a measurement (an H200's fp64 peak is about 6.7e13)
GPU_FLOPS = 1e13


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", choices=sorted(DECKS), default="15")
    ap.add_argument("--draws", default=None, help="H's draw counts, comma-separated (default: the deck's)")
    args = ap.parse_args()

    from poker51.hands.evaluate import RULE_ORDINARY
    from poker51.hands.house import draw_counts, house_keeps
    from poker51.realcard import gind as G
    from poker51.realcard import removal_exact as R
    from poker51.realcard.gind_kernels import PUT
    from poker51.realcard.removal_kernels import node_values

    print(f"machine: {os.cpu_count()} cores; {caches()}; python loop "
          f"{best_of(python_loop, 2):.2f} s for 20 million additions; load {os.getloadavg()[0]:.1f}")  # fmt: skip
    cards, draws = DECKS[args.deck]
    if args.draws:
        draws = tuple(int(x) for x in args.draws.split(","))
    warm = G.small_deck([4 * r + s for r in range(8, 13) for s in (2, 3)], n_buckets=4)
    R.v_real(warm, G.random_table(warm.n_classes, warm.n_buckets, 1), removal=False)  # compile
    gd = G.small_deck(cards, n_buckets=8)
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=51)
    ks = sorted(set(gd.class_draw.tolist()))
    print(f"deck: {gd.n} cards, {gd.n_hands:,} hands, {gd.n_classes} classes, {gd.values.size} strengths, "
          f"{gd.n_buckets} buckets; H draws {list(draws)}, Riemann draws {ks}")  # fmt: skip
    t, c = time.perf_counter(), time.process_time()
    r = R.v_real(gd, table, draws)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    off = R.v_real(gd, table, draws, removal=False)
    ind = G.v_ind(gd, table).value
    print(f"V_real = {r.value:+.9f}, without removal (same draws) {off.value:+.9f}, V_ind (all draws) {ind:+.9f}; "
          f"V_real - (no removal) = {r.value - off.value:+.6f} jbits/hand")  # fmt: skip
    sec = r.seconds["dead_sets"]
    print(f"work: {r.dead_sets:,} dead sets, {r.paths:,} Riemann paths, {r.triples:,} H states (h, K, f); "
          f"{wall:.2f} s wall ({cpu:.2f} CPU s; dead-set pass {sec:.2f} s, one thread): "
          f"{sec / max(r.paths, 1) * 1e9:.1f} ns per path, {sec / r.triples * 1e9:.0f} ns per H state")  # fmt: skip
    # the node rate: node_values on one node of the deck, per strength
    _, M, P = G.node_masses(gd, table, G.riemann_joint(gd))
    start = np.searchsorted(gd.bj, np.arange(gd.n_buckets + 1)).astype(np.int64)
    cv, act = np.zeros(gd.values.size), np.zeros(gd.values.size, np.int64)
    reps = 2000
    t = time.perf_counter()
    for _ in range(reps):
        node_values(M[0, 0, 0], gd.bj, start, P[0, 0, 0], PUT[0], cv, act)
    node_ns = (time.perf_counter() - t) / reps / gd.values.size * 1e9
    print(f"node values: {node_ns:.1f} ns per (node, strength) at {gd.n_buckets} buckets")

    # ---- the 51-card deck
    deck = np.arange(1, 52)
    print("--- the standard 51-card deck")
    t = time.perf_counter()
    n_iso = R.suit_classes(deck, (1, 2, 3))
    print(f"suit-isomorphic five-card classes (three full suits interchangeable): "
          f"{n_iso:,} ({time.perf_counter() - t:.1f} s); C(51,5) = {comb(51, 5):,}")  # fmt: skip
    caps = (3,) + (4,) * 12
    print(f"rank-count profiles of dead sets of 5..10 cards: {R.rank_profiles(caps, range(5, 11)):,} "
          f"(of 10 cards: {R.rank_profiles(caps, [10]):,})")  # fmt: skip
    from poker51.abstraction.transitions import deck_hands

    k = draw_counts(house_keeps(deck_hands(deck), RULE_ORDINARY)[0]).astype(np.int64)
    per_k = np.bincount(k, minlength=5)
    cost = R.full_deck_cost(51)
    # exact: sum over dead sets D of Riemann's paths inside the live cards (symmetry over D)
    paths = sum(comb(51, m) * sum(int(per_k[kk]) * comb(51 - m, 5) * comb(46 - m, kk) for kk in range(5)) // comb(51, 5)
                for m in range(5, 11))  # fmt: skip
    rate = sec / max(r.paths, 1)
    print(f"the dead-set pass: {cost['dead_sets']:.3e} dead sets, {paths:.3e} Riemann paths, "
          f"{cost['h_states']:.3e} H states: {paths * rate / 3600 / 2:.2e} hours on 2 cores at the measured "
          f"{rate * 1e9:.1f} ns per path")  # fmt: skip
    pairs = cost["dead_final_pairs"] / 6
    node_s = pairs * 75 * node_ns * 1e-9
    flops = pairs * 75 * 15 * 4
    print(f"floor of a per-state method: {cost['dead_final_pairs']:.3e} (dead set, final hand) pairs, /6 by the suits "
          f"{pairs:.3e}, x 75 public nodes: {node_s / 3600 / 2:,.0f} hours on 2 cores at {node_ns:.1f} ns; "
          f"{flops:.2e} flops = {flops / GPU_FLOPS / 3600:.1f} GPU hours at {GPU_FLOPS:.0e} flop/s "
          "(Riemann's counts per dead set not included)")  # fmt: skip
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
