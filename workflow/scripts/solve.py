"""Rule solve: one restricted Nash response (p = 0: the Nash table) of one variant."""

from pathlib import Path

from poker51.stages import game_cache_dir, logged, provenance, run_solve

with logged(snakemake.log[0]):
    run_solve(
        snakemake.wildcards.variant,
        float(snakemake.params.p),
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        population=snakemake.input.population,
        out={**dict(snakemake.output.items()), "checkpoint": snakemake.params.checkpoint},
        solve_cfg={
            "algorithm": snakemake.params.algorithm,
            "target_exploitability": snakemake.params.target_exploitability,
            "check_first": snakemake.params.check_first,
            "check_growth": snakemake.params.check_growth,
            "warm_clock": snakemake.params.warm_clock,
            # housekeeping, not params: changing them must not rerun a finished solve
            "checkpoint_every": snakemake.config["solve"]["checkpoint_every"],
            "keep_checkpoints": snakemake.config["solve"].get("keep_checkpoints", False),
        },
        iterations=int(snakemake.params.iterations),
        warm_start=list(snakemake.input.warm),  # the neighbour's regret_mass.npy and policy.npy, or none
        threads=snakemake.threads,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        game_cache=game_cache_dir(snakemake.config),  # housekeeping: not a param, changes no output
    )
