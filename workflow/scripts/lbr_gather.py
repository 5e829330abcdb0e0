"""Rule lbr_gather: what the local best response wins from each policy, one row each."""

from poker51.stages import gather_lbr, logged, provenance

with logged(snakemake.log[0]):
    gather_lbr(
        list(snakemake.input),
        snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
