# Stage 6: real-card studies.  The local best response against v0.6 and v0.5 (its gains go into
# scores.parquet) and the rule card's belief-table claims (next to the census claims).


rule lbr:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        table=table_file("{variant}"),
    output:
        out("{variant}/lbr_{policy}.parquet"),
    wildcard_constraints:
        policy="v0\\.6|v0\\.5",
    params:
        hands=config["lbr"]["hands"],
        seed=config["lbr"]["seed"],
        particles=config["lbr"]["particles"],
        max_tries=config["lbr"]["max_tries"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/lbr_{{variant}}_{{policy}}.log",
    benchmark:
        out("benchmarks/lbr_{variant}_{policy}.tsv")
    # scheduling only: the longest jobs (about ten solves each), started as soon as they can be
    priority: 100
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/lbr.py"


rule lbr_gather:
    input:
        [out(f"{v}/lbr_{p}.parquet") for v in VARIANTS for p in LBR_POLICIES],
    output:
        out("lbr.parquet"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/lbr_gather.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/lbr_gather.py"


rule belief_spots:
    input:
        unpack(lambda w: abstraction_files(w.variant)),
        standard=out("standard/belief.parquet"),
        population=config["population"],
    output:
        out("{variant}/belief_spots.parquet"),
    params:
        spots=config["belief_claims"]["spots"],
        seed=config["belief_claims"]["seed"],
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/belief_spots_{{variant}}.log",
    benchmark:
        out("benchmarks/belief_spots_{variant}.tsv")
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/belief_spots.py"


rule belief_claims:
    input:
        [out(f"{v}/belief_spots.parquet") for v in BELIEF_VARIANTS],
    output:
        table=out("census/belief_claims.parquet"),
        md=table_report(out("census/belief_claims.md"), "belief_claims_md", "1 Census"),
    conda:
        "../envs/poker51.yaml"
    log:
        f"{LOGS}/belief_claims.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/belief_claims.py"
