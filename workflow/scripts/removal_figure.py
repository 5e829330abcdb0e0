"""Rule removal_figure: the one-card removal table as a heat map."""

from poker51.figures import fig_removal_heatmap
from poker51.io import read_parquet
from poker51.log import logged

with logged(snakemake.log[0]):
    fig_removal_heatmap(read_parquet(snakemake.input.removal), snakemake.output[0][:-4])
