"""After the smoke run: every Parquet output round-trips through pandas and pyarrow,
and every figure is a non-empty PDF and PNG.  Exit 1 naming the first bad file."""

import sys
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from poker51.io import read_parquet

results = Path(yaml.safe_load(Path(sys.argv[1]).read_text())["results"])
tables = sorted(results.rglob("*.parquet"))
figures = sorted((results / "figures").glob("*.p*"))
if not tables or not figures:
    sys.exit(f"check_smoke: no tables or figures under {results}")
for path in tables:
    df, at = read_parquet(path), pq.read_table(path)
    if len(df) != at.num_rows or list(df.columns) != at.column_names or len(df) == 0:
        sys.exit(f"check_smoke: {path} does not round-trip (pandas {df.shape}, pyarrow {at.shape})")
for path in figures:
    head = path.read_bytes()[:8]
    if not (head.startswith(b"%PDF") or head.startswith(b"\x89PNG")):
        sys.exit(f"check_smoke: {path} is not a PDF or PNG")
# the scores obey the theory within each solve's own exploitability (issue 4):
# guarantee <= value of the game <= value against the population for the RNR table,
# and the bracket is ordered
scores = read_parquet(results / "scores.parquet")
for _, row in scores[scores["table"] == "rnr"].iterrows():
    tol = 2 * (row["exploitability"] + row["game_exploitability"])
    if not (row["guarantee"] <= row["value_high"] + tol and row["value_low"] <= row["vs_population"] + tol):
        sys.exit(f"check_smoke: scores of {row['variant']} break guarantee <= value <= vs_population")
if not (scores["value_low"] <= scores["value_high"] + 1e-12).all():
    sys.exit("check_smoke: a value bracket is inverted")
# the abstraction-size study (when on): one row per bucket count, sorted (the standard classes',
# then the refined set's, which has more classes); its brackets ordered,
# the Nash table's guarantee the bracket's low end, the p table's guarantee under the value
# within its exploitability, and every real-card interval holding its mean
study = results / "study" / "abstraction_size.parquet"
if study.exists():
    sizes = read_parquet(study)
    refined = sizes["class_set"] == "refined"
    order = [*sorted(sizes.loc[~refined, "buckets"]), *sorted(sizes.loc[refined, "buckets"])]
    if list(sizes["buckets"]) != order or refined.to_numpy().tolist() != sorted(refined):
        sys.exit(f"check_smoke: {study}: rows not the standard classes' bucket counts, then the refined set's")
    if not (sizes["value_low"] <= sizes["value_high"]).all():
        sys.exit(f"check_smoke: {study}: a value bracket is inverted")
    if refined.any() and not (sizes.loc[refined, "classes"] > sizes.loc[~refined, "classes"].max()).all():
        sys.exit(f"check_smoke: {study}: the refined class set has no more classes than the standard one")
    if not (sizes["nash_guarantee"] == sizes["value_low"]).all():
        sys.exit(f"check_smoke: {study}: a Nash guarantee is not its bracket's low end")
    if not (sizes["rnr_guarantee"] <= sizes["value_high"] + 2 * sizes["rnr_exploitability"]).all():
        sys.exit(f"check_smoke: {study}: a p table guarantees more than the value")
    intervals = [("pop_mean", "pop_ci_low", "pop_ci_high"), ("holdout_mean", "holdout_ci_low", "holdout_ci_high"),
                 ("lbr_win", "lbr_win_ci_low", "lbr_win_ci_high")]  # fmt: skip
    intervals += [(f"{s}_vs_ref", f"{s}_vs_ref_ci_low", f"{s}_vs_ref_ci_high") for s in ("pop", "holdout", "lbr")]
    for mean, lo, hi in intervals:
        held = sizes[mean].isna() | ((sizes[lo] <= sizes[mean]) & (sizes[mean] <= sizes[hi]))
        if not held.all():
            sys.exit(f"check_smoke: {study}: an interval of {mean} does not hold its mean")
print(f"check_smoke: {len(tables)} tables round-trip, {len(figures)} figure files drawn, scores consistent")
