"""Rule score_figures: convergence (against iterations and seconds) and the frontier."""

import pandas as pd

from poker51.figures_study import fig_convergence, fig_frontier
from poker51.io import read_parquet
from poker51.log import logged

with logged(snakemake.log[0]):
    conv = read_parquet(snakemake.input.convergence)
    fig_convergence(conv, snakemake.output.convergence[0][:-4])
    timed = conv.merge(pd.read_csv(snakemake.input.timing, sep="\t"), on=["variant", "p", "iteration"])
    fig_convergence(timed, snakemake.output.convergence_time[0][:-4], x="seconds")
    fig_frontier(read_parquet(snakemake.input.scores), snakemake.output.frontier[0][:-4])
