"""Rule export: the published strategy table of one variant, Parquet and JSON."""

from pathlib import Path

from poker51.stages import game_cache_dir, logged, provenance, run_export

with logged(snakemake.log[0]):
    run_export(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        policy=snakemake.input.policy,
        summary=snakemake.input.summary,
        out=dict(snakemake.output.items()),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        game_cache=game_cache_dir(snakemake.config),  # housekeeping: not a param, changes no output
    )
