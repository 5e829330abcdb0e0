"""Rule census_figure: category frequencies per deck."""

from poker51.stages import census_figure, logged

with logged(snakemake.log[0]):
    census_figure(snakemake.input.counts, snakemake.output[0])
