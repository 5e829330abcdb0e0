"""Rule belief_spots: v0.5's after-draw decisions in one variant, with its own and the standard belief table."""

from pathlib import Path

from poker51.stages import logged, provenance, run_belief_spots

with logged(snakemake.log[0]):
    run_belief_spots(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        standard_dir=str(Path(snakemake.input.standard).parent),
        population=snakemake.input.population,
        spots=int(snakemake.params.spots),
        seed=int(snakemake.params.seed),
        out=snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
