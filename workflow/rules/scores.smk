# Stage 4: the value of each game, every table's guarantee, its value against the
# population and each type, the v0.5 policy; convergence, frontier and strategy figures.




rule scores:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        population=config["population"],
        policies=lambda w: [f"{solve_dir(w.variant, p)}/policy.npy" for p in SOLVE_PS],
        summaries=lambda w: [f"{solve_dir(w.variant, p)}/summary.json" for p in SOLVE_PS],
    output:
        scores=out("{variant}/scores.parquet"),
        strategy=out("{variant}/strategy_summary.parquet"),
    params:
        ps=SOLVE_PS,
        table_p=TABLE_P,
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/scores_{{variant}}.log",
    benchmark:
        out("benchmarks/scores_{variant}.tsv")
    # scheduling only: as soon as its variant's last solve is done (units of solve_priority,
    # 10 per solve still ahead: about four solves' time follows it to the run's end)
    priority: 40
    threads: 1
    resources:
        mem_mb=3000,
        runtime=20,
    script:
        "../scripts/scores.py"


rule gather_scores:
    input:
        scores=expand(out("{variant}/scores.parquet"), variant=VARIANTS),
        convergence=[f"{solve_dir(v, p)}/convergence.parquet" for v in VARIANTS for p in SOLVE_PS],
        timing=[f"{solve_dir(v, p)}/timing.tsv" for v in VARIANTS for p in SOLVE_PS],
        lbr=[out("lbr.parquet")] if LBR_ON else [],
        realcard_br=[out("realcard_br.parquet")] if BR_PS else [],
        realcard_bounds=[out("realcard_bounds.parquet")] if BOUNDS_ON else [],
    output:
        scores=out("scores.parquet"),
        convergence=out("convergence.parquet"),
        timing=out("timing.tsv"),
    params:
        solves=[(v, p) for v in VARIANTS for p in SOLVE_PS],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/gather_scores.log",
    priority: 30  # scheduling only: see score_figures
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/gather_scores.py"


rule score_figures:
    input:
        scores=rules.gather_scores.output.scores,
        convergence=rules.gather_scores.output.convergence,
    output:
        convergence=figure_report("convergence", "3 Solves"),
        frontier=figure_report("frontier", "3 Solves"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/score_figures.log",
    # scheduling only: the run's last chain is scores -> gather_scores -> these figures ->
    # receipt -> verify; ranked above the figures that wait for nothing (priority 0)
    priority: 30
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/score_figures.py"


# wall clock: not in the receipt, so a job of its own that the receipt does not wait for
rule convergence_time_figure:
    input:
        convergence=rules.gather_scores.output.convergence,
        timing=rules.gather_scores.output.timing,
    output:
        figure_report("convergence_time", "3 Solves"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/convergence_time_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/convergence_time_figure.py"


rule strategy_figure:
    input:
        strategy=out("{variant}/strategy_summary.parquet"),
        classes=out("{variant}/classes.parquet"),
        buckets=out("{variant}/buckets.parquet"),
    output:
        figure_report("strategy_{variant}", "4 Strategy", subcategory="{variant}", caption="strategy"),
    params:
        p=TABLE_P,
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/strategy_figure_{{variant}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/strategy_figure.py"
