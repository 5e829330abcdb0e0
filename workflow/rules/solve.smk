# Stage 3: one solve per variant and p (the Nash table p = 0, the published restricted
# Nash response, and the frontier sweep).  Every solve is its own job; each table but the
# first starts from the state of its neighbour at the next lower p (solve.warm_start), so
# a variant's tables form a chain; an interrupted job resumes from its checkpoint.


rule solve:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        population=config["population"],
        warm=warm_source,
    output:
        policy=out("{variant}/solve_{plabel}/policy.npy"),
        regret_mass=out("{variant}/solve_{plabel}/regret_mass.npy"),
        convergence=out("{variant}/solve_{plabel}/convergence.parquet"),
        summary=out("{variant}/solve_{plabel}/summary.json"),
        timing=out("{variant}/solve_{plabel}/timing.tsv"),
    # Only what shapes this solve's outputs: a change to any other key (another table's
    # iterations, keep_checkpoints, checkpoint_every, threads) reruns no solve; a new p in the
    # sweep reruns the tables above it in its variant's chain (their warm start changed).  The
    # housekeeping keys are read from the config by the script (stages.HOUSEKEEPING).
    params:
        p=lambda w: P_OF[w.plabel],
        iterations=solve_iterations,
        algorithm=config["solve"]["algorithm"],
        target_exploitability=config["solve"].get("target_exploitability"),
        check_first=config["solve"]["check_first"],
        check_growth=config["solve"]["check_growth"],
        warm_clock=warm_clock,
        checkpoint=lambda w: out(f"{w.variant}/solve_{w.plabel}/checkpoint.npz"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/solve_{{variant}}_{{plabel}}.log",
    benchmark:
        out("benchmarks/solve_{variant}_{plabel}.tsv")
    priority: solve_priority
    threads: config["solve"].get("threads", 1)
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/solve.py"
