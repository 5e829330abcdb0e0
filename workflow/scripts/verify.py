"""Rule verify: the tables are intact and Riemann plays exactly them over seeded hands."""

from pathlib import Path

from poker51.stages import logged, run_verify

with logged(snakemake.log[0]):
    run_verify(
        list(snakemake.input.tables),
        snakemake.input.receipt,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        abstraction_root=str(Path(snakemake.input.classes[0]).parent.parent),
        out=snakemake.output[0],
        # the hands were played by verify_hands, one file per variant (its folder names it)
        hands_from={Path(f).parent.name: f for f in snakemake.input.hands},
    )
