"""Rule evidence: Riemann v0.6 against v0.5 on the same real-card deals, per training type
and per hold-out type: the summary and the per-hand nets."""

from pathlib import Path

from poker51.stages import logged, provenance, run_evidence

with logged(snakemake.log[0]):
    run_evidence(
        snakemake.wildcards.variant,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        table=snakemake.input.table,
        population=snakemake.input.population,
        holdout=snakemake.input.holdout[0] if snakemake.input.holdout else None,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        stack=int(snakemake.params.stack),
        out=snakemake.output.summary,
        hands_out=snakemake.output.hands,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
