"""Rule census: exact counts of every named deck, the order searches and the rule card's claims."""

from poker51.stages import logged, run_census

with logged(snakemake.log[0]):
    run_census(list(snakemake.params.decks), dict(snakemake.output.items()))
