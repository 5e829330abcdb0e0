"""The abstraction-size study (``workflow/rules/abstraction_study.smk``): one bucket count per
job, then the table and figures of all.
"""

from __future__ import annotations

import logging
import resource
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.tables import build_abstraction
from poker51.export.tables import strategy_table
from poker51.games.abstract import build_game, describe
from poker51.games.population import load_population
from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.policies.holdout import load_holdout
from poker51.provenance import JBITS, PROBABILITY, table_metadata, units_for
from poker51.realcard.abstraction_size import (
    BOUND_COLUMNS,
    SIZE_KEY,
    equivalence,
    paired_differences,
    real_card_columns,
    size_bound,
    sort_sizes,
)
from poker51.realcard.bounds import UNIT as BOUNDS_UNIT
from poker51.realcard.decomposition import BR_UNIT, VALUE_COLUMNS, decompose, joint_of_frame
from poker51.realcard.gind import table_arrays, variant_deck
from poker51.realcard.lbr import LBR_UNIT
from poker51.solver.passes import set_threads
from poker51.solver.schedule import CheckSchedule
from poker51.stages.common import Provenance, figures, stem
from poker51.stages.realcard_br import ROW_UNITS
from poker51.study.abstraction_size import STUDY_VARIANT, growth_of, solve_size
from poker51.study.scores import variant_types
from poker51.study.solve import WARM_CLOCK

log = logging.getLogger("poker51.stages")


def run_abstraction_size(
    buckets: int,
    abstraction_cfg: Mapping[str, Any],
    population: str,
    holdout: str | None,
    solve_cfg: Mapping[str, Any],
    study_cfg: Mapping[str, Any],
    evidence_cfg: Mapping[str, Any],
    lbr_cfg: Mapping[str, Any],
    out: Mapping[str, str],
    threads: int = 1,
    provenance: Provenance = None,
    riemann: str | None = None,
    br_provenance: Provenance = None,
    class_set: str = "standard",
) -> None:
    """One bucket count of the abstraction-size study: the standard variant's abstraction with
    ``buckets`` buckets (built in the job, the abstraction stage's other settings), its Nash and
    p tables (:func:`poker51.study.abstraction_size.solve_size`), the p table's real-card results
    (:func:`poker51.realcard.abstraction_size.real_card_columns`): ``table`` (.parquet, one
    deterministic row), ``timing`` (.tsv: wall-clock seconds and memory, not in the receipt) and,
    when ``out`` names it, ``br`` (.parquet, one row: the p table's V_A and V_ind,
    :func:`poker51.realcard.decomposition.decompose` without the abstract human, whose value costs
    as much again; ``riemann`` the standard variant's Riemann strength table, which no bucket
    count changes, computed here when None; written with ``br_provenance``, so that the other
    files keep the provenance of the inputs that decide them).  With ``study_cfg["bound_hands"]``
    above 0, the ``br`` row also holds the lower bound by play: the G_ind best response played on
    that many fresh real-card deals (seed ``study_cfg["bound_seed"]``, the same deals for every
    bucket count) against the p table (:func:`poker51.realcard.bounds.evaluate`).  ``class_set``
    is the abstraction's class set (``standard``, or the study's ``refined`` set:
    :data:`poker51.abstraction.keys.CLASS_SETS`), a column of every file."""
    start = time.perf_counter()
    set_threads(threads)
    tables = build_abstraction(
        STUDY_VARIANT,
        n_buckets=int(buckets),
        belief_seed=int(abstraction_cfg["belief_seed"]),
        belief_samples=int(abstraction_cfg["belief_samples"]),
        progress=False,
        class_set=class_set,
    )
    ab = tables.arrays()
    game = build_game(ab)
    log.info("abstraction size %d (%s classes): %s", buckets, class_set, describe(game))
    pop = load_population(population)
    types = variant_types(game, ab, pop)
    target = solve_cfg.get("target_exploitability")
    built = time.perf_counter()
    solves = solve_size(
        game, ab, types, pop, float(study_cfg["p"]), algorithm=str(solve_cfg["algorithm"]),
        iterations=int(study_cfg["iterations"]), target=None if target is None else float(target),
        schedule=CheckSchedule(int(solve_cfg["check_first"]), float(solve_cfg["check_growth"])), progress=True,
        warm_clock=int(solve_cfg.get("warm_clock", WARM_CLOCK)),
    )  # fmt: skip
    solved = time.perf_counter()
    row = solves.columns()
    row = {"variant": row.pop("variant"), "class_set": class_set, **row}
    rnr_table = strategy_table(game, solves.rnr.policy, ab, STUDY_VARIANT)
    cards, deals = real_card_columns(
        tables, rnr_table, pop,
        load_holdout(holdout) if holdout else (), hands=int(study_cfg["evidence_hands"]),
        seed=int(evidence_cfg["seed"]), stack=int(evidence_cfg["stack"]), lbr_hands=int(study_cfg["lbr_hands"]),
        lbr_seed=int(lbr_cfg["seed"]), particles=int(lbr_cfg["particles"]), max_tries=int(lbr_cfg["max_tries"]),
        progress=True,
    )  # fmt: skip
    row |= cards
    played = time.perf_counter()
    if "br" in out:  # the p table's exact best response in G_ind (issue 26): its own file, joined by the gather
        gd = variant_deck(tables)
        joint = joint_of_frame(read_parquet(riemann), gd) if riemann else None
        dec, r, _ = decompose(gd, table_arrays(rnr_table, gd.n_classes, gd.n_buckets), game, solves.rnr.policy, joint,
                           human=False)  # fmt: skip
        br_row = {"class_set": class_set, "buckets": np.int64(buckets), "p": float(study_cfg["p"]), **dec.columns()}
        br_units = {"buckets": "buckets", "p": PROBABILITY, **ROW_UNITS}
        bound_hands = int(study_cfg.get("bound_hands", 0))
        if bound_hands > 0:
            e = size_bound(tables, rnr_table, gd, r, bound_hands, int(study_cfg["bound_seed"]))
            br_row |= {"v_real_lower": e.cv_mean, "v_real_lower_ci_low": e.cv_ci_low,
                       "v_real_lower_ci_high": e.cv_ci_high, "v_real_lower_hands": np.int64(e.hands)}  # fmt: skip
            br_units |= {**units_for(BOUND_COLUMNS, BOUNDS_UNIT), "v_real_lower_hands": "deals"}
            log.info("abstraction size %d: the G_ind best response won %+.6f [%+.6f, %+.6f] on %d real-card deals",
                     buckets, e.cv_mean, e.cv_ci_low, e.cv_ci_high, e.hands)  # fmt: skip
        br = pd.DataFrame([br_row])
        write_parquet(br, out["br"], metadata=table_metadata(br_provenance or provenance, br_units,
                                                             variant=STUDY_VARIANT, buckets=int(buckets),
                                                             class_set=class_set))  # fmt: skip
        log.info("abstraction size %d: V_A %+.6f, V_ind %+.6f (best responder's jbits/hand)", buckets, dec.v_abstract,
                 dec.v_ind)  # fmt: skip
    br_done = time.perf_counter()
    df = pd.DataFrame([row])
    units = {
        "buckets": "buckets", "classes": "classes", "private_states": "classes + buckets",
        "infosets": "information sets", "actions": "actions", "p": PROBABILITY,
        **{c: "iterations" for c in df.columns if c.endswith("_iterations")},
        **{c: "deals" for c in df.columns if c.endswith("_hands")},
        **{c: LBR_UNIT for c in ("lbr_win", "lbr_win_ci_low", "lbr_win_ci_high")},
        "class_set": "class set (standard or refined)",
        **units_for([c for c in df.columns if c.startswith(("value_", "game_", "target", "pop_", "holdout_"))
                     or c.endswith(("_exploitability", "_guarantee", "_vs_population"))], JBITS),
    }  # fmt: skip
    meta = {"variant": STUDY_VARIANT, "buckets": int(buckets), "class_set": class_set}
    write_parquet(df, out["table"], metadata=table_metadata(provenance, units, **meta))
    deals.insert(0, "buckets", np.int64(buckets))
    deals.insert(0, "class_set", class_set)
    deal_units = {"hand": "deal index", "net": f"{JBITS}; scope lbr: minus what the local best response wins"}
    write_parquet(deals, out["hands"], metadata=table_metadata(provenance, deal_units, **meta))
    timing = {"class_set": class_set, **solves.timing()} | {
        "build_seconds": built - start,
        "solve_seconds": solved - built,
        "real_card_seconds": played - solved,
        "realcard_br_seconds": br_done - played,
        "job_seconds": time.perf_counter() - start,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    pd.DataFrame([timing]).to_csv(out["timing"], sep="\t", index=False)
    log.info("abstraction size %d: %s; %s", buckets, row, timing)


def gather_abstraction_size(
    tables: Sequence[str],
    timings: Sequence[str],
    hands: Sequence[str],
    reference: int,
    out: Mapping[str, str],
    provenance: Provenance = None,
    br: Sequence[str] = (),
    margin: float | None = None,
) -> None:
    """Every abstraction's row in one table (the standard classes' bucket counts ascending, then
    the refined set's: :func:`poker51.realcard.abstraction_size.sort_sizes`) with its paired
    real-card differences from the standard classes' ``reference`` bucket count on the same deals
    (:func:`poker51.realcard.abstraction_size.paired_differences`), and the timings in one TSV;
    logs the fitted growth exponent of the solves' seconds per iteration.  With ``br`` (the
    per-size decompositions) the p table's ``v_abstract``, ``v_ind``, ``v_ind_abstract_human``
    and ``v_ind_vs_ref`` (V_ind minus the reference's: exact, no interval); with ``margin`` the
    equivalence columns of :func:`poker51.realcard.abstraction_size.equivalence`."""
    df = sort_sizes(pd.concat([read_parquet(p) for p in tables], ignore_index=True))
    diffs = paired_differences(pd.concat([read_parquet(p) for p in hands], ignore_index=True), int(reference))
    df = df.merge(diffs, on=SIZE_KEY, how="left", validate="one_to_one")
    df.insert(df.columns.get_loc("lbr_hands") + 1, "reference_buckets", np.int64(reference))
    units = {**(read_metadata(tables[0]).get("units", {}) if tables else {}), "reference_buckets": "buckets",
             **units_for([c for c in diffs.columns if "_vs_ref" in c], f"{JBITS}; minus the reference bucket count's, "
                         "same deals")}  # fmt: skip
    if margin is not None:
        eq = equivalence(diffs, float(margin))
        df = df.merge(eq, on=SIZE_KEY, how="left", validate="one_to_one")
        units |= {**units_for([c for c in eq.columns if c.endswith("_margin")], f"{JBITS}; the smallest margin "
                              "whose +- band holds the paired 95% interval"),
                  **{c: f"the paired 95% interval inside +-{float(margin):g} jbits/hand" for c in eq.columns
                     if c.endswith("_equivalent")}}  # fmt: skip
    if br:
        frames = [read_parquet(p) for p in br]
        b = sort_sizes(pd.concat(frames, ignore_index=True))
        cols = [*SIZE_KEY, *VALUE_COLUMNS, *(c for c in (*BOUND_COLUMNS, "v_real_lower_hands") if c in b.columns)]
        b = b[cols]
        ref = b[(b["class_set"] == "standard") & (b["buckets"] == int(reference))]["v_ind"]
        b["v_ind_vs_ref"] = b["v_ind"] - (float(ref.iloc[0]) if len(ref) else np.nan)
        df = df.merge(b, on=SIZE_KEY, how="left", validate="one_to_one")
        units |= units_for([*VALUE_COLUMNS, "v_ind_vs_ref"], BR_UNIT)
        units |= {c: u for c, u in read_metadata(br[0]).get("units", {}).items() if c.startswith("v_real_lower")}
    meta = {"reference_buckets": int(reference), **({} if margin is None else {"margin": float(margin)})}
    write_parquet(df, out["table"], metadata=table_metadata(provenance, units, **meta))
    timing = sort_sizes(pd.concat([pd.read_csv(t, sep="\t") for t in timings], ignore_index=True))
    timing.to_csv(out["timing"], sep="\t", index=False)
    log.info(
        "abstraction size, CPU: %s; wall clock: %s", growth_of(timing).text(), growth_of(timing, clock="seconds").text()
    )


def abstraction_size_figure(table: str, out: str) -> None:
    """Value and real-card results against the bucket count (deterministic: in the receipt)."""
    figures().fig_abstraction_size(read_parquet(table), stem(out))


def abstraction_size_cost_figure(timing: str, out: str) -> None:
    """Seconds per iteration and memory against private states (wall clock: not in the receipt)."""
    figures().fig_abstraction_size_cost(pd.read_csv(timing, sep="\t"), stem(out))
