"""Rule multi_figure: Riemann's abits per hand per opponent type and number of seats."""

from poker51.io import read_parquet
from poker51.log import logged
from poker51.stages import fig_multi

with logged(snakemake.log[0]):
    fig_multi(read_parquet(snakemake.input.sim), snakemake.output[0][:-4])
