"""Rule rulebook_census: the rule book's games counted and compared with Poker 51."""

from poker51.stages import logged, provenance, run_rulebook_census

with logged(snakemake.log[0]):
    run_rulebook_census(
        snakemake.input.counts,
        snakemake.output.table,
        snakemake.output.claims,
        games=list(snakemake.params.games),
        exact=list(snakemake.params.exact),
        samples=int(snakemake.params.samples),
        seed=int(snakemake.params.seed),
        threads=int(snakemake.threads),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
