"""Rule abstraction_figure: class probabilities and bucket ranges of every variant."""

from poker51.stages import abstraction_figure, logged

with logged(snakemake.log[0]):
    abstraction_figure(
        snakemake.params.variants,
        list(snakemake.input.classes),
        list(snakemake.input.buckets),
        list(snakemake.input.transitions),
        snakemake.output[0],
    )
