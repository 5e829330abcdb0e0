# Stage 3: one CFR+ solve per variant and p (the Nash table p = 0, the published
# restricted Nash response, and the frontier sweep).  Every solve is its own job;
# an interrupted job resumes from its checkpoint.


rule solve:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        population=config["population"],
    output:
        policy=out("{variant}/solve_{plabel}/policy.npy"),
        convergence=out("{variant}/solve_{plabel}/convergence.parquet"),
        summary=out("{variant}/solve_{plabel}/summary.json"),
        timing=out("{variant}/solve_{plabel}/timing.tsv"),
    # Only what shapes this solve's outputs: a change to any other key (the sweep, another
    # table's iterations, keep_checkpoints, checkpoint_every) reruns no solve.  The two
    # housekeeping keys are read from the config by the script (stages.HOUSEKEEPING).
    params:
        p=lambda w: P_OF[w.plabel],
        iterations=solve_iterations,
        algorithm=config["solve"]["algorithm"],
        target_exploitability=config["solve"].get("target_exploitability"),
        check_every=config["solve"]["check_every"],
        checkpoint=lambda w: out(f"{w.variant}/solve_{w.plabel}/checkpoint.npz"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/solve_{{variant}}_{{plabel}}.log",
    benchmark:
        out("benchmarks/solve_{variant}_{plabel}.tsv")
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/solve.py"
