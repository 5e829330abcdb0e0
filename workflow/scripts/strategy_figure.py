"""Rule strategy_figure: heat maps of the published table of one variant."""

from poker51.stages import logged, strategy_figure

with logged(snakemake.log[0]):
    strategy_figure(
        snakemake.wildcards.variant,
        float(snakemake.params.p),
        snakemake.input.strategy,
        snakemake.input.classes,
        snakemake.input.buckets,
        snakemake.output[0],
    )
