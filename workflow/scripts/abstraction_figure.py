"""Rule abstraction_figure: class probabilities and bucket distributions."""

from poker51.figures_study import fig_classes_buckets
from poker51.io import read_parquet
from poker51.log import logged

with logged(snakemake.log[0]):
    variants = snakemake.params.variants
    classes = {v: read_parquet(p) for v, p in zip(variants, snakemake.input.classes)}
    buckets = {v: read_parquet(p) for v, p in zip(variants, snakemake.input.buckets)}
    fig_classes_buckets(classes, buckets, snakemake.output[0][: -len(".pdf")])
