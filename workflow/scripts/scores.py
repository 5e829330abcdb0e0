"""Rule scores: value bracket, guarantees, population values, v0.5, of one variant."""

from pathlib import Path

from poker51.stages import game_cache_dir, logged, provenance, run_scores

with logged(snakemake.log[0]):
    ps = [float(p) for p in snakemake.params.ps]
    run_scores(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        population=snakemake.input.population,
        policies=dict(zip(ps, snakemake.input.policies)),
        summaries=dict(zip(ps, snakemake.input.summaries)),
        table_p=float(snakemake.params.table_p),
        out=snakemake.output.scores,
        strategy_out=snakemake.output.strategy,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        game_cache=game_cache_dir(snakemake.config),  # housekeeping: not a param, changes no output
    )
