"""Rule multi: seeded five-seat tables, Riemann's result per opponent type, conservation audit
(logged to the rule's log by the stage function)."""

from poker51.stages import run_multi

run_multi(
    snakemake.input.population,
    snakemake.output.sim,
    snakemake.output.audit,
    belief_seed=int(snakemake.params.belief_seed),
    belief_samples=int(snakemake.params.belief_samples),
    threads=int(snakemake.threads),
    log_file=snakemake.log[0],
    **snakemake.params.multi,
)
