"""Rule multi_figure: Riemann's abits per hand per opponent mix and number of seats."""

from poker51.stages import logged, multi_figure

with logged(snakemake.log[0]):
    multi_figure(snakemake.input.sim, snakemake.output[0])
