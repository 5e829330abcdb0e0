"""Rule census_removal: the 52 one-card-removed decks against the full deck."""

from poker51.census.count import removal_table
from poker51.io import write_parquet
from poker51.log import logged

with logged(snakemake.log[0]):
    write_parquet(removal_table(), snakemake.output.removal)
