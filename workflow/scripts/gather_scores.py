"""Rule gather_scores: scores and convergence of every variant in one table each (with what the
local best response wins, and the real-card best response's V_A and V_ind, when they ran), and the
solves' wall-clock timings (not reproducible, not in the receipt) in a TSV."""

from poker51.stages import gather_scores, logged, provenance

with logged(snakemake.log[0]):
    real_card = [*snakemake.input.realcard_br, *snakemake.input.realcard_bounds]
    gather_scores(
        list(snakemake.input.scores),
        list(snakemake.input.convergence),
        list(snakemake.input.timing),
        list(snakemake.params.solves),
        dict(snakemake.output.items()),
        lbr=snakemake.input.lbr[0] if snakemake.input.lbr else None,
        realcard_br=snakemake.input.realcard_br[0] if snakemake.input.realcard_br else None,
        realcard_bounds=snakemake.input.realcard_bounds[0] if snakemake.input.realcard_bounds else None,
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
        # the convergence table does not depend on the real-card best response or bounds: its provenance leaves it out
        convergence_provenance=provenance(
            snakemake.rule, snakemake.wildcards, snakemake.params, [f for f in snakemake.input if f not in real_card]
        ),
    )
