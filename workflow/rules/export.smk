# Stage 5: the published tables, the evidence run, the receipt and the verifier.




rule export:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        policy=lambda w: f"{solve_dir(w.variant, TABLE_P)}/policy.npy",
        summary=lambda w: f"{solve_dir(w.variant, TABLE_P)}/summary.json",
    output:
        parquet=table_file("{variant}"),
        json=table_file("{variant}", "json"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/export_{{variant}}.log",
    benchmark:
        out("benchmarks/export_{variant}.tsv")
    # scheduling only (units of solve_priority: 10 per solve still ahead in a chain): the
    # evidence and LBR jobs wait on it and are long, so they start soon, not last
    priority: 60
    threads: 1
    resources:
        mem_mb=3000,
        runtime=10,
    script:
        "../scripts/export.py"


rule evidence:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        table=table_file("{variant}"),
        population=config["population"],
        holdout=[config["holdout"]] if config["holdout"] else [],
    output:
        summary=out("{variant}/evidence.parquet"),
        hands=out("{variant}/evidence_hands.parquet"),
    params:
        hands=config["evidence"]["hands"],
        seed=config["evidence"]["seed"],
        stack=config["evidence"]["stack"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/evidence_{{variant}}.log",
    benchmark:
        out("benchmarks/evidence_{variant}.tsv")
    # scheduling only: a long job (about five late solves), started as soon as it can be
    priority: 50
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/evidence.py"


rule evidence_gather:
    input:
        expand(out("{variant}/evidence.parquet"), variant=VARIANTS),
    output:
        table=out("evidence.parquet"),
        figure=figure_report("evidence", "5 Evidence"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/evidence_gather.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/evidence_gather.py"


rule receipt:
    input:
        receipt_inputs(),
    output:
        out("receipt.json"),
    params:
        config=computed_config(config),
        seeds=SEEDS,
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/receipt.log",
    priority: 30  # scheduling only: the run's last chain (scores.smk, score_figures)
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/receipt.py"


# The verifier's hands, played per variant as soon as its table is exported: the costly part
# of the verifier leaves the run's last chain (receipt, verify); `verify` checks that each was
# played on the bytes the receipt records.
rule verify_hands:
    input:
        table=table_file("{variant}"),
        classes=out("{variant}/classes.parquet"),
        buckets=out("{variant}/buckets.parquet"),
    output:
        out("{variant}/verify_hands.json"),
    params:
        hands=config["verify"]["hands_per_variant"],
        seed=config["verify"]["seed"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/verify_hands_{{variant}}.log",
    benchmark:
        out("benchmarks/verify_hands_{variant}.tsv")
    priority: 45  # scheduling only: off the last chain, between the evidence and the scores
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/verify_hands.py"


rule verify:
    input:
        receipt=out("receipt.json"),
        tables=expand(table_file("{variant}"), variant=VARIANTS),
        classes=expand(out("{variant}/classes.parquet"), variant=VARIANTS),
        hands=expand(out("{variant}/verify_hands.json"), variant=VARIANTS),
    output:
        out("verify.json"),
    params:
        hands=config["verify"]["hands_per_variant"],
        seed=config["verify"]["seed"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/verify.log",
    benchmark:
        out("benchmarks/verify.tsv")
    priority: 30  # scheduling only: as the receipt
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/verify.py"


rule headline_tables:
    input:
        scores=out("scores.parquet"),
        evidence=out("evidence.parquet"),
        claims=out("census/claims.parquet"),
    output:
        **{
            f"{name}{suffix}": table_report(out(f"headline/{name}.{ext}"), f"headline_{name}", "6 Headline tables")
            for name in HEADLINE
            for suffix, ext in (("", "html"), ("_csv", "csv"), ("_tex", "tex"))
        },
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/headline_tables.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/headline_tables.py"
