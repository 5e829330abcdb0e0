"""Rule census_removal: the census of each of the 52 decks of 51 cards."""

from poker51.stages import logged, provenance, run_removal

with logged(snakemake.log[0]):
    run_removal(
        snakemake.output.removal,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
