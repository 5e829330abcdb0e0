"""Rule realcard_br: V_A, V_ind and the abstract human's G_ind value of one table, and its G_ind best response."""

from pathlib import Path

from poker51.stages import game_cache_dir, logged, provenance, run_realcard_br

with logged(snakemake.log[0]):
    run_realcard_br(
        snakemake.wildcards.variant,
        p=float(snakemake.params.p),
        table_p=float(snakemake.params.table_p),
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        policy=snakemake.input.policy,
        out=dict(snakemake.output.items()),
        riemann=snakemake.input.riemann,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        game_cache=game_cache_dir(snakemake.config),  # housekeeping: not a param, changes no output
    )
