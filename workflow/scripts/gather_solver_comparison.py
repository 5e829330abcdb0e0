"""Rule gather_solver_comparison: every variant and algorithm in one table (and one TSV of timings)."""

from poker51.stages import gather_solver_comparison, logged, provenance

with logged(snakemake.log[0]):
    gather_solver_comparison(
        list(snakemake.input.tables),
        list(snakemake.input.timings),
        dict(snakemake.output.items()),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
