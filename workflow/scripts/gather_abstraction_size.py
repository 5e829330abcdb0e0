"""Rule gather_abstraction_size: every bucket count in one table (and one TSV of timings)."""

from poker51.stages import gather_abstraction_size, logged, provenance

with logged(snakemake.log[0]):
    gather_abstraction_size(
        list(snakemake.input.tables),
        list(snakemake.input.timings),
        list(snakemake.input.hands),
        int(snakemake.params.reference),
        dict(snakemake.output.items()),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        br=list(snakemake.input.br),
        margin=snakemake.params.margin,
    )
