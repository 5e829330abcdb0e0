"""Rule evidence: Riemann v0.6 against v0.5 on the same real-card deals, per player type."""

from pathlib import Path

from poker51.stages import logged, provenance, run_evidence

with logged(snakemake.log[0]):
    run_evidence(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        table=snakemake.input.table,
        population=snakemake.input.population,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        stack=int(snakemake.params.stack),
        out=snakemake.output[0],
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
