# Stage 3c: the abstraction-size study (issue 12, section 2; config abstraction_study, on by
# default).  Per bucket count, one job builds the standard variant's abstraction, solves its
# Nash and p tables, plays the p table on real cards and computes its exact best response in G_ind
# (V_ind, when realcard_br is on; Riemann's strength table from the standard variant's
# realcard_riemann job when standard is solved); the gathered table and its figure
# are in the receipt, the wall-clock seconds and memory (timing TSV, cost figure) are not.  With
# realcard_br on, each job also plays the G_ind best response on real cards against its p table
# (the lower bound by play, abstraction_study.bound_hands deals).  abstraction_size_refined is the
# same job on the refined class set (abstraction_study.refined: its bucket counts).


rule abstraction_size:
    input:
        population=config["population"],
        holdout=[config["holdout"]] if config.get("holdout") else [],
        riemann=[out("standard/realcard_br/riemann.parquet")] if STUDY_BR and "standard" in VARIANTS else [],
    output:
        table=out("study/abstraction_size/b{buckets}.parquet"),
        hands=out("study/abstraction_size/b{buckets}_hands.parquet"),
        timing=out("study/abstraction_size/b{buckets}.tsv"),
        **({"br": out("study/abstraction_size/b{buckets}_br.parquet")} if STUDY_BR else {}),
    wildcard_constraints:
        buckets="[0-9]+",
    params:
        belief_seed=config["abstraction"]["belief_seed"],
        belief_samples=config["abstraction"]["belief_samples"],
        algorithm=config["solve"]["algorithm"],
        target_exploitability=config["solve"].get("target_exploitability"),
        check_first=config["solve"]["check_first"],
        check_growth=config["solve"]["check_growth"],
        warm_clock=config["solve"]["warm_clock"],
        p=config["solve"]["p"],
        iterations=STUDY.get("iterations", 3000),
        evidence_hands=STUDY.get("evidence_hands", 4000),
        evidence_seed=STUDY.get("evidence_seed", config["evidence"]["seed"]),
        stack=config["evidence"]["stack"],
        lbr_hands=STUDY.get("lbr_hands", 10000),
        lbr_seed=STUDY.get("lbr_seed", config["lbr"]["seed"]),
        particles=config["lbr"]["particles"],
        max_tries=config["lbr"]["max_tries"],
        bound_hands=STUDY.get("bound_hands", 2000000),
        bound_seed=STUDY.get("bound_seed", config.get("realcard_bounds", {}).get("seed", 51026)),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/abstraction_size_b{{buckets}}.log",
    benchmark:
        out("benchmarks/abstraction_size_b{buckets}.tsv")
    # scheduling only: the longest job first (160 buckets: about 200 s), so that it does not run
    # alone at the end of the run (units of solve_priority; the outputs do not depend on it)
    priority: lambda wildcards: 5 + int(wildcards.buckets) // 4
    threads: config["solve"].get("threads", 1)
    resources:
        mem_mb=4000,
        runtime=120,
    script:
        "../scripts/abstraction_size.py"


use rule abstraction_size as abstraction_size_refined with:
    input:
        # Riemann's strength table is per class: the refined set's is computed in the job (~13 s)
        population=config["population"],
        holdout=[config["holdout"]] if config.get("holdout") else [],
        riemann=[],
    output:
        table=out("study/abstraction_size/refined_b{buckets}.parquet"),
        hands=out("study/abstraction_size/refined_b{buckets}_hands.parquet"),
        timing=out("study/abstraction_size/refined_b{buckets}.tsv"),
        **({"br": out("study/abstraction_size/refined_b{buckets}_br.parquet")} if STUDY_BR else {}),
    log:
        f"{LOGS}/abstraction_size_refined_b{{buckets}}.log",
    benchmark:
        out("benchmarks/abstraction_size_refined_b{buckets}.tsv")


rule gather_abstraction_size:
    input:
        tables=[out(f"study/abstraction_size/{s}.parquet") for s in STUDY_SIZES],
        timings=[out(f"study/abstraction_size/{s}.tsv") for s in STUDY_SIZES],
        hands=[out(f"study/abstraction_size/{s}_hands.parquet") for s in STUDY_SIZES],
        br=[out(f"study/abstraction_size/{s}_br.parquet") for s in STUDY_SIZES] if STUDY_BR else [],
    output:
        table=out("study/abstraction_size.parquet"),
        timing=out("study/abstraction_size_timing.tsv"),
    params:
        reference=STUDY_REFERENCE,
        margin=STUDY.get("margin", 0.05),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/gather_abstraction_size.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/gather_abstraction_size.py"


rule abstraction_size_figure:
    input:
        table=out("study/abstraction_size.parquet"),
    output:
        figure_report("abstraction_size", "3 Solves"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/abstraction_size_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/abstraction_size_figure.py"


rule abstraction_size_cost_figure:
    input:
        timing=out("study/abstraction_size_timing.tsv"),
    output:
        figure_report("abstraction_size_cost", "3 Solves"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/abstraction_size_cost_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/abstraction_size_cost_figure.py"
