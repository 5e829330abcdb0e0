"""Rule evidence_gather: every variant's evidence in one table and one figure."""

from poker51.io import read_parquet
from poker51.log import logged
from poker51.play.evidence import fig_evidence
from poker51.stages import gather

with logged(snakemake.log[0]):
    gather(list(snakemake.input), snakemake.output.table, sort=["variant", "type", "policy"])
    fig_evidence(read_parquet(snakemake.output.table), snakemake.output.figure[0][:-4])
