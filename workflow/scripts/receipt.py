"""Rule receipt: config, package versions, seeds and the SHA-256 of every table and figure."""

from poker51.export.tables import write_receipt
from poker51.log import logged

with logged(snakemake.log[0]):
    write_receipt(
        snakemake.output[0], list(snakemake.input), dict(snakemake.params.config), dict(snakemake.params.seeds)
    )
