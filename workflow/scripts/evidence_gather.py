"""Rule evidence_gather: the evidence of every variant in one table, and its figure."""

from poker51.stages import gather_evidence, logged, provenance

with logged(snakemake.log[0]):
    gather_evidence(
        list(snakemake.input),
        snakemake.output.table,
        snakemake.output.figure[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
