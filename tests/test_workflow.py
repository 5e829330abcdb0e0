"""The workflow reruns only what changed, and refuses a bad config before any rule runs (issue 9).

The rerun tests plan the smoke DAG in a copy of the workflow.  Its outputs are recorded as
made (``snakemake --touch --forceall``: Snakemake writes each job's provenance, its params,
input and code, and touches the outputs in DAG order, as a real run would), then a dry run
with the default rerun triggers after each config change lists what Snakemake would run.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from poker51.rules import p_label

ROOT = Path(__file__).resolve().parents[1]
#: Snakemake's default rerun triggers, spelled out so that no profile can change them
TRIGGERS = ["--rerun-triggers", "mtime", "params", "input", "software-env", "code"]


def copy_workflow(dst: Path) -> Path:
    shutil.copy(ROOT / "Snakefile", dst)
    for sub in ("workflow", "config"):
        shutil.copytree(ROOT / sub, dst / sub, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def snakemake(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=cwd, capture_output=True, text=True)


def planned(cwd: Path, configfile: str, *extra: str) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of every job a dry run plans."""
    r = snakemake(cwd, "-n", "--cores", "1", "--configfile", configfile, *TRIGGERS, *extra)
    text = r.stdout + r.stderr
    assert r.returncode == 0, text[-3000:]
    assert "localrules directive specifies rules that are not present" not in text
    jobs = []
    for block in re.split(r"\n(?=(?:local)?rule \w+:)", "\n" + text):
        m = re.match(r"(?:local)?rule (\w+):\n", block)
        if m and m.group(1) != "all":
            w = re.search(r"^\s+wildcards: (.*)$", block, flags=re.M)
            wildcards = dict(kv.split("=", 1) for kv in w.group(1).split(", ")) if w else {}
            jobs.append((m.group(1), wildcards))
    return jobs


def outputs(cwd: Path, configfile: str) -> list[str]:
    r = snakemake(cwd, "-n", "--forceall", "--cores", "1", "--configfile", configfile)
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    return [f for line in (r.stdout + r.stderr).splitlines() if line.strip().startswith("output: ")
            for f in line.split("output: ", 1)[1].split(", ")]  # fmt: skip


def smoke_with(cwd: Path, name: str, **solve: object) -> str:
    """config/smoke.yaml with ``solve`` keys changed, written as ``config/{name}.yaml``."""
    cfg = yaml.safe_load((cwd / "config" / "smoke.yaml").read_text())
    cfg["solve"].update(solve)
    (cwd / "config" / f"{name}.yaml").write_text(yaml.safe_dump(cfg))
    return f"config/{name}.yaml"


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A copy of the workflow whose smoke DAG is recorded as made."""
    d = copy_workflow(tmp_path_factory.mktemp("workflow"))
    files = outputs(d, "config/smoke.yaml")
    assert sum(f.endswith("/policy.npy") for f in files) == 6  # 2 variants x p in {0, 0.5, 1}
    for f in files:
        (d / f).parent.mkdir(parents=True, exist_ok=True)
        (d / f).touch()
    r = snakemake(d, "--touch", "--forceall", "--cores", "1", "--configfile", "config/smoke.yaml")
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    return d


def test_a_made_dag_plans_nothing(made):
    """The set-up itself: unchanged config, nothing to do (so the tests below can fail)."""
    assert planned(made, "config/smoke.yaml") == []


def test_housekeeping_keys_rerun_nothing(made):
    """keep_checkpoints and checkpoint_every shape no output: no job at all is planned."""
    cfg = smoke_with(made, "keep", keep_checkpoints=True, checkpoint_every=7)
    assert planned(made, cfg) == []


def test_one_more_p_in_the_sweep_runs_its_solves_and_the_chain_above(made):
    """Each table starts from the table below it, so a new p = 0.25 reruns the tables above it
    (their warm start changed), never the Nash table below it."""
    cfg = smoke_with(made, "sweep", sweep=[0.0, 0.25, 0.5, 1.0])
    jobs = planned(made, cfg)
    solves = sorted((w["variant"], w["plabel"]) for rule, w in jobs if rule == "solve")
    assert solves == sorted((v, p_label(p)) for v in ("standard", "wild") for p in (0.25, 0.5, 1.0))
    rules = {rule for rule, _ in jobs}
    assert not rules & {"census", "census_removal", "abstraction"}
    assert {"scores", "gather_scores", "receipt"} <= rules  # what reads every solve does rerun


def test_one_more_p_without_warm_starts_runs_only_its_solves(made):
    cfg = smoke_with(made, "sweep_cold", sweep=[0.0, 0.25, 0.5, 1.0], warm_start=False)
    jobs = planned(made, cfg)
    solves = sorted((w["variant"], w["plabel"]) for rule, w in jobs if rule == "solve")
    # warm_start: false changes every p > 0's inputs (no warm state): those rerun, p = 0 does not
    assert solves == sorted((v, p_label(p)) for v in ("standard", "wild") for p in (0.25, 0.5, 1.0))


def test_a_new_warm_clock_reruns_only_the_warm_started_tables(made):
    """solve.warm_clock shapes only the tables that start warm: p = 0 (cold) is not rerun."""
    jobs = planned(made, smoke_with(made, "clock", warm_clock=7))
    solves = sorted((w["variant"], w["plabel"]) for rule, w in jobs if rule == "solve")
    assert solves == sorted((v, p_label(p)) for v in ("standard", "wild") for p in (0.5, 1.0))


def test_threads_rerun_nothing(made):
    """Threads inside a solve change no output: no job is planned."""
    assert planned(made, smoke_with(made, "threads", threads=2)) == []


def test_a_changed_solve_setting_reruns_every_solve(made):
    """The converse: check_first shapes the convergence log, so every solve reruns."""
    cfg = smoke_with(made, "check", check_first=30)
    assert sum(rule == "solve" for rule, _ in planned(made, cfg)) == 6


def test_quick_rules_are_local():
    """Gathers, figures and the receipt (about a second each) run on the submitting host."""
    snakefile = (ROOT / "Snakefile").read_text()
    block = re.search(r"^localrules:\n((?:    \w+,\n)+)", snakefile, flags=re.M)
    assert block is not None
    local = set(re.findall(r"(\w+),", block.group(1)))
    rules = set()
    for smk in (ROOT / "workflow" / "rules").glob("*.smk"):
        rules |= set(re.findall(r"^rule (\w+):", smk.read_text(), flags=re.M))
    quick = {r for r in rules if "figure" in r or "gather" in r or r in ("receipt", "headline_tables", "belief_claims")}
    assert quick >= {
        "census_figure", "removal_figure", "abstraction_figure", "gather_scores", "score_figures",
        "convergence_time_figure", "strategy_figure", "evidence_gather", "receipt", "headline_tables", "multi_figure",
    }  # fmt: skip
    assert local == quick | {"all"}


# --------------------------------------------------------------------------- config errors at DAG time
@pytest.mark.parametrize(
    "kind,message",
    [
        (
            "population",
            "config error: {file}: types.rock.softnes: unknown key (did you mean 'softness'?; "
            "expected: call, draw, open, raise, softness)",
        ),
        (
            "config",
            "config error: {file}: solve.sweep_iteration: unknown key (did you mean 'sweep_iterations'?; "
            "expected: algorithm, check_first, check_growth, checkpoint_every, iterations, keep_checkpoints, p, "
            "sweep, sweep_iterations, target_exploitability, threads, warm_clock, warm_start)",
        ),
        ("range", "config error: {file}: solve.sweep[1]: 2 is above the maximum 1"),
        ("comparison", "config error: solver_comparison.variants: bug not in abstraction.variants"),
        ("br", "config error: realcard_br.p: 0.3 not a solved table (solve.p or solve.sweep)"),
        ("br_schema", "config error: {file}: realcard_br.p: 'some' is not valid under any of the given schemas"),
        (
            "bounds",
            "config error: realcard_bounds.ps: 0 not a realcard_br table (realcard_br.p; realcard_br.enabled)",
        ),
    ],
)
def test_a_bad_config_stops_the_dag_with_one_line(tmp_path, kind, message):
    d = copy_workflow(tmp_path)
    smoke = yaml.safe_load((d / "config" / "smoke.yaml").read_text())
    if kind == "population":
        pop = yaml.safe_load((d / "config" / "population.yaml").read_text())
        pop["types"]["rock"]["softnes"] = pop["types"]["rock"].pop("softness")
        (d / "config" / "typo.yaml").write_text(yaml.safe_dump(pop))
        smoke["population"] = "config/typo.yaml"
        file = "config/typo.yaml"
    elif kind == "config":
        smoke["solve"]["sweep_iteration"] = smoke["solve"].pop("sweep_iterations")
        file = "config/bad.yaml"
    elif kind == "comparison":  # a variant without abstraction tables
        smoke["solver_comparison"]["variants"] = ["standard", "bug"]
        file = "config/bad.yaml"
    elif kind == "br":  # a table that no solve writes
        smoke["realcard_br"]["p"] = [0.0, 0.3]
        file = "config/bad.yaml"
    elif kind == "br_schema":
        smoke["realcard_br"]["p"] = "some"
        file = "config/bad.yaml"
    elif kind == "bounds":  # the bounds play the strategies realcard_br built: a table it does not compute
        smoke["realcard_bounds"] = {**smoke["realcard_bounds"], "enabled": True, "ps": [0.0, 0.5]}
        file = "config/bad.yaml"
    else:
        smoke["solve"]["sweep"] = [0.5, 2]
        file = "config/bad.yaml"
    (d / "config" / "bad.yaml").write_text(yaml.safe_dump(smoke))
    r = snakemake(d, "-n", "--cores", "1", "--configfile", "config/bad.yaml")
    assert r.returncode != 0
    lines = [x for x in (r.stdout + r.stderr).splitlines() if x.strip()]
    assert lines[-1] == message.format(file=file)
    assert "Traceback" not in r.stderr and "Failed validating" not in r.stderr and "On instance" not in r.stderr


def test_the_given_strategy_is_built_only_when_the_bounds_play_it(tmp_path):
    """realcard_bounds.strategies naming ``given`` adds one file per realcard_br table (its dealt-hand
    choices) and nothing else; without it the DAG's files are the same as before."""
    d = copy_workflow(tmp_path)
    plain = outputs(d, "config/smoke.yaml")
    assert not any("given" in f for f in plain)
    cfg = yaml.safe_load((d / "config" / "smoke.yaml").read_text())
    cfg["realcard_bounds"]["strategies"] = ["gind", "given", "abstract"]
    (d / "config" / "given.yaml").write_text(yaml.safe_dump(cfg))
    files = outputs(d, "config/given.yaml")
    extra = sorted(set(files) - set(plain))
    assert extra == [f"results/smoke/standard/realcard_br/{p_label(0.5)}_given_hands.parquet"], extra
    assert set(plain) <= set(files)
