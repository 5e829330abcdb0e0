"""Rule score_figures: convergence against iterations, and the RNR frontier."""

from poker51.stages import logged, score_figures

with logged(snakemake.log[0]):
    score_figures(
        snakemake.input.convergence,
        snakemake.input.scores,
        {k: v[0] for k, v in snakemake.output.items()},
    )
