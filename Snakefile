# poker51: the pipeline's table of contents.  One include per stage; the targets are
# built from the config in workflow/rules/common.smk.  See README.md and docs/.
from snakemake.utils import min_version

min_version("8.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
# before export.smk: its receipt lists these stages' tables
include: "workflow/rules/realcard_bounds.smk"
include: "workflow/rules/census.smk"
include: "workflow/rules/abstraction.smk"
include: "workflow/rules/solve.smk"
include: "workflow/rules/solver_comparison.smk"
include: "workflow/rules/abstraction_study.smk"
include: "workflow/rules/scores.smk"
include: "workflow/rules/export.smk"
include: "workflow/rules/realcards.smk"
include: "workflow/rules/realcard_br.smk"
include: "workflow/rules/multi.smk"
include: "workflow/rules/rulebook.smk"


# Rules of about a second (gathers, figures, the receipt) run on the submitting host: on a
# cluster they would wait in the queue far longer than they run.
localrules:
    all,
    census_figure,
    removal_figure,
    abstraction_figure,
    gather_scores,
    score_figures,
    convergence_time_figure,
    strategy_figure,
    evidence_gather,
    receipt,
    headline_tables,
    multi_figure,
    lbr_gather,
    realcard_br_gather,
    realcard_br_figure,
    realcard_types_gather,
    realcard_bounds_gather,
    belief_claims,
    gather_solver_comparison,
    solver_comparison_figure,
    gather_abstraction_size,
    abstraction_size_figure,
    abstraction_size_cost_figure,
    rulebook_figure,


rule all:
    input:
        all_targets(),
    default_target: True
