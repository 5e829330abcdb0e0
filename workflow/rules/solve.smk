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
        state=temp(out("{variant}/solve_{plabel}/state.npy")),
        convergence=out("{variant}/solve_{plabel}/convergence.parquet"),
        summary=out("{variant}/solve_{plabel}/summary.json"),
        timing=out("{variant}/solve_{plabel}/timing.tsv"),
    params:
        p=lambda w: P_OF[w.plabel],
        iterations=solve_iterations,
        solve=config["solve"],
        checkpoint=lambda w: out(f"{w.variant}/solve_{w.plabel}/checkpoint.npz"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/solve_{{variant}}_{{plabel}}.log",
    benchmark:
        out("benchmarks/solve_{variant}_{plabel}.tsv")
    threads: config["solve"].get("threads", 1)
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/solve.py"
