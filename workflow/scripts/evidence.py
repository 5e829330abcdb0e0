"""Rule evidence: v0.6 against v0.5 against each player type, on the same real-card deals."""

from pathlib import Path

from poker51.log import logged
from poker51.stages import run_evidence

with logged(snakemake.log[0]):
    run_evidence(
        snakemake.wildcards.variant,
        results_dir=str(Path(snakemake.input.classes).parent.parent),
        table=snakemake.input.table,
        population=snakemake.input.population,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        stack=int(snakemake.params.stack),
        out=snakemake.output[0],
    )
