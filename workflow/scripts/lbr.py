"""Rule lbr: the local best response against one policy (v0.6 or v0.5) of one variant."""

from pathlib import Path

from poker51.stages import logged, provenance, run_lbr

with logged(snakemake.log[0]):
    run_lbr(
        snakemake.wildcards.variant,
        snakemake.wildcards.policy,
        abstraction_dir=str(Path(snakemake.input.classes).parent),
        table=snakemake.input.table,
        hands=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        particles=int(snakemake.params.particles),
        max_tries=int(snakemake.params.max_tries),
        out=snakemake.output[0],
        threads=snakemake.threads,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
