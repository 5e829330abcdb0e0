# Shared helpers: config validation and target lists.
import re
from pathlib import Path

from snakemake.utils import validate

from poker51.stages import config_hash


validate(config, schema="../schemas/config.schema.yaml")

RESULTS = config["results"].rstrip("/")
LOGS = f"logs/{Path(RESULTS).name}" if RESULTS != "results" else "logs"


def out(path):
    """A path under the configured results directory."""
    return f"{RESULTS}/{path}"


def figure(stem):
    return [out(f"figures/{stem}.pdf"), out(f"figures/{stem}.png")]


def census_targets():
    targets = [
        out("census/counts.parquet"),
        out("census/orders.parquet"),
        out("census/claims.parquet"),
        out("census/claims.md"),
    ] + figure("census_frequencies")
    if config["census"].get("removal", True):
        targets += [out("census/removal.parquet")] + figure("removal_heatmap")
    return targets


VARIANTS = config["abstraction"]["variants"]
TABLE_P = float(config["solve"]["p"])
SOLVE_PS = sorted({0.0, TABLE_P} | {float(p) for p in config["solve"]["sweep"]})


def plabel(p):
    """Directory label of a table: p0, p0.1, p0.5, p1 (as poker51.study.solve.p_label)."""
    return f"p{float(p):g}"


P_OF = {plabel(p): p for p in SOLVE_PS}
ABSTRACTION_TABLES = ["classes", "buckets", "transitions", "belief"]


wildcard_constraints:
    variant="|".join(VARIANTS),
    plabel="|".join(re.escape(k) for k in P_OF),


def abstraction_files(variant):
    return {name: out(f"{variant}/{name}.parquet") for name in ABSTRACTION_TABLES}


def solve_dir(variant, p):
    return out(f"{variant}/solve_{plabel(p)}")


def solve_iterations(wildcards):
    p = P_OF[wildcards.plabel]
    if p in (0.0, TABLE_P):
        return config["solve"]["iterations"]
    return config["solve"]["sweep_iterations"]


def abstraction_targets():
    return [f for v in VARIANTS for f in abstraction_files(v).values()] + figure("classes_buckets")


def solve_targets():
    return [f"{solve_dir(v, p)}/policy.npy" for v in VARIANTS for p in SOLVE_PS]


def score_targets():
    return (
        [out("scores.parquet"), out("convergence.parquet")]
        + figure("convergence")
        + figure("convergence_time")
        + figure("frontier")
        + [f for v in VARIANTS for f in figure(f"strategy_{v}")]
    )


SEEDS = {
    "belief": config["abstraction"]["belief_seed"],
    "verify": config["verify"]["seed"],
    "evidence": config["evidence"]["seed"],
}


CONFIG_SHA256 = config_hash(config)


def export_targets():
    return (
        [out(f"tables/riemann-v06-{v}.{ext}") for v in VARIANTS for ext in ("parquet", "json")]
        + [out("evidence.parquet"), out("receipt.json"), out("verify.json")]
        + figure("evidence")
    )


def rulebook_targets():
    """Issue 11, the games of the rule-book seed: census table, claims and figure."""
    return [out("rulebook/census.parquet"), out("rulebook/claims.md")] + figure("rulebook_census")


def receipt_inputs():
    """Every reproducible table and figure (not wall-clock timings or their figure)."""
    files = census_targets() + abstraction_targets() + score_targets()
    files += [f"{solve_dir(v, p)}/{name}" for v in VARIANTS for p in SOLVE_PS
              for name in ("policy.npy", "convergence.parquet", "summary.json")]
    files += [out(f"{v}/{name}.parquet") for v in VARIANTS for name in ("scores", "strategy_summary")]
    files += [out(f"tables/riemann-v06-{v}.{ext}") for v in VARIANTS for ext in ("parquet", "json")]
    files += [out("evidence.parquet")] + figure("evidence")
    files += rulebook_targets()
    return [f for f in files if "convergence_time" not in f]


def all_targets():
    return (
        census_targets() + abstraction_targets() + solve_targets() + score_targets() + export_targets()
        + rulebook_targets()
    )
