"""Rule multi_figure: Riemann's abits per hand per opponent type and number of seats."""

from poker51.stages import multi_figure

multi_figure(snakemake.input.sim, snakemake.output[0], log_file=snakemake.log[0])
