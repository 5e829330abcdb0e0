# Shared helpers: config validation and target lists.
from pathlib import Path

from snakemake.utils import validate


validate(config, schema="../schemas/config.schema.yaml")

RESULTS = config["results"].rstrip("/")
LOGS = "logs/" + Path(RESULTS).name if RESULTS != "results" else "logs"


def out(path):
    """A path under the configured results directory."""
    return f"{RESULTS}/{path}"


def figure(stem):
    return [out(f"figures/{stem}.pdf"), out(f"figures/{stem}.png")]


def census_targets():
    targets = [
        out("census/counts.parquet"),
        out("census/claims.parquet"),
        out("census/claims.md"),
    ] + figure("census_frequencies")
    if config["census"].get("removal", True):
        targets += [out("census/removal.parquet")] + figure("removal_heatmap")
    return targets


def all_targets():
    return census_targets()
