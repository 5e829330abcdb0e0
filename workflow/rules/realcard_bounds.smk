# Stage 6b (issue 26, point 2): lower bounds on the real-card value V_real by play.  Per variant
# of realcard_br.variants and table (realcard_bounds.ps, each one of realcard_br.p): the G_ind best
# response and the abstract best-response human that realcard_br built (and the strategy `given`
# when realcard_bounds.strategies names it: realcard_br then writes its file too), each played on fresh
# real-card deals against the deployed Riemann (poker51.realcard.bounds); gathered with LBR's
# result beside.

# its configuration and targets: common.smk (BOUNDS, BOUNDS_PS, realcard_bounds_targets)

rule realcard_bounds:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        policy=lambda w: f"{solve_dir(w.variant, P_OF[w.plabel])}/policy.npy",
        # the strategies realcard_br built for this table (none is rebuilt here)
        **{k.lstrip("_") or "table": out(f"{{variant}}/realcard_br/{{plabel}}{k}.parquet") for k in BR_KINDS},
    output:
        out("{variant}/realcard_bounds_{plabel}.parquet"),
    params:
        p=lambda w: P_OF[w.plabel],
        hands=BOUNDS.get("hands", 1000000),
        seed=BOUNDS.get("seed", 51026),
        strategies=BOUNDS.get("strategies", ["gind", "abstract"]),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_bounds_{{variant}}_{{plabel}}.log",
    benchmark:
        out("benchmarks/realcard_bounds_{variant}_{plabel}.tsv")
    priority: 50
    # one thread: the play kernel kept about one core busy with two (11-14 s wall, as many CPU s, on
    # 2026-12-06), and a two-thread job waits for both cores to be free at once
    threads: 1
    resources:
        mem_mb=6000,
        runtime=60,
    script:
        "../scripts/realcard_bounds.py"


rule realcard_bounds_gather:
    input:
        bounds=[out(f"{v}/realcard_bounds_{p_label(p)}.parquet") for v in BR_VARIANTS for p in BOUNDS_PS],
        lbr=[out("lbr.parquet")] if LBR_ON else [],
    output:
        out("realcard_bounds.parquet"),
    params:
        table_p=TABLE_P,
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/realcard_bounds_gather.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/realcard_bounds_gather.py"
