"""Rule census: exact counts of every named deck, the order searches and the rule card's claims."""

from poker51.stages import logged, provenance, run_census

with logged(snakemake.log[0]):
    run_census(
        list(snakemake.params.decks),
        dict(snakemake.output.items()),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
