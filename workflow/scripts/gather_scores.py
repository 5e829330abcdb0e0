"""Rule gather_scores: every variant's scores and convergence logs in two tables;
the solves' wall-clock timings (not reproducible, not in the receipt) in a TSV."""

import pandas as pd

from poker51.log import logged
from poker51.stages import gather

with logged(snakemake.log[0]):
    gather(list(snakemake.input.scores), snakemake.output.scores, sort=["variant", "table", "p"])
    gather(list(snakemake.input.convergence), snakemake.output.convergence, sort=["variant", "p", "iteration"])
    timing = [
        pd.read_csv(path, sep="\t").assign(variant=v, p=float(p))
        for (v, p), path in zip(snakemake.params.solves, snakemake.input.timing)
    ]
    pd.concat(timing, ignore_index=True).to_csv(snakemake.output.timing, sep="\t", index=False)
