"""The exact best response on real cards with independent hands (``workflow/rules/realcard_br.smk``):
per variant and table V_A, V_ind and the abstract human's G_ind value
(:mod:`poker51.realcard.decomposition`), the best response as two tables, then every table's
values in one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionTables
from poker51.export.tables import strategy_table
from poker51.games.cache import cached_game
from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.provenance import PROBABILITY, STRENGTH, table_metadata, units_for
from poker51.realcard.bounds import human_frames
from poker51.realcard.decomposition import BR_UNIT, VALUE_COLUMNS, decompose, joint_frame, joint_of_frame
from poker51.realcard.gind import BR_COLUMNS, riemann_joint, strategy_frames, table_arrays, v_ind_given, variant_deck
from poker51.stages.common import Provenance

log = logging.getLogger("poker51.stages")

#: the units of the per-table row (every value column is the best responder's jbits)
ROW_UNITS = {
    "p": PROBABILITY,
    "dealt_hands": "five-card hands (exact count)",
    "classes": "classes",
    "buckets": "buckets",
    **units_for([*VALUE_COLUMNS, "ind_gap", "human_gap"], BR_UNIT),
}
_ANSWER_UNITS = {
    "xb2": "answer to Riemann's bet after the check (f fold, c call, r raise)",
    **{c: f"answer to Riemann's raise of the bet b{c[4:]} (f, c, r)" for c in BR_COLUMNS},
}
_HAND_UNITS = {
    **{f"c{i}": "card int 4 * rank + suit (poker51.cards)" for i in range(5)},
    "keep": "position mask of the sorted hand's kept cards (bit i: card c{i})",
    "draw": "cards drawn",
    "opening": "first pre-draw action after the draw count (x check, bN bet N jbits)",
    "value": f"{BR_UNIT}; this dealt hand's value (the column's mean is V_ind)",
    **_ANSWER_UNITS,
}
_POST_UNITS = {
    "h_draw": "the human's draw count as Riemann reads it (5 as 4)",
    "r_draw": "Riemann's draw count",
    "pre_line": "completed pre-draw line",
    "strength": STRENGTH,
    "opening": "the human's best post-draw opening at this final strength",
    **_ANSWER_UNITS,
}
_HUMAN_HAND_UNITS = {k: v for k, v in _HAND_UNITS.items() if k != "value"}
_GIVEN_HAND_UNITS = {
    **_HAND_UNITS,
    "keep": "the given strategy's keep (position mask of the sorted hand's kept cards, bit i: card c{i})",
    "opening": "the given strategy's first pre-draw action after the draw count (x check, bN bet N jbits)",
    "value": f"{BR_UNIT}; this dealt hand's value with Riemann's class prior given the hand and the G_ind "
    "post-draw play (no game's value: the column's mean is not V_ind)",
}
_HUMAN_POST_UNITS = {
    **{k: v for k, v in _POST_UNITS.items() if k != "strength"},
    "h_draw": "the human's exact draw count",
    "bucket": "the bucket of the human's final hand",
    "opening": "the abstract human's post-draw opening in this bucket",
}


def table_name(p: float, table_p: float) -> str:
    """The table's name in ``scores.parquet``: ``nash`` (p = 0), ``rnr`` (the published p), ``sweep``."""
    return "nash" if p == 0 else ("rnr" if p == table_p else "sweep")


def run_realcard_riemann(variant: str, abstraction_dir: str, out: str, provenance: Provenance = None) -> None:
    """Riemann's exact (class, final strength) distribution in one variant (its House draw from
    a uniformly dealt hand; :func:`poker51.realcard.gind.riemann_joint`), once for every table."""
    start = time.perf_counter()
    gd = variant_deck(AbstractionTables.load(abstraction_dir, variant))
    df = joint_frame(gd, riemann_joint(gd))
    units = {"class": "Riemann's dealt-hand class", "strength": STRENGTH,
             "probability": "P(class and final strength) for a uniformly dealt hand"}  # fmt: skip
    write_parquet(df, out, metadata=table_metadata(provenance, units, variant=variant))
    log.info("realcard_riemann %s: %d classes x %d strengths, %.1f s", variant, gd.n_classes, gd.values.size,
             time.perf_counter() - start)  # fmt: skip


def run_realcard_br(
    variant: str,
    p: float,
    table_p: float,
    abstraction_dir: str,
    policy: str,
    out: Mapping[str, str],
    riemann: str | None = None,
    provenance: Provenance = None,
    game_cache: str | None = None,
) -> None:
    """One table of one variant (``riemann``: the variant's :func:`run_realcard_riemann` table,
    computed here when None): its decomposition (``out["table"]``, one row; raises when the
    abstract human's G_ind value exceeds V_ind), and its G_ind best response per dealt hand
    (``out["hands"]``: keep, draw, opening and the hand's value) and per public post-draw node and
    final strength (``out["post"]``: H's best opening and answers after the draw), and the abstract
    best-response human as the table that plays it (``out["human_hands"]``, ``out["human_post"]``:
    :func:`poker51.realcard.bounds.human_frames`); the bounds by play read these four tables.
    With ``out["given_hands"]`` (the rule asks for it when ``realcard_bounds.strategies`` names
    ``given``) also the strategy ``given``'s choices per dealt hand
    (:func:`poker51.realcard.gind.v_ind_given`; its post-draw play is ``out["post"]``'s), the
    same columns as ``out["hands"]``; without it nothing else changes."""
    start = time.perf_counter()
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
    game = cached_game(ab, game_cache)
    pol = np.load(policy)
    gd = variant_deck(tables)
    ta = table_arrays(strategy_table(game, pol, ab, variant), gd.n_classes, gd.n_buckets)
    joint = joint_of_frame(read_parquet(riemann), gd) if riemann else None
    loaded = time.perf_counter()
    dec, result, human = decompose(gd, ta, game, pol, joint)
    done = time.perf_counter()
    name = table_name(float(p), float(table_p))
    row = pd.DataFrame([{"variant": variant, "table": name, "p": float(p), **dec.columns()}])
    meta = {"variant": variant, "table": name, "p": float(p)}
    write_parquet(row, out["table"], metadata=table_metadata(provenance, ROW_UNITS, **meta))
    hands, post = strategy_frames(gd, result)
    write_parquet(hands, out["hands"], metadata=table_metadata(provenance, _HAND_UNITS, **meta))
    # without ``cv`` (H's counterfactual values: three quarters of the file's bytes, and no part of the strategy)
    post = post.drop(columns="cv")
    write_parquet(post, out["post"], metadata=table_metadata(provenance, _POST_UNITS, **meta))
    # the abstract human as the table the bounds by play read (realcard_bounds: no strategy rebuilt there)
    assert human is not None
    h_hands, h_post = human_frames(gd, human)
    write_parquet(h_hands, out["human_hands"], metadata=table_metadata(provenance, _HUMAN_HAND_UNITS, **meta))
    write_parquet(h_post, out["human_post"], metadata=table_metadata(provenance, _HUMAN_POST_UNITS, **meta))
    given_s = ""
    if out.get("given_hands"):
        t = time.perf_counter()
        rg = v_ind_given(gd, ta, riemann_joint(gd) if joint is None else joint, None, result)
        g_hands, _ = strategy_frames(gd, rg)
        write_parquet(g_hands, out["given_hands"], metadata=table_metadata(provenance, _GIVEN_HAND_UNITS, **meta))
        changed = float(np.mean((rg.keep != result.keep) | (rg.opening != result.opening)))
        parts = ", ".join(f"{k} {v:.1f} s" for k, v in rg.seconds.items())
        given_s = (
            f"; given {time.perf_counter() - t:.1f} s ({parts}), keep or opening changed in {changed:.2%} of hands"
        )
    log.info(
        "realcard_br %s p=%g: V_A %+.6f, V_ind %+.6f (gap %+.6f), abstract human in G_ind %+.6f jbits/hand for the "
        "best responder; %.1f s load, %.1f s values (%s), %.1f s writing%s",
        variant, p, dec.v_abstract, dec.v_ind, dec.ind_gap, dec.v_ind_abstract_human, loaded - start, done - loaded,
        ", ".join(f"{k} {v:.1f} s" for k, v in result.seconds.items()), time.perf_counter() - done, given_s,
    )  # fmt: skip


def gather_realcard_br(inputs: Sequence[str], out: str, provenance: Provenance = None) -> None:
    """Every table's row in one table, sorted by variant and p."""
    df = pd.concat([read_parquet(path) for path in inputs], ignore_index=True)
    df = df.sort_values(["variant", "p"], kind="stable").reset_index(drop=True)
    units = read_metadata(inputs[0]).get("units", ROW_UNITS) if inputs else ROW_UNITS
    write_parquet(df, out, metadata=table_metadata(provenance, units))


def realcard_br_figure(table: str, out: str) -> None:
    """The decomposition per variant along the frontier (deterministic: in the receipt)."""
    from poker51.stages.common import figures, stem

    figures().fig_realcard_br(read_parquet(table), stem(out))


__all__ = ["ROW_UNITS", "gather_realcard_br", "realcard_br_figure", "run_realcard_br", "run_realcard_riemann",
           "table_name"]  # fmt: skip
