# Stage 2: the House rule, dealt-hand classes, strength buckets, exact draw
# transitions and the v0.2 belief table, one job per variant.




rule abstraction:
    output:
        **{name: out(f"{{variant}}/{name}.parquet") for name in ABSTRACTION_TABLES},
    params:
        buckets=config["abstraction"]["buckets"],
        belief_seed=config["abstraction"]["belief_seed"],
        belief_samples=config["abstraction"]["belief_samples"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/abstraction_{{variant}}.log",
    benchmark:
        out("benchmarks/abstraction_{variant}.tsv")
    # scheduling only: above every solve (solve_priority), so that each variant's chain of
    # solves can start before any chain runs ahead
    priority: 200
    threads: 1
    resources:
        mem_mb=4000,
        runtime=20,
    script:
        "../scripts/abstraction.py"


rule abstraction_figure:
    input:
        classes=expand(out("{variant}/classes.parquet"), variant=VARIANTS),
        buckets=expand(out("{variant}/buckets.parquet"), variant=VARIANTS),
        transitions=expand(out("{variant}/transitions.parquet"), variant=VARIANTS),
    output:
        figure_report("classes_buckets", "2 Abstraction"),
    params:
        variants=VARIANTS,
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/abstraction_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/abstraction_figure.py"
