"""Rule realcard_br_gather: every table's V_A, V_ind and abstract-human value, one row each."""

from poker51.stages import gather_realcard_br, logged, provenance

with logged(snakemake.log[0]):
    gather_realcard_br(
        list(snakemake.input),
        snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
