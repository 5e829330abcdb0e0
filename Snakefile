# poker51: the pipeline's table of contents.  One include per stage; the targets are
# built from the config in workflow/rules/common.smk.  See README.md and docs/.
from snakemake.utils import min_version

min_version("8.0")


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/census.smk"
include: "workflow/rules/abstraction.smk"
include: "workflow/rules/solve.smk"
include: "workflow/rules/solver_comparison.smk"
include: "workflow/rules/scores.smk"
include: "workflow/rules/export.smk"


rule all:
    input:
        all_targets(),
    default_target: True
