"""Rule removal_figure: the relative change of each category when one card is removed."""

from poker51.stages import logged, removal_figure

with logged(snakemake.log[0]):
    removal_figure(snakemake.input.removal, snakemake.output[0])
