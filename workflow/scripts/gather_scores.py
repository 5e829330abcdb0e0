"""Rule gather_scores: scores and convergence of every variant in one table each, and the
solves' wall-clock timings (not reproducible, not in the receipt) in a TSV."""

from poker51.stages import gather_scores, logged, provenance

with logged(snakemake.log[0]):
    gather_scores(
        list(snakemake.input.scores),
        list(snakemake.input.convergence),
        list(snakemake.input.timing),
        list(snakemake.params.solves),
        dict(snakemake.output.items()),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
