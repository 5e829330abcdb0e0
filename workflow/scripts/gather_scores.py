"""Rule gather_scores: every variant's scores and convergence logs in two tables."""
from poker51.pipeline import gather
from poker51.runlog import logged

with logged(snakemake.log[0]):
    gather(list(snakemake.input.scores), snakemake.output.scores, sort=["variant", "table", "p"])
    gather(list(snakemake.input.convergence), snakemake.output.convergence, sort=["variant", "p", "iteration"])
