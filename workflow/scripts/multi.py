"""Rule multi: seeded five-seat tables, Riemann's result per opponent type, conservation audit."""

from poker51.stages import logged, provenance, run_multi

with logged(snakemake.log[0]):
    run_multi(
        snakemake.input.population,
        snakemake.output.sim,
        snakemake.output.audit,
        snakemake.params.multi,
        belief_seed=int(snakemake.params.belief_seed),
        belief_samples=int(snakemake.params.belief_samples),
        threads=int(snakemake.threads),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
