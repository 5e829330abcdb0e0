"""Rule abstraction: classes, buckets, transitions and belief table of one variant."""

from poker51.stages import logged, provenance, run_abstraction

with logged(snakemake.log[0]):
    run_abstraction(
        snakemake.wildcards.variant,
        dict(snakemake.output.items()),
        n_buckets=snakemake.params.buckets,
        belief_seed=snakemake.params.belief_seed,
        belief_samples=snakemake.params.belief_samples,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
