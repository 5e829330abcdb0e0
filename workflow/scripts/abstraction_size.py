"""Rules abstraction_size and abstraction_size_refined: one abstraction of the abstraction-size study."""

from poker51.stages import logged, provenance, run_abstraction_size

with logged(snakemake.log[0]):
    p = snakemake.params
    run_abstraction_size(
        int(snakemake.wildcards.buckets),
        abstraction_cfg={"belief_seed": p.belief_seed, "belief_samples": p.belief_samples},
        population=snakemake.input.population,
        holdout=snakemake.input.holdout[0] if snakemake.input.holdout else None,
        solve_cfg={
            "algorithm": p.algorithm,
            "target_exploitability": p.target_exploitability,
            "check_first": p.check_first,
            "check_growth": p.check_growth,
            "warm_clock": p.warm_clock,
        },
        study_cfg={
            "p": p.p,
            "iterations": p.iterations,
            "evidence_hands": p.evidence_hands,
            "lbr_hands": p.lbr_hands,
            "bound_hands": p.bound_hands,
            "bound_seed": p.bound_seed,
        },
        evidence_cfg={"seed": p.evidence_seed, "stack": p.stack},
        lbr_cfg={"seed": p.lbr_seed, "particles": p.particles, "max_tries": p.max_tries},
        out=dict(snakemake.output.items()),
        threads=snakemake.threads,
        # the study's own files: the provenance of the inputs that decide them (not the Riemann table)
        provenance=provenance(
            snakemake.rule, snakemake.wildcards, p, [snakemake.input.population, *snakemake.input.holdout]
        ),
        riemann=snakemake.input.riemann[0] if snakemake.input.riemann else None,
        br_provenance=provenance(snakemake.rule, snakemake.wildcards, p, snakemake.input),
        class_set="refined" if snakemake.rule == "abstraction_size_refined" else "standard",
    )
