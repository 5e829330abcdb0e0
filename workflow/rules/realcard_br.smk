# Stage 6b: the exact best response on real cards with independent hands (issue 26, point 1;
# config realcard_br).  Per variant Riemann's exact (class, final strength) distribution, which
# no table changes; per variant and table, V_A (the abstract best response), V_ind (the exact
# best response in G_ind) and the abstract best-response human's G_ind value, with the G_ind best
# response as tables; gathered into realcard_br.parquet and the v_* columns of scores.parquet.


rule realcard_riemann:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
    output:
        out("{variant}/realcard_br/riemann.parquet"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_riemann_{{variant}}.log",
    benchmark:
        out("benchmarks/realcard_riemann_{variant}.tsv")
    # scheduling only: its tables wait on it (units of solve_priority)
    priority: 35
    threads: 1
    resources:
        mem_mb=4000,
        runtime=10,
    script:
        "../scripts/realcard_riemann.py"


rule realcard_br:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        riemann=out("{variant}/realcard_br/riemann.parquet"),
        policy=lambda w: f"{solve_dir(w.variant, P_OF[w.plabel])}/policy.npy",
        summary=lambda w: f"{solve_dir(w.variant, P_OF[w.plabel])}/summary.json",
    output:
        table=out("{variant}/realcard_br/{plabel}.parquet"),
        hands=out("{variant}/realcard_br/{plabel}_hands.parquet"),
        post=out("{variant}/realcard_br/{plabel}_post.parquet"),
        human_hands=out("{variant}/realcard_br/{plabel}_human_hands.parquet"),
        human_post=out("{variant}/realcard_br/{plabel}_human_post.parquet"),
        # the strategy `given` for the bounds by play, only when realcard_bounds.strategies names it (common.smk)
        **({"given_hands": out("{variant}/realcard_br/{plabel}_given_hands.parquet")} if BR_GIVEN else {}),
    params:
        p=lambda w: P_OF[w.plabel],
        table_p=TABLE_P,
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_br_{{variant}}_{{plabel}}.log",
    benchmark:
        out("benchmarks/realcard_br_{variant}_{plabel}.tsv")
    # scheduling only: about 45 CPU seconds per table, after its solve (units of solve_priority)
    priority: 35
    threads: 1
    resources:
        mem_mb=6000,
        runtime=10,
    script:
        "../scripts/realcard_br.py"


rule realcard_br_gather:
    input:
        [out(f"{v}/realcard_br/{p_label(p)}.parquet") for v in BR_VARIANTS for p in BR_PS],
    output:
        out("realcard_br.parquet"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_br_gather.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/realcard_br_gather.py"


rule realcard_br_figure:
    input:
        table=out("realcard_br.parquet"),
    output:
        figure_report("realcard_br", "5 Evidence"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_br_figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/realcard_br_figure.py"


# Every table of TYPES_PS (realcard_br.p with the Nash and the published table; common.smk) played on the evidence
# stage's deals against every training type and hold-out type, each table's per-deal difference from the published
# table's beside (the same deals and type seeds for every table: paired); gathered into realcard_types.parquet.
rule realcard_types:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        policies=lambda w: [f"{solve_dir(w.variant, p)}/policy.npy" for p in TYPES_PS],
        # the policies' provenance (an .npy carries none)
        summaries=lambda w: [f"{solve_dir(w.variant, p)}/summary.json" for p in TYPES_PS],
        population=config["population"],
        holdout=[config["holdout"]] if config["holdout"] else [],
    output:
        out("{variant}/realcard_types.parquet"),
    params:
        ps=TYPES_PS,
        table_p=TABLE_P,
        hands=config["evidence"]["hands"],
        seed=config["evidence"]["seed"],
        stack=config["evidence"]["stack"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_types_{{variant}}.log",
    benchmark:
        out("benchmarks/realcard_types_{variant}.tsv")
    # scheduling only: about as long as the evidence job, after the variant's last solve (units of solve_priority)
    priority: 35
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/realcard_types.py"


rule realcard_types_gather:
    input:
        [out(f"{v}/realcard_types.parquet") for v in BR_VARIANTS],
    output:
        out("realcard_types.parquet"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_types_gather.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/realcard_types_gather.py"
