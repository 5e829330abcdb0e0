"""Rule realcard_riemann: Riemann's exact (class, final strength) distribution in one variant."""

from pathlib import Path

from poker51.stages import logged, provenance, run_realcard_riemann

with logged(snakemake.log[0]):
    run_realcard_riemann(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        out=snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
