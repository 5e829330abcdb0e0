"""Rule solver_comparison_figure: exploitability against iterations, seconds to target."""

from poker51.stages import logged, solver_comparison_figure

with logged(snakemake.log[0]):
    solver_comparison_figure(snakemake.input.table, snakemake.input.timing, snakemake.output[0])
