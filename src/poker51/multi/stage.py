"""The ``multi`` pipeline stage: seeded five-seat tables, Riemann's result per opponent type.

For every configuration (``seats`` in ``multi.seats``, ``riemanns`` in ``multi.riemanns``
with at least one person left, ``opponents`` in ``multi.opponents``) the stage plays
``multi.tables`` seeded tables of ``multi.hands`` hands each on the Numba kernel
(:func:`poker51.multi.simulate.simulate_kernel`; tables in parallel, each one independent,
so the output does not depend on the number of threads).  ``opponents`` is a type of
``config/population.yaml`` in every person's seat, or ``mixed``: person ``i`` of table ``k``
plays type ``(i + k) mod 4`` (design choice M14).  Table ``k`` of configuration ``c`` is
seeded ``(multi.seed, 1000 c + k)``.

``sim.parquet``: one row per configuration and type of person, with per hand, in jbits:
``net_people`` (a person's net result against the other people), ``abit_score`` (a
person's abit score), ``riemann_abits`` (one Riemann's abits won), each as the mean over
the tables of the per-table mean and a 95% t-interval over tables (``_lo``, ``_hi``).
``audit.json``: the conservation audit of every simulated step (seats, hands, Riemann
additions and departures, leaves; failures must be 0), and the reference engine replaying
the first table of the first configuration hand for hand (``twin``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from poker51.errors import InputError
from poker51.io import write_json, write_parquet

if TYPE_CHECKING:  # the kernels, SciPy and Matplotlib load when the stage runs, not on import
    from poker51.games.population import PlayerType
    from poker51.multi.simulate import Tables

log = logging.getLogger("poker51.multi")
MIXED = "mixed"
TABLE_STRIDE = 1000
TWIN_HANDS = 150
METRICS = ("net_people", "abit_score", "riemann_abits")


@dataclass(frozen=True)
class Config:
    """One simulated configuration."""

    index: int
    seats: int
    riemanns: int
    opponents: str

    @property
    def people(self) -> int:
        return self.seats - self.riemanns


def configurations(seats: Sequence[int], riemanns: Sequence[int], opponents: Sequence[str]) -> list[Config]:
    out: list[Config] = []
    for n in sorted(seats):
        for r in sorted(riemanns):
            if n - r >= 1:
                for o in opponents:
                    out.append(Config(len(out), n, r, o))
    return out


def table_types(cfg: Config, k: int, pop_types: Sequence[PlayerType]) -> tuple[int, ...]:
    """The type index of each person of table ``k`` (module docstring)."""
    names = [t.name for t in pop_types]
    if cfg.opponents == MIXED:
        return tuple((i + k) % len(names) for i in range(cfg.people))
    return (names.index(cfg.opponents),) * cfg.people


def _ci(x: np.ndarray) -> tuple[float, float, float]:
    from scipy import stats

    m = float(np.mean(x))
    if x.size < 2:
        return m, m, m
    half = float(stats.t.ppf(0.975, x.size - 1) * np.std(x, ddof=1) / np.sqrt(x.size))
    return m, m - half, m + half


def run_multi(
    population: str | Path,
    out_sim: str | Path,
    out_audit: str | Path,
    seats: Sequence[int],
    riemanns: Sequence[int],
    opponents: Sequence[str],
    tables: int,
    hands: int,
    buyin: int,
    seed: int,
    belief_seed: int,
    belief_samples: int,
    strength_samples: int,
    pre_samples: int,
    threads: int = 1,
    progress: bool = True,
    metadata: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Simulate every configuration (module docstring); write ``sim.parquet`` (with ``metadata``
    added to its own) and ``audit.json``."""
    import numba
    from tqdm import tqdm

    from poker51.games.population import load_population
    from poker51.multi.belief import standard_belief
    from poker51.multi.commit import DECK_CARDS
    from poker51.multi.krng import entropy_words
    from poker51.multi.ktable import N_STATS, new_memo, run_tables
    from poker51.multi.law import JBIT, N_SEATS
    from poker51.multi.population import StrengthTables
    from poker51.multi.simulate import BANK, Tables, TableSpec, type_table
    from poker51.rules import N_DRAWS

    pop = load_population(population)
    names = [t.name for t in pop.types]
    for o in opponents:
        if o != MIXED and o not in names:
            raise InputError(f"multi.opponents: {o!r} is not a type of {population} nor {MIXED!r}")
    configs = configurations(seats, riemanns, opponents)
    belief = standard_belief(belief_seed, belief_samples)
    strengths = StrengthTables.build(seed, strength_samples, pre_samples)
    tabs = Tables.build(belief, strengths)
    rank = tabs.ranks
    lr = np.stack([rank.counts(belief[d]) for d in range(N_DRAWS)])
    flr = rank.counts(strengths.finals)
    jobs = [(c, k) for c in configs for k in range(tables)]
    n = len(jobs)
    kinds = np.zeros((n, N_SEATS), np.int64)
    ptypes = np.zeros((n, N_SEATS), np.int64)
    adders = np.full((n, N_SEATS), -1, np.int64)
    words = np.zeros((n, 4), np.uint64)
    nwords = np.zeros(n, np.int64)
    for i, (c, k) in enumerate(jobs):
        spec = TableSpec(tuple(pop.types[j] for j in table_types(c, k, pop.types)), c.riemanns, buyin)
        kinds[i], adders[i] = spec.kinds(), spec.adders()
        ptypes[i, : c.people] = table_types(c, k, pop.types)
        w = entropy_words(seed, TABLE_STRIDE * c.index + k)
        words[i, : w.size], nwords[i] = w, w.size
    stats_out = np.zeros((n, N_SEATS, N_STATS), np.int64)
    audit_out = np.zeros((n, 2), np.int64)
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    chunk = max(1, 2 * int(threads))
    args = (buyin * JBIT, BANK)
    tail = (type_table(pop.types), np.array(DECK_CARDS, np.int64), rank.lut, lr, belief.shape[1], flr,
            strengths.finals.size, strengths.pre, new_memo())  # fmt: skip
    with tqdm(total=n * hands, unit="hand", unit_scale=True, disable=not progress, desc="multi") as bar:
        for lo in range(0, n, chunk):
            hi = min(n, lo + chunk)
            run_tables(hands, kinds[lo:hi], ptypes[lo:hi], adders[lo:hi], *args, words[lo:hi], nwords[lo:hi], *tail,
                       stats_out[lo:hi], audit_out[lo:hi])  # fmt: skip
            bar.update((hi - lo) * hands)
    df = summarise(jobs, stats_out, audit_out, names, hands, pop.types)
    meta = {**(metadata or {}), "seed": seed, "tables": tables, "hands": hands, "buyin": buyin}
    write_parquet(df, out_sim, metadata=meta)
    twin = twin_check(configs[0], pop.types, tabs, seed, min(hands, TWIN_HANDS))
    audit = {
        "tables": n,
        "hands": n * hands,
        "steps": int(audit_out[:, 0].sum()),
        "failures": int(audit_out[:, 1].sum()),
        "conserved": bool(audit_out[:, 1].sum() == 0),
        "per_configuration": [
            {"seats": c.seats, "riemanns": c.riemanns, "opponents": c.opponents,
             "steps": int(audit_out[[i for i, j in enumerate(jobs) if j[0] == c], 0].sum()),
             "failures": int(audit_out[[i for i, j in enumerate(jobs) if j[0] == c], 1].sum())}
            for c in configs
        ],
        "twin": twin,
        "belief_sha256": hashlib.sha256(np.ascontiguousarray(belief, "<i4").tobytes()).hexdigest(),
        "seed": seed,
    }  # fmt: skip
    write_json(audit, out_audit)
    log.info(
        "multi: %d tables, %d hands, %d audited steps, %d failures", n, n * hands, audit["steps"], audit["failures"]
    )
    if not audit["conserved"] or not twin["identical"]:
        raise RuntimeError(f"multi: the audit failed ({audit['failures']} failures, twin {twin['identical']})")
    return df


def summarise(
    jobs: Sequence[tuple[Config, int]],
    stats_out: np.ndarray,
    audit_out: np.ndarray,
    names: Sequence[str],
    hands: int,
    pop_types: Sequence[PlayerType],
) -> pd.DataFrame:
    """One row per configuration and person type (module docstring)."""
    from poker51.multi.law import JBIT

    per: dict[tuple[int, str], dict[str, list[float]]] = {}
    cfgs: dict[int, Config] = {}
    for i, (c, k) in enumerate(jobs):
        cfgs[c.index] = c
        types = table_types(c, k, pop_types)
        r_seats = range(c.people, c.seats)
        riemann = float(np.mean([stats_out[i, s, 2] for s in r_seats])) / hands / JBIT if c.riemanns else 0.0
        for t in sorted(set(types)):
            seats_t = [s for s in range(c.people) if types[s] == t]
            acc = per.setdefault((c.index, names[t]), {m: [] for m in METRICS})
            acc["net_people"].append(float(np.mean(stats_out[i, seats_t, 0])) / hands / JBIT)
            acc["abit_score"].append(float(np.mean(stats_out[i, seats_t, 1])) / hands / JBIT)
            acc["riemann_abits"].append(riemann)
    rows: list[dict[str, Any]] = []
    for (ci, tname), vals in sorted(per.items()):
        c = cfgs[ci]
        row: dict[str, Any] = {
            "seats": c.seats, "riemanns": c.riemanns, "people": c.people, "opponents": c.opponents,
            "type": tname, "tables": len(vals["net_people"]), "hands": hands,
        }  # fmt: skip
        for m in METRICS:
            row[m], row[f"{m}_lo"], row[f"{m}_hi"] = _ci(np.asarray(vals[m]))
        rows.append(row)
    return pd.DataFrame(rows)


def twin_check(cfg: Config, pop_types: Sequence[PlayerType], tabs: Tables, seed: int, hands: int) -> dict[str, Any]:
    """Replay table 0 of ``cfg`` on the reference engine and compare every hand with the kernel."""
    from poker51.multi.simulate import TableSpec, simulate_kernel, simulate_plain

    spec = TableSpec(tuple(pop_types[j] for j in table_types(cfg, 0, pop_types)), cfg.riemanns)
    table = TABLE_STRIDE * cfg.index
    a = simulate_kernel(spec, tabs, seed, table, hands)
    b = simulate_plain(spec, tabs, seed, table, hands)
    same = all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("hands", "seats", "actions", "stats"))
    return {"configuration": cfg.index, "hands": hands, "identical": bool(same)}


__all__ = ["Config", "configurations", "run_multi", "summarise", "twin_check"]
