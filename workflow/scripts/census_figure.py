"""Rule census_figure: category frequencies per deck."""

from poker51.figures import fig_census_frequencies
from poker51.io import read_parquet
from poker51.log import logged

with logged(snakemake.log[0]):
    fig_census_frequencies(read_parquet(snakemake.input.counts), snakemake.output[0][:-4])
