# Shared helpers: config validation and target lists.
import re
import sys
from pathlib import Path

from poker51.rules import ABSTRACTION_TABLES, p_label, table_stem
from poker51.stages import ConfigError, check_slurm, computed_config, validate_config


# The config (config.yaml, then any --configfile, then --config) and its population file, each
# against its schema (workflow/schemas/); a bad key stops here with one line naming key and file.
_cli_files = [str(f) for f in workflow.config_settings.configfiles]
try:
    validate_config(
        config,
        Path(workflow.current_basedir) / ".." / "schemas" / "config.schema.yaml",
        [str(f) for f in workflow.configfiles if str(f) not in _cli_files] + _cli_files,
        workflow.config_settings.config,
    )
except ConfigError as exc:
    sys.exit(f"config error: {exc}")

RESULTS = config["results"].rstrip("/")
LOGS = f"logs/{Path(RESULTS).name}" if RESULTS != "results" else "logs"


def out(path):
    """A path under the configured results directory."""
    return f"{RESULTS}/{path}"


def figure(stem):
    return [out(f"figures/{stem}.pdf"), out(f"figures/{stem}.png")]


def figure_report(stem, category, subcategory=None, caption=None, labels=None):
    """A figure as the output of a rule (the PDF, and the PNG marked for `snakemake --report` with its
    caption workflow/report/{caption or stem}.rst)."""
    pdf, png = figure(stem)
    # (a line may not start with `report(` in a .smk file: the parser reads it as the keyword)
    png = report(
        png, caption=f"../report/{caption or stem}.rst", category=category, subcategory=subcategory, labels=labels
    )
    return [pdf, png]


def table_report(path, caption, category):
    """A table as rule output, marked for `snakemake --report` with its caption."""
    return report(path, caption=f"../report/{caption}.rst", category=category)


HEADLINE = ("scores", "realcard", "evidence", "claims")


def census_targets():
    targets = [
        out("census/counts.parquet"),
        out("census/orders.parquet"),
        out("census/claims.parquet"),
        out("census/claims.md"),
    ] + figure("census_frequencies")
    if config["census"].get("removal", True):
        targets += [out("census/removal.parquet")] + figure("removal_heatmap")
    return targets


VARIANTS = config["abstraction"]["variants"]
TABLE_P = float(config["solve"]["p"])
SOLVE_PS = sorted({0.0, TABLE_P} | {float(p) for p in config["solve"]["sweep"]})


P_OF = {p_label(p): p for p in SOLVE_PS}
COMPARISON = config.get("solver_comparison", {})
#: file label -> algorithm of the solver comparison ("+" spelled "plus" in file names)
ALGO_OF = (
    {a.replace("+", "plus"): a for a in COMPARISON.get("algorithms", ["cfr+", "dcfr", "pcfr+"])}
    if COMPARISON.get("enabled", True)
    else {}
)
#: the variants of the solver comparison (a subset of abstraction.variants)
COMPARISON_VARIANTS = COMPARISON.get("variants", VARIANTS)
if not set(COMPARISON_VARIANTS) <= set(VARIANTS):
    _extra = sorted(set(COMPARISON_VARIANTS) - set(VARIANTS))
    sys.exit(f"config error: solver_comparison.variants: {', '.join(_extra)} not in abstraction.variants")


wildcard_constraints:
    variant="|".join(VARIANTS),
    plabel="|".join(re.escape(k) for k in P_OF),
    algo="|".join(ALGO_OF) or "none",


def table_file(variant, ext="parquet"):
    """The published strategy table of a variant (poker51.rules.table_stem)."""
    return out(f"tables/{table_stem(variant)}.{ext}")


def abstraction_files(variant):
    return {name: out(f"{variant}/{name}.parquet") for name in ABSTRACTION_TABLES}


def solve_dir(variant, p):
    return out(f"{variant}/solve_{p_label(p)}")


def warm_source(wildcards):
    """The state of the table at the next lower p, which this solve starts from (none for
    the lowest p, or when solve.warm_start is false)."""
    p = P_OF[wildcards.plabel]
    i = SOLVE_PS.index(p)
    if i == 0 or not config["solve"].get("warm_start", True):
        return []
    below = solve_dir(wildcards.variant, SOLVE_PS[i - 1])
    return [f"{below}/regret_mass.npy", f"{below}/policy.npy"]


def warm_clock(wildcards):
    """Where a warm-started solve's clock starts (solve.warm_clock); 0 for a cold one, so that
    changing the setting reruns only the warm-started tables."""
    return config["solve"]["warm_clock"] if warm_source(wildcards) else 0


def solve_priority(wildcards):
    """Scheduling only: 10 per table from this one to the end of its variant's chain (the
    whole sweep when the tables start cold), so that the chain furthest behind goes first
    and the chains end together (critical path first; the outputs do not depend on it)."""
    if not config["solve"].get("warm_start", True):
        return 10
    return 10 * (len(SOLVE_PS) - SOLVE_PS.index(P_OF[wildcards.plabel]))


def solve_iterations(wildcards):
    p = P_OF[wildcards.plabel]
    if p in (0.0, TABLE_P):
        return config["solve"]["iterations"]
    return config["solve"]["sweep_iterations"]


def abstraction_targets():
    return [f for v in VARIANTS for f in abstraction_files(v).values()] + figure("classes_buckets")


def solve_targets():
    return [f"{solve_dir(v, p)}/policy.npy" for v in VARIANTS for p in SOLVE_PS]


def score_targets():
    return (
        [out("scores.parquet"), out("convergence.parquet")]
        + figure("convergence")
        + figure("convergence_time")
        + figure("frontier")
        + [f for v in VARIANTS for f in figure(f"strategy_{v}")]
    )


SEEDS = {
    "belief": config["abstraction"]["belief_seed"],
    "verify": config["verify"]["seed"],
    "evidence": config["evidence"]["seed"],
    "lbr": config["lbr"]["seed"],
    "belief_claims": config["belief_claims"]["seed"],
}

#: the policies the local best response plays against (poker51.realcard.lbr.POLICIES)
LBR_POLICIES = ["v0.6", "v0.5"]
LBR_ON = bool(config["lbr"]["enabled"])
#: the variants whose belief-table claims the rule card makes, when standard is solved too
BELIEF_VARIANTS = [v for v in ("wild", "bug") if v in VARIANTS] if "standard" in VARIANTS else []
BELIEF_ON = bool(config["belief_claims"]["enabled"]) and bool(BELIEF_VARIANTS)


BR = config.get("realcard_br", {})
#: the tables (their p) whose exact best response on real cards with independent hands is computed
#: (realcard_br.p: `all` for every solved table, or a list of solved p; none when disabled)
_BR_P = BR.get("p", "all")
BR_PS = (
    []
    if not BR.get("enabled", True)
    else (SOLVE_PS if _BR_P == "all" else sorted({float(p) for p in _BR_P}))
)
#: the variants whose tables get it (realcard_br.variants, default every variant)
BR_VARIANTS = [v for v in VARIANTS if v in BR.get("variants", VARIANTS)]
if set(BR.get("variants", [])) - set(VARIANTS):
    sys.exit(f"config error: realcard_br.variants: {sorted(set(BR['variants']) - set(VARIANTS))} not in abstraction.variants")
if not set(BR_PS) <= set(SOLVE_PS):
    _extra = ", ".join(f"{p:g}" for p in sorted(set(BR_PS) - set(SOLVE_PS)))
    sys.exit(f"config error: realcard_br.p: {_extra} not a solved table (solve.p or solve.sweep)")


#: the tables played against the player types on the evidence stage's deals (the realcard_types rule) - realcard_br.p's,
#: with the Nash table and the published one always among them (the published table is what the others are paired
#: with), for realcard_br.variants; on even when realcard_br.enabled is false (it costs a few job seconds a variant)
TYPES_PS = sorted({0.0, TABLE_P} | set(SOLVE_PS if _BR_P == "all" else (float(p) for p in _BR_P)))
if not set(TYPES_PS) <= set(SOLVE_PS):  # realcard_br.enabled false skips the check above
    _extra = ", ".join(f"{p:g}" for p in sorted(set(TYPES_PS) - set(SOLVE_PS)))
    sys.exit(f"config error: realcard_br.p: {_extra} not a solved table (solve.p or solve.sweep)")


def realcard_types_targets():
    """Per variant every table against the training and hold-out types, and the gathered table."""
    return [out(f"{v}/realcard_types.parquet") for v in BR_VARIANTS] + [out("realcard_types.parquet")]


#: whether the bounds by play ask realcard_br for the strategy `given` (the G_ind pre-draw best response with
#: Riemann's class prior given the human's hand: minutes a table, so only when realcard_bounds.strategies names it)
BR_GIVEN = bool(config.get("realcard_bounds", {}).get("enabled", True)) and "given" in (
    config.get("realcard_bounds", {}).get("strategies") or []
)
#: the files of one realcard_br table: its values, the G_ind best response (per dealt hand, per post-draw
#: node) and the abstract human as a playable table (the bounds by play read all but the first's row), and
#: with BR_GIVEN the strategy `given` per dealt hand (its post-draw play is the G_ind best response's)
BR_KINDS = ("", "_hands", "_post", "_human_hands", "_human_post") + (("_given_hands",) if BR_GIVEN else ())


def br_targets():
    """Per variant and table the decomposition and the G_ind best response, gathered, and the figure."""
    if not BR_PS:
        return []
    return (
        [out(f"{v}/realcard_br/riemann.parquet") for v in BR_VARIANTS]
        + [out(f"{v}/realcard_br/{p_label(p)}{kind}.parquet") for v in BR_VARIANTS for p in BR_PS
           for kind in BR_KINDS]
        + [out("realcard_br.parquet")]
        + figure("realcard_br")
    )


def lbr_targets():
    if not LBR_ON:
        return []
    return [out(f"{v}/lbr_{p}.parquet") for v in VARIANTS for p in LBR_POLICIES] + [out("lbr.parquet")]


def belief_targets():
    if not BELIEF_ON:
        return []
    return [out(f"{v}/belief_spots.parquet") for v in BELIEF_VARIANTS] + [
        out("census/belief_claims.parquet"),
        out("census/belief_claims.md"),
    ]


def export_targets():
    return (
        [table_file(v, ext) for v in VARIANTS for ext in ("parquet", "json")]
        + [out(f"{v}/evidence_hands.parquet") for v in VARIANTS]
        + [out("evidence.parquet"), out("receipt.json"), out("verify.json")]
        + figure("evidence")
    )


def optional_section(name):
    """An optional stage's config section without its ``enabled`` key (which shapes no output), or
    None when the section is absent or ``enabled: false`` (maps sorted: reordered keys rerun nothing)."""
    section = computed_config(config).get(name)
    if section is None or not section.get("enabled", True):
        return None
    return {k: v for k, v in section.items() if k != "enabled"}


MULTI = optional_section("multi")


def multi_targets():
    """The multi stage (issue 10): seeded five-seat tables, their audit and figure."""
    if MULTI is None:
        return []
    return [out("multi/sim.parquet"), out("multi/audit.json")] + figure("multi")


RULEBOOK = optional_section("rulebook")


def rulebook_targets():
    """Issue 11, the games of the rule-book seed: census table, claims and figure."""
    if RULEBOOK is None:
        return []
    return [out("rulebook/census.parquet"), out("rulebook/claims.md")] + figure("rulebook_census")


def receipt_inputs():
    """Every reproducible table and figure (not wall-clock timings or their figure)."""
    files = census_targets() + abstraction_targets() + score_targets()
    files += [f"{solve_dir(v, p)}/{name}" for v in VARIANTS for p in SOLVE_PS
              for name in ("policy.npy", "convergence.parquet", "summary.json")]
    files += [out(f"{v}/{name}.parquet") for v in VARIANTS for name in ("scores", "strategy_summary")]
    files += [table_file(v, ext) for v in VARIANTS for ext in ("parquet", "json")]
    files += [out(f"{v}/evidence_hands.parquet") for v in VARIANTS]
    files += [out("evidence.parquet")] + figure("evidence")
    files += lbr_targets() + belief_targets() + br_targets()
    files += multi_targets()
    files += rulebook_targets()
    files += [f for f in comparison_targets() if f.endswith(".parquet")]  # its figure shows seconds
    files += study_receipt_files()
    files += realcard_bounds_targets()  # workflow/rules/realcard_bounds.smk
    files += realcard_types_targets()  # workflow/rules/realcard_br.smk
    return [f for f in files if "convergence_time" not in f]


STUDY = config.get("abstraction_study", {})
#: the bucket counts of the abstraction-size study (none when abstraction_study.enabled is false)
STUDY_BUCKETS = sorted({int(b) for b in STUDY.get("buckets", [10, 20, 40, 80, 160])}) if STUDY.get("enabled", True) else []

#: the bucket counts at which the refined class set is solved too (abstraction_study.refined)
STUDY_REFINED = sorted({int(b) for b in STUDY.get("refined", [])}) if STUDY_BUCKETS else []
#: the stems of the study's per-abstraction files: b{buckets} (standard classes), refined_b{buckets}
STUDY_SIZES = [f"b{b}" for b in STUDY_BUCKETS] + [f"refined_b{b}" for b in STUDY_REFINED]

#: the bucket count the others are compared with on the same deals (paired differences)
STUDY_REFERENCE = STUDY.get("reference") or (
    config["abstraction"]["buckets"] if config["abstraction"]["buckets"] in STUDY_BUCKETS else max(STUDY_BUCKETS or [0])
)
if STUDY_BUCKETS and STUDY_REFERENCE not in STUDY_BUCKETS:
    sys.exit(f"config error: abstraction_study.reference: {STUDY_REFERENCE} not in abstraction_study.buckets")


#: the study's p table gets its V_ind (the realcard_br stage's value) when that stage is on
STUDY_BR = bool(STUDY_BUCKETS) and BR.get("enabled", True) and STUDY.get("v_ind", True) and "standard" in BR_VARIANTS


def study_targets():
    """The abstraction-size study's table, timings and figures (issue 12, section 2)."""
    if not STUDY_BUCKETS:
        return []
    return (
        [out("study/abstraction_size.parquet"), out("study/abstraction_size_timing.tsv")]
        + figure("abstraction_size")
        + figure("abstraction_size_cost")
    )


def study_receipt_files():
    """What the receipt holds of the study: the per-size and gathered tables and the figure
    drawn from them (not the timings, nor the cost figure drawn from them: wall clock)."""
    if not STUDY_BUCKETS:
        return []
    return (
        [out(f"study/abstraction_size/{s}{kind}.parquet") for s in STUDY_SIZES
         for kind in ("", "_hands", *(("_br",) if STUDY_BR else ()))]
        + [out("study/abstraction_size.parquet")]
        + figure("abstraction_size")
    )


def comparison_targets():
    """The solver comparison's table and figure (none when solver_comparison.enabled is false)."""
    if not ALGO_OF:
        return []
    return [out("solver_comparison.parquet")] + figure("solver_comparison")


def report_targets():
    """The headline tables as HTML (for `snakemake --report`), CSV and LaTeX (not in the receipt:
    derived views)."""
    return [out(f"headline/{name}.{ext}") for name in HEADLINE for ext in ("html", "csv", "tex")]


def all_targets():
    return (
        census_targets()
        + abstraction_targets()
        + solve_targets()
        + score_targets()
        + export_targets()
        + lbr_targets()
        + br_targets()
        + belief_targets()
        + multi_targets()
        + rulebook_targets()
        + report_targets()
        + comparison_targets()
        + study_targets()
        + realcard_bounds_targets()
        + realcard_types_targets()
    )


onstart:
    # A SLURM run (workflow/profiles/slurm): the profile's slurm_partition and slurm_account,
    # and the status command, checked against the cluster before the first job is submitted.
    if workflow.is_main_process and getattr(workflow.executor_plugin, "name", None) == "slurm":
        problem = check_slurm(
            [
                (job.rule.name, job.resources.get("slurm_partition"), job.resources.get("slurm_account"))
                for job in workflow.dag.needrun_jobs()
                if not job.is_local
            ],
            getattr(workflow.executor_settings, "status_command", None),
        )
        if problem:
            print(f"poker51 slurm: error: {problem}", file=sys.stderr)
            sys.exit(2)


# the real-card lower bounds by play (rules: realcard_bounds.smk)
BOUNDS = config.get("realcard_bounds", {})
BOUNDS_ON = bool(BOUNDS.get("enabled", True))
#: the tables played: their p (each a solve of solve.p / solve.sweep; default Nash and published)
BOUNDS_PS = sorted({float(p) for p in (BOUNDS.get("ps") or [0.0, TABLE_P])})
if BOUNDS_ON and not set(BOUNDS_PS) <= set(SOLVE_PS):
    sys.exit(f"config error: realcard_bounds.ps: {sorted(set(BOUNDS_PS) - set(SOLVE_PS))} are not solved tables")
# the bounds play the strategies realcard_br built: its tables and variants only
if BOUNDS_ON and not set(BOUNDS_PS) <= set(BR_PS):
    _extra = ", ".join(f"{p:g}" for p in sorted(set(BOUNDS_PS) - set(BR_PS)))
    sys.exit(f"config error: realcard_bounds.ps: {_extra} not a realcard_br table (realcard_br.p; realcard_br.enabled)")
SEEDS["realcard_bounds"] = BOUNDS.get("seed", 51026)


def realcard_bounds_targets():
    if not BOUNDS_ON:
        return []
    return [out(f"{v}/realcard_bounds_{p_label(p)}.parquet") for v in BR_VARIANTS for p in BOUNDS_PS] + [
        out("realcard_bounds.parquet")
    ]
