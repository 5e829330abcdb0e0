"""Rule realcard_bounds: the plays of one table (poker51.realcard.bounds)."""

from pathlib import Path

from poker51.stages import logged, provenance, run_realcard_bounds

with logged(snakemake.log[0]):
    run_realcard_bounds(
        snakemake.wildcards.variant,
        float(snakemake.params.p),
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        policy=snakemake.input.policy,
        br={
            k: snakemake.input[k]
            for k in ("table", "hands", "post", "human_hands", "human_post", "given_hands")
            if k in snakemake.input.keys()
        },
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        strategies=list(snakemake.params.strategies),
        out=snakemake.output[0],
        threads=snakemake.threads,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
