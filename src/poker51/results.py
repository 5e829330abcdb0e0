"""A researcher's front door to a finished run: :func:`load_results` reads every table the
pipeline wrote under a results directory into one typed :class:`Results`.

>>> from poker51 import load_results
>>> r = load_results("results/smoke")                      # doctest: +SKIP
>>> r.scores[["variant", "table", "guarantee"]]            # doctest: +SKIP
>>> r.variants["standard"].classes.head()                  # doctest: +SKIP
>>> r.units("scores.parquet")["guarantee"]                 # doctest: +SKIP
"jbits per hand (Riemann's, + = Riemann wins)"

Every frame is the table exactly as written (the columns and dtypes of its writer, listed on
each field below); a missing, truncated or corrupted table raises
:class:`poker51.io.TableError` naming its path.  Tables that a config may leave out
(``census/removal.parquet`` when ``census.removal`` is false, ``verify.json`` before the
verifier ran, the wall-clock ``timing.tsv``) are None when absent.  ``tests/test_results.py``
runs this on the smoke results.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from poker51.export.schema import read_table
from poker51.io import TableError, check_metadata, read_metadata, read_parquet
from poker51.rules import ABSTRACTION_TABLES, VARIANT_NAMES, table_stem


@dataclass(frozen=True)
class VariantResults:
    """The tables of one variant (``{results}/{variant}/...`` and its published table).

    - ``classes``: class, name, base, base_name, marker, house_draw, members, probability
    - ``buckets``: bucket, low, high (strength codes), n_strengths, weight, probability
    - ``transitions``: drawer (human/riemann), class, draw, bucket, count, total, probability
    - ``belief``: draw (0..5), quantile (0..999), strength
    - ``scores``: variant, table (nash/rnr/sweep/v0.5), p, value_low, value_high,
      value_high_recall, game_exploitability, guarantee, vs_population, vs_<type>...,
      iterations, exploitability, br_gain (jbits per hand for Riemann); lbr_win, lbr_win_ci_low,
      lbr_win_ci_high (jbits per hand the local best response wins; rnr and v0.5 rows), lbr_hands
    - ``strategy_summary``: street, spot, state (class or bucket), weight, aggressive, fold
      (NaN where the spot offers no such action)
    - ``evidence``: variant, population (in_sample, holdout), type, policy (v0.6, v0.5,
      v0.6-v0.5), hands, seed, mean, sd, se, ci_low, ci_high (jbits per hand)
    - ``table``: the published strategy table (``poker51.export.schema.TABLE_SCHEMA``), read
      and checked by :func:`poker51.export.schema.read_table`; ``table_metadata`` its metadata
    """

    variant: str
    classes: pd.DataFrame
    buckets: pd.DataFrame
    transitions: pd.DataFrame
    belief: pd.DataFrame
    scores: pd.DataFrame
    strategy_summary: pd.DataFrame
    evidence: pd.DataFrame
    table: pd.DataFrame
    table_metadata: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Results:
    """Every table of one results directory ``root``.

    - ``counts``: deck, category, category_id, count, with_marker, hands, probability
    - ``orders``: deck, n_categories, orders, consistent_strict, consistent_ties, strict_orders,
      ties_orders
    - ``claims``: claim_id, claim, computed, stated, verdict (the rule card's census claims)
    - ``removal``: card, card_id, category, category_id, count, hands, probability,
      count_full52, probability_full52, relative_change (None if not computed)
    - ``scores``, ``evidence``: every variant's tables gathered (see :class:`VariantResults`)
    - ``convergence``: variant, p, iteration, exploitability, guarantee, vs_population
    - ``timing``: iteration, seconds, variant, p (wall clock, not reproducible; None if absent)
    - ``variants``: :class:`VariantResults` per variant found, in the package's variant order
    - ``receipt``: the receipt (config, packages, seeds, SHA-256 of every file)
    - ``verify``: the verifier's report (None if absent)
    - ``abstraction_size``: the abstraction-size study, one row per abstraction (class_set,
      standard or refined; buckets, classes, private_states, value bracket, nash_*/rnr_* iterations, exploitability,
      guarantee, vs_population; pop_*, holdout_* real-card means with 95% CIs in jbits per hand
      for Riemann, lbr_win* what the local best response wins; ``*_vs_ref*``: the paired difference
      from the standard classes' ``reference_buckets`` row on the same deals; v_abstract, v_ind,
      v_real_lower* the p table's best responses when realcard_br is on); None if the study is off
    """

    root: Path
    counts: pd.DataFrame
    orders: pd.DataFrame
    claims: pd.DataFrame
    removal: pd.DataFrame | None
    scores: pd.DataFrame
    convergence: pd.DataFrame
    evidence: pd.DataFrame
    timing: pd.DataFrame | None
    variants: dict[str, VariantResults]
    receipt: dict[str, Any] = field(repr=False)
    verify: dict[str, Any] | None = field(repr=False)
    abstraction_size: pd.DataFrame | None = None

    def metadata(self, table: str | Path) -> dict[str, Any]:
        """The ``poker51.*`` metadata of a table, by its path under :attr:`root`: the producing
        rule, ``config``, ``config_sha256``, ``seeds``, ``units`` (:mod:`poker51.provenance`)."""
        return read_metadata(self.root / table)

    def units(self, table: str | Path) -> dict[str, str]:
        """Column -> unit of a table, by its path under :attr:`root`.  The scores tables' metadata
        calls ``iterations`` "CFR+ iterations" whatever solved them (kept: the receipt holds
        their bytes); here they are the iterations of the algorithm that ran (:attr:`algorithm`)."""
        units: dict[str, str] = dict(self.metadata(table).get("units", {}))
        if units.get("iterations") == _SCORES_ITERATIONS and self.algorithm is not None:
            units["iterations"] = f"{self.algorithm} iterations"
        return units

    @property
    def algorithm(self) -> str | None:
        """The regret minimiser that solved the tables, as printed ("DCFR", "CFR+", "PCFR+"):
        the receipt's ``solve.algorithm``, else the exported tables' ``algorithm``; None if
        neither says."""
        solve = self.receipt.get("config", {}).get("solve", {})
        named = solve.get("algorithm") if isinstance(solve, dict) else None
        named = named or next((v.table_metadata.get("algorithm") for v in self.variants.values()), None)
        return str(named).upper() if named else None


#: the unit the scores stage writes for ``iterations`` (stages.scores), whatever the algorithm
_SCORES_ITERATIONS = "CFR+ iterations"


def _json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise TableError(f"{path}: no such file")
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: not readable JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise TableError(f"{path}: not a JSON object")
    return obj


def _tsv(path: Path) -> pd.DataFrame | None:
    if not path.is_file():
        return None
    try:
        return pd.read_csv(path, sep="\t")
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: not a readable TSV table ({exc})") from None


def _optional(path: Path) -> pd.DataFrame | None:
    return read_parquet(path) if path.exists() else None


def _of_variant(path: Path, variant: str) -> pd.DataFrame:
    """The table at ``path``, refused when its metadata names another variant."""
    frame = read_parquet(path)
    check_metadata(path, {"variant": variant}, f"{path.stem} table")
    return frame


def _variant(root: Path, variant: str) -> VariantResults:
    d = root / variant
    abstraction = {name: _of_variant(d / f"{name}.parquet", variant) for name in ABSTRACTION_TABLES}
    table_file = root / "tables" / f"{table_stem(variant)}.parquet"
    table, meta = read_table(table_file)
    if meta.get("variant") != variant:
        raise TableError(f"{table_file}: the strategy table of variant {meta.get('variant')}, not of {variant}")
    return VariantResults(
        variant=variant,
        **abstraction,
        scores=_of_variant(d / "scores.parquet", variant),
        strategy_summary=_of_variant(d / "strategy_summary.parquet", variant),
        evidence=_of_variant(d / "evidence.parquet", variant),
        table=table,
        table_metadata=meta,
    )


def load_results(path: str | Path = "results") -> Results:
    """Every table of the results directory ``path`` (default ``results``), as a
    :class:`Results`; the variants are those with a ``{variant}/classes.parquet``.

    Raises :class:`poker51.io.TableError` naming the first table that is missing or cannot
    be read."""
    root = Path(path)
    if not root.is_dir():
        raise TableError(f"{root}: no such results directory")
    variants = [v for v in VARIANT_NAMES if (root / v / "classes.parquet").exists()]
    if not variants:
        raise TableError(f"{root}: no variant results ({', '.join(f'{v}/classes.parquet' for v in VARIANT_NAMES)})")
    verify = root / "verify.json"
    return Results(
        root=root,
        counts=read_parquet(root / "census" / "counts.parquet"),
        orders=read_parquet(root / "census" / "orders.parquet"),
        claims=read_parquet(root / "census" / "claims.parquet"),
        removal=_optional(root / "census" / "removal.parquet"),
        scores=read_parquet(root / "scores.parquet"),
        convergence=read_parquet(root / "convergence.parquet"),
        evidence=read_parquet(root / "evidence.parquet"),
        timing=_tsv(root / "timing.tsv"),
        variants={v: _variant(root, v) for v in variants},
        receipt=_json(root / "receipt.json"),
        verify=_json(verify) if verify.is_file() else None,
        abstraction_size=_optional(root / "study" / "abstraction_size.parquet"),
    )
