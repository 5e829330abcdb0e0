# The rule book's games (issue 11): every game's census next to Poker 51's 51-card deck.


rule rulebook_census:
    input:
        counts=rules.census.output.counts,
    output:
        table=out("rulebook/census.parquet"),
        claims=out("rulebook/claims.md"),
        pdf=out("figures/rulebook_census.pdf"),
        png=out("figures/rulebook_census.png"),
    params:
        games=config["rulebook"]["games"],
        exact=config["rulebook"]["exact"],
        samples=config["rulebook"]["samples"],
        seed=config["rulebook"]["seed"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/rulebook_census.log",
    benchmark:
        out("benchmarks/rulebook_census.tsv")
    threads: 2
    resources:
        mem_mb=2000,
        runtime=60,
    script:
        "../scripts/rulebook_census.py"
