# Stage 7: the rule book's games (issue 11, docs/rulebook.md): every game's census next to
# Poker 51's 51-card deck, what each does to "rarer is higher", and the figure.


rule rulebook_census:
    input:
        counts=rules.census.output.counts,
    output:
        table=out("rulebook/census.parquet"),
        claims=table_report(out("rulebook/claims.md"), "rulebook_claims_md", "8 Rule book"),
    params:
        games=lambda w: RULEBOOK["games"],
        exact=lambda w: RULEBOOK["exact"],
        samples=lambda w: RULEBOOK["samples"],
        seed=lambda w: RULEBOOK["seed"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/rulebook_census.log",
    benchmark:
        out("benchmarks/rulebook_census.tsv")
    # one thread, early: with two it waited for both cores to be free at once and ran last, alone
    # (111-122 s wall, 198 CPU s, in make run on 2026-12-06); the counts do not depend on the threads
    priority: 45
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    script:
        "../scripts/rulebook_census.py"


rule rulebook_figure:
    input:
        table=rules.rulebook_census.output.table,
    output:
        figure_report("rulebook_census", "8 Rule book"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/rulebook_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/rulebook_figure.py"
