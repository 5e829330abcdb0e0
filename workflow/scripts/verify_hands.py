"""Rule verify_hands: one variant's hands for the verifier, played on its exported table."""

from pathlib import Path

from poker51.stages import logged, run_verify_hands

with logged(snakemake.log[0]):
    run_verify_hands(
        snakemake.input.table,
        snakemake.wildcards.variant,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        abstraction_root=str(Path(snakemake.input.classes).parent.parent),
        out=snakemake.output[0],
    )
