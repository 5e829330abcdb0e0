"""Rule abstraction_size_figure: value and real-card results against the bucket count."""

from poker51.stages import abstraction_size_figure, logged

with logged(snakemake.log[0]):
    abstraction_size_figure(snakemake.input.table, snakemake.output[0])
