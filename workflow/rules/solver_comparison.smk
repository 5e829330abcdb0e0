# Stage 3b: which algorithm solves fastest (config solver_comparison; on by default).  Per
# variant and algorithm, the Nash table and a frontier table from scratch and warm-started,
# to the solve target; the measurement table (iterations, exploitabilities) is in the
# receipt, the wall-clock timings and the figure drawn from them are not.


rule solver_comparison:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        population=config["population"],
    output:
        table=out("solver/{variant}_{algo}.parquet"),
        timing=out("solver/{variant}_{algo}.tsv"),
    params:
        algorithm=lambda w: ALGO_OF[w.algo],
        target_exploitability=config["solve"].get("target_exploitability"),
        check_first=config["solve"]["check_first"],
        check_growth=config["solve"]["check_growth"],
        warm_clock=config["solve"]["warm_clock"],
        iterations=config.get("solver_comparison", {}).get("iterations", 3000),
        warm_p=config.get("solver_comparison", {}).get("warm_p", 0.1),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/solver_comparison_{{variant}}_{{algo}}.log",
    benchmark:
        out("benchmarks/solver_comparison_{variant}_{algo}.tsv")
    # scheduling only: long jobs (90-150 s) started before the short ones, not last
    priority: 40
    threads: config["solve"].get("threads", 1)
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/solver_comparison.py"


rule gather_solver_comparison:
    input:
        tables=[out(f"solver/{v}_{a}.parquet") for v in COMPARISON_VARIANTS for a in ALGO_OF],
        timings=[out(f"solver/{v}_{a}.tsv") for v in COMPARISON_VARIANTS for a in ALGO_OF],
    output:
        table=out("solver_comparison.parquet"),
        timing=out("solver_comparison_timing.tsv"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/gather_solver_comparison.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/gather_solver_comparison.py"


rule solver_comparison_figure:
    input:
        table=out("solver_comparison.parquet"),
        timing=out("solver_comparison_timing.tsv"),
    output:
        figure_report("solver_comparison", "3 Solves"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/solver_comparison_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/solver_comparison_figure.py"
