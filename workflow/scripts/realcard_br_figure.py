"""Rule realcard_br_figure: the decomposition V_A, V_ind per variant along the frontier."""

from poker51.stages import logged, realcard_br_figure

with logged(snakemake.log[0]):
    realcard_br_figure(snakemake.input.table, snakemake.output[0])
