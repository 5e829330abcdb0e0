"""Rule realcard_bounds_gather: every table's plays in one table, LBR's result beside."""

from poker51.stages import gather_realcard_bounds, logged, provenance

with logged(snakemake.log[0]):
    gather_realcard_bounds(
        list(snakemake.input.bounds),
        snakemake.output[0],
        lbr=snakemake.input.lbr[0] if snakemake.input.lbr else None,
        table_p=float(snakemake.params.table_p),
        provenance=provenance(snakemake.rule, snakemake.wildcards, snakemake.params, snakemake.input),
    )
