"""Rule headline_tables: the scores, the evidence and the census claims as HTML pages for the report."""

from poker51.stages import headline_tables, logged

with logged(snakemake.log[0]):
    headline_tables(
        snakemake.input.scores, snakemake.input.evidence, snakemake.input.claims, dict(snakemake.output.items())
    )
