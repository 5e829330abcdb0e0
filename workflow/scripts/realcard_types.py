"""Rule realcard_types: every realcard_br table of one variant (the Nash table and the published one
by default) against every training type and hold-out type on the evidence stage's deals."""

from pathlib import Path

from poker51.stages import game_cache_dir, logged, provenance, run_realcard_types

with logged(snakemake.log[0]):
    run_realcard_types(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        policies=dict(zip(snakemake.params.ps, snakemake.input.policies)),
        table_p=float(snakemake.params.table_p),
        population=snakemake.input.population,
        holdout=snakemake.input.holdout[0] if snakemake.input.holdout else None,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        stack=int(snakemake.params.stack),
        out=snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        game_cache=game_cache_dir(snakemake.config),  # housekeeping: not a param, changes no output
    )
