"""Rule convergence_time_figure: convergence against wall-clock seconds (not in the receipt)."""

from poker51.stages import convergence_time_figure, logged

with logged(snakemake.log[0]):
    convergence_time_figure(snakemake.input.convergence, snakemake.input.timing, snakemake.output[0])
