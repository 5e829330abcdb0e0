"""Rule solver_comparison: one algorithm on one variant, Nash and a frontier table, cold and warm."""

from pathlib import Path

from poker51.stages import game_cache_dir, logged, provenance, run_solver_comparison

with logged(snakemake.log[0]):
    run_solver_comparison(
        snakemake.wildcards.variant,
        snakemake.params.algorithm,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        population=snakemake.input.population,
        solve_cfg={
            "target_exploitability": snakemake.params.target_exploitability,
            "check_first": snakemake.params.check_first,
            "check_growth": snakemake.params.check_growth,
            "warm_clock": snakemake.params.warm_clock,
        },
        iterations=int(snakemake.params.iterations),
        warm_p=float(snakemake.params.warm_p),
        out=dict(snakemake.output.items()),
        threads=snakemake.threads,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        game_cache=game_cache_dir(snakemake.config),  # housekeeping: not a param, changes no output
    )
