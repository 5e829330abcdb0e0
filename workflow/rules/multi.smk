# Stage 6: seeded five-seat tables (docs/multi.md): Riemann's result per opponent type and
# number of seats, with a conservation audit of every simulated step.


rule multi:
    input:
        population=config["population"],
    output:
        sim=out("multi/sim.parquet"),
        audit=out("multi/audit.json"),
    params:
        multi=lambda w: MULTI,
        belief_seed=config["abstraction"]["belief_seed"],
        belief_samples=config["abstraction"]["belief_samples"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/multi.log",
    benchmark:
        out("benchmarks/multi.tsv")
    # one thread: the tables ran in parallel on up to four, but the job used 24 CPU s in 41 s wall
    # on two (2026-12-06) while holding both cores; the outputs do not depend on it
    threads: 1
    resources:
        mem_mb=2000,
        runtime=20,
    script:
        "../scripts/multi.py"


rule multi_figure:
    input:
        sim=out("multi/sim.parquet"),
    output:
        figure_report("multi", "7 Five-seat tables"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/multi_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/multi_figure.py"
