# Stage 1: the exact census of every configured deck and the rule card's census claims.




rule census:
    output:
        counts=out("census/counts.parquet"),
        orders=out("census/orders.parquet"),
        claims=out("census/claims.parquet"),
        claims_md=table_report(out("census/claims.md"), "claims_md", "1 Census"),
    params:
        decks=config["census"]["decks"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/census.log",
    benchmark:
        out("benchmarks/census.tsv")
    # scheduling only: a two-second job that the claims, figures and receipt at the end of the
    # run wait for, so it runs in the first seconds rather than last (below the abstractions)
    priority: 150
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/census.py"


rule census_removal:
    output:
        removal=out("census/removal.parquet"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/census_removal.log",
    benchmark:
        out("benchmarks/census_removal.tsv")
    priority: 150  # as census
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/census_removal.py"


rule census_figure:
    input:
        counts=rules.census.output.counts,
    output:
        figure_report("census_frequencies", "1 Census"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/census_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/census_figure.py"


rule removal_figure:
    input:
        removal=rules.census_removal.output.removal,
    output:
        figure_report("removal_heatmap", "1 Census"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/removal_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/removal_figure.py"
