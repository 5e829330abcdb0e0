"""Rule abstraction_size_cost_figure: seconds per iteration and memory against private states."""

from poker51.stages import abstraction_size_cost_figure, logged

with logged(snakemake.log[0]):
    abstraction_size_cost_figure(snakemake.input.timing, snakemake.output[0])
