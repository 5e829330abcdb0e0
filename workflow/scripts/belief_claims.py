"""Rule belief_claims: the rule card's belief-table claims, recomputed, with verdicts."""

from poker51.stages import logged, provenance, run_belief_claims

with logged(snakemake.log[0]):
    run_belief_claims(
        list(snakemake.input),
        snakemake.output.table,
        snakemake.output.md,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
