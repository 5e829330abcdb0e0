"""Rule realcard_types_gather: every variant's tables against the player types in one table."""

from poker51.stages import gather_realcard_types, logged, provenance

with logged(snakemake.log[0]):
    gather_realcard_types(
        list(snakemake.input),
        snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
