"""Rule strategy_figure: heat maps of the published table of one variant."""

from poker51.figures_study import fig_strategy
from poker51.io import read_parquet
from poker51.log import logged

with logged(snakemake.log[0]):
    classes = read_parquet(snakemake.input.classes).sort_values("class")
    fig_strategy(
        read_parquet(snakemake.input.strategy),
        list(classes["name"]),
        len(read_parquet(snakemake.input.buckets)),
        f"Riemann v0.6, {snakemake.wildcards.variant}, restricted Nash response p = {snakemake.params.p:g}",
        snakemake.output[0][:-4],
    )
