"""Rule solve: one restricted Nash response (p = 0: the Nash table) of one variant."""

from pathlib import Path

from poker51.stages import logged, run_solve

with logged(snakemake.log[0]):
    run_solve(
        snakemake.wildcards.variant,
        float(snakemake.params.p),
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        population=snakemake.input.population,
        out={**dict(snakemake.output.items()), "checkpoint": snakemake.params.checkpoint},
        solve_cfg=snakemake.params.solve,
        iterations=int(snakemake.params.iterations),
        warm_start=next(iter(snakemake.input.warm), None),
        threads=snakemake.threads,
    )
