"""Rule receipt: config, package versions, seeds and the SHA-256 of every table and figure."""

from poker51.stages import logged, run_receipt

with logged(snakemake.log[0]):
    run_receipt(snakemake.output[0], list(snakemake.input), snakemake.params.config, snakemake.params.seeds)
