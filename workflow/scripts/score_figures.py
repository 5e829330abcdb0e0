"""Rule score_figures: convergence and the restricted Nash response frontier."""
from poker51.figures_study import fig_convergence, fig_frontier
from poker51.io import read_parquet
from poker51.runlog import logged

with logged(snakemake.log[0]):
    fig_convergence(read_parquet(snakemake.input.convergence), snakemake.output.convergence[0][:-4])
    fig_frontier(read_parquet(snakemake.input.scores), snakemake.output.frontier[0][:-4])
