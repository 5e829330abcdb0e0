"""Rule multi: seeded five-seat tables, Riemann's result per opponent type, conservation audit."""

from poker51.log import logged
from poker51.stages import run_multi

with logged(snakemake.log[0]):
    run_multi(
        snakemake.input.population,
        snakemake.output.sim,
        snakemake.output.audit,
        belief_seed=int(snakemake.params.belief_seed),
        belief_samples=int(snakemake.params.belief_samples),
        threads=int(snakemake.threads),
        **snakemake.params.multi,
    )
