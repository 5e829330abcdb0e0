"""Rule rulebook_figure: each category's probability in each rule book game and in Poker 51."""

from poker51.stages import logged, rulebook_figure

with logged(snakemake.log[0]):
    rulebook_figure(snakemake.input.table, snakemake.output[0])
