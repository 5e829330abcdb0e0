"""Docs that match the code: the README is a front door (at most 10 KB, its first lines the two
commands, nothing outside the repository); every relative link of README.md and docs/ resolves,
anchors included; every command example parses and the cheap ones run, the shipped examples of
``docs/examples/`` with the outputs the pages promise; every ``results/...`` path in a code block
is one the pipeline writes; the licence and the citation file agree with the package."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from functools import cache
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

from poker51 import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"
EXAMPLES_DIR = DOCS / "examples"
#: every page of the manual: the README and docs/**/*.md
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
#: pages whose ``poker51 ...`` lines are examples to parse (the README and the command line's page)
COMMAND_PAGES = [ROOT / "README.md", DOCS / "cli.md"]
#: pages whose code blocks name pipeline outputs
RESULT_PAGES = [ROOT / "README.md", DOCS / "cli.md", DOCS / "paper.md", DOCS / "tables.md", DOCS / "install.md"]


def rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def prose(text: str) -> str:
    """The page without its fenced code blocks (links and headings live outside them)."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


# ----------------------------------------------------------------------------------------
# the README as a front door
# ----------------------------------------------------------------------------------------


def test_the_readme_is_at_most_10_kb():
    assert len(README.encode()) <= 10_240


def test_the_readme_opens_with_the_two_commands():
    first = README.split("```sh\n", 1)
    assert first[0].count("\n") <= 2, "the README must open with its commands"  # the title, a blank line
    block = first[1].split("```", 1)[0]
    assert [line.split()[:2] for line in block.splitlines()] == [["make", "run"], ["make", "test"]]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run: ", makefile, re.M) and re.search(r"^test: ", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text()  # what CI runs is the second command


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_no_page_sends_the_reader_outside_the_repository(page):
    text = page.read_text()
    assert "../shared" not in text and "shared/seeds" not in text and "SPEC.md" not in text


def test_the_readme_says_how_to_install_from_a_checkout():
    assert "make install" in README and "pip install -r requirements/lock.txt" in README
    assert "pip install dist/poker51-*.whl" in README
    # `pip install poker51` is named only to say that it finds nothing
    for line in README.splitlines():
        if "pip install poker51" in line:
            assert "finds nothing" in line


def test_the_readme_defines_the_games_terms():
    terms = prose(README).split("## A two-minute start")[0]
    for term in ("jbit", "abit", "Riemann", "The House rule", "The marker", "v0.5, v0.6", "**p**", "frontier", "LBR"):
        assert term in terms, term
    assert "our reconstruction" in terms and "our tables" in terms


def test_the_readmes_exit_codes_are_the_command_lines():
    table = README.split("| code | meaning |", 1)[1].split("\n\n", 1)[0]
    codes = {int(c) for c in re.findall(r"^\| `(\d+)` \|", table, re.M)}
    assert codes == {cli.EXIT_OK, cli.EXIT_FAILED, cli.EXIT_BAD_INPUT, cli.EXIT_BUG, cli.EXIT_INTERRUPTED}
    assert codes == {0, 1, 2, 70, 130}


def test_the_readmes_stage_table_names_real_rules():
    rules = set()
    for smk in (ROOT / "workflow" / "rules").glob("*.smk"):
        rules |= set(re.findall(r"^rule (\w+):", smk.read_text(), re.M))
    table = README.split("| stage | rules |", 1)[1].split("\n\n", 1)[0]
    named = set()
    for row in table.splitlines()[1:]:
        named |= set(re.findall(r"`([\w*]+)`", row.split("|")[2]))
    assert len(named) >= 20
    for name in named:
        pattern = re.compile("^" + name.replace("*", r"\w+") + "$")
        assert any(pattern.match(r) for r in rules), name


# ----------------------------------------------------------------------------------------
# links and anchors
# ----------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    out: list[str] = []
    for line in prose(page.read_text()).splitlines():
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            base = slug(m.group(1))
            n = sum(1 for a in out if a == base or re.fullmatch(re.escape(base) + r"-\d+", a))
            out.append(base if n == 0 else f"{base}-{n}")
    return frozenset(out)


def links(page: Path) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", prose(page.read_text()))


def test_the_link_checker_checks_something():
    assert slug("## Scenarios: `poker51 rulebook run SCENARIO.json --json`"[3:]) == (
        "scenarios-poker51-rulebook-run-scenariojson---json"
    )
    assert "how-riemann-bets-v06" in anchors(DOCS / "rules.md")
    assert sum(len(links(p)) for p in PAGES) > 200


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(target)
    assert not broken, broken


def test_every_page_is_reachable_from_the_readme():
    seen, todo = set(), [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for target in links(page):
            path = target.partition("#")[0]
            if path.endswith(".md") and not re.match(r"[a-z]+:", path):
                todo.append((page.parent / path).resolve())
    assert not [rel(p) for p in PAGES if p.resolve() not in seen]


def test_the_design_index_lists_every_entry():
    index = (DOCS / "design-choices.md").read_text()
    pages = sorted((DOCS / "design").glob("*.md"))
    assert len(pages) >= 12
    listed = set(re.findall(r"\]\((design/[\w-]+\.md#[\w-]+)\)", index))
    entries = {
        f"design/{p.name}#{a}" for p in pages for a in anchors(p) if a != slug(p.read_text().splitlines()[0][2:])
    }
    assert listed == entries
    assert len(entries) >= 110


def test_every_test_a_page_names_exists():
    """The design entries name the tests that hold them: each named test function and test file exists."""
    defs, stems = set(), set()
    for f in (ROOT / "tests").rglob("*.py"):
        defs |= set(re.findall(r"^def (test_\w+)", f.read_text(), re.M))
        stems.add(f.stem)
    named = 0
    for page in PAGES:
        text = page.read_text()
        for path in set(re.findall(r"\b(tests/[\w/]+\.py)", text)):
            assert (ROOT / path).exists(), (rel(page), path)
        for name in set(re.findall(r"\b(test_\w+)\b", text)) - stems:
            assert name in defs or name.startswith("test_unit"), (rel(page), name)  # test-unit-* are make targets
            named += 1
    assert named >= 150


def test_no_page_names_a_module_that_moved():
    """``poker51.play`` is the heads-up engine only; the policies and the real-card studies moved
    out of it, and the pot law and the deals moved under ``poker51.table``."""
    moved = ["poker51.pots", "poker51.deal", "src/poker51/pots.py", "src/poker51/deal.py", "tests/test_pots.py"]
    studies = ("evidence", "verify", "audit", "lbr", "belief_claims", "abstraction_size")
    moved += [f"play/{m}" for m in ("riemann", "v05", "models", "holdout", *studies)]
    moved += [f"play.{m}" for m in ("riemann", "v05", "models", "holdout", *studies)]
    for page in PAGES:
        if page.name == "speed-log.md":  # a dated history: it names the code as it was then
            continue
        text = page.read_text()
        assert not [m for m in moved if m in text], rel(page)


def test_every_speed_figure_has_the_machines_beside_it():
    text = (DOCS / "speed.md").read_text()
    rows = 0
    for table in re.findall(r"^\| what \| measured \| machine \| target \|\n\|[-|]+\|\n((?:\|.*\n)+)", text, re.M):
        for row in table.splitlines():
            cells = [c.strip() for c in row.strip("|").split("|")]
            assert len(cells) == 4 and cells[1] and cells[2], row
            assert re.search(r"20\d\d-\d\d-\d\d|the same run", cells[1]), row  # every figure is dated
            rows += 1
    assert rows >= 15


def test_the_tables_page_states_the_smoke_configs_algorithm():
    smoke = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    text = (DOCS / "tables.md").read_text()
    algorithm = {"dcfr": "DCFR", "cfr+": "CFR+", "pcfr+": "PCFR+"}[smoke["solve"]["algorithm"]]
    assert f"{smoke['solve']['iterations']} {algorithm} iterations" in text
    for other in {"DCFR", "CFR+", "PCFR+"} - {algorithm}:
        assert f"{smoke['solve']['iterations']} {other} iterations" not in text


# ----------------------------------------------------------------------------------------
# command examples and the shipped example files
# ----------------------------------------------------------------------------------------


def examples() -> list[list[str]]:
    """Every ``poker51 ...`` line of the command pages' shell blocks, as argv (comments dropped)."""
    out = []
    for page in COMMAND_PAGES:
        for block in code_blocks(page.read_text(), "sh"):
            for line in block.splitlines():
                if line.startswith("poker51 ") and (argv := shlex.split(line, comments=True)[1:]) not in out:
                    out.append(argv)
    return out


EXAMPLES = examples()


def cheap(argv: list[str]) -> bool:
    """Examples that take seconds and need no finished run (the others read a run or take minutes)."""
    if argv == ["--version"] or "kuhn" in argv or argv[0] == "hand":
        return True
    if argv[0] == "census":
        return "--samples" not in argv and not ("--game" in argv and argv[argv.index("--game") + 1] != "holdem")
    return argv[:2] in (["multi", "run"], ["rulebook", "run"]) and "--log" not in argv and "--phh" not in argv


CHEAP = [argv for argv in EXAMPLES if cheap(argv)]


def test_the_readme_has_an_example_of_every_command():
    readme = [
        shlex.split(line, comments=True)[1]
        for b in code_blocks(README, "sh")
        for line in b.splitlines()
        if line.startswith("poker51 ")
    ]
    assert set(readme) >= set(cli.SUBCOMMANDS)
    assert {argv[0] for argv in EXAMPLES} >= set(cli.SUBCOMMANDS)
    assert len(CHEAP) == 11  # census x5 (one counts Hold'em), kuhn, hand, multi run x2, rulebook run, --version


@pytest.mark.parametrize("argv", EXAMPLES, ids=[" ".join(a) for a in EXAMPLES])
def test_example_parses(argv):
    if argv == ["--version"]:
        return
    args = cli.build_parser(argv[0]).parse_args(argv)
    assert args.command == argv[0]


@pytest.mark.parametrize("argv", CHEAP, ids=[" ".join(a) for a in CHEAP])
def test_cheap_example_runs(argv, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name docs/examples/... from the repository root
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    if "kuhn" in argv:  # "-1/18 for the first player"
        assert json.loads(out)["value"] == pytest.approx(-1 / 18, abs=2e-3)
    elif argv[0] == "hand":  # As Ks Qs + Js Ts: the royal flush
        assert json.loads(out)["category"] == "royal_flush"
    elif argv[:2] == ["multi", "run"] and "--json" in argv:
        assert json.loads(out) == page_outputs()["side-pots"]
    elif argv[:2] == ["multi", "run"]:
        assert out.splitlines()[-1] == "jbits conserved: yes" and len(out.splitlines()) == 13
    elif argv[:2] == ["rulebook", "run"]:
        got = json.loads(out)
        assert got["final"] == {"ann": 0, "bob": 95, "cat": 52, "dan": 373} and got["rake"] == 16 and got["conserved"]
    elif "--json" in argv and "--game" in argv:
        got = json.loads(out)
        assert got["game"] == argv[argv.index("--game") + 1] and sum(got["counts"].values()) == got["hands"]
    elif "--json" in argv:
        assert json.loads(out)["deck"] == argv[argv.index("--deck") + 1]
    else:
        assert out


def named_examples() -> set[str]:
    """Every ``docs/examples/...`` file some page names (a link or a command)."""
    names = set()
    for page in PAGES:
        text = page.read_text()
        names |= set(re.findall(r"docs/examples/[\w/.-]+\.json", text))
        names |= {rel((page.parent / t).resolve()) for t in re.findall(r"\]\(((?:\.\./)*examples/[\w/.-]+)\)", text)}
    return names


def test_every_example_a_page_names_is_shipped_and_every_shipped_one_is_named():
    named = named_examples()
    shipped = {rel(p) for p in EXAMPLES_DIR.rglob("*.json")}
    assert len(shipped) >= 6
    assert named == shipped


def page_outputs() -> dict[str, object]:
    blocks = re.findall(r"```json (scenario|output)=(\S+)\n(.*?)```", (DOCS / "multi.md").read_text(), re.S)
    return {name: json.loads(body) for kind, name, body in blocks if kind == "output"}


@pytest.mark.parametrize("name", ["side-pots", "riemann"])
def test_the_shipped_multi_scenarios_are_the_pages(name):
    blocks = re.findall(r"```json (scenario|output)=(\S+)\n(.*?)```", (DOCS / "multi.md").read_text(), re.S)
    page = {n: json.loads(body) for kind, n, body in blocks if kind == "scenario"}
    shipped = EXAMPLES_DIR / "multi" / f"{name.replace('-', '_')}.json"
    assert json.loads(shipped.read_text()) == page[name]


def test_the_shipped_riemann_table_plays_logs_and_checks(tmp_path, capsys, monkeypatch):
    """``poker51 multi run docs/examples/multi/riemann.json --log results/t.log``, then ``multi check results/t.log``,
    as the command page shows them: ann ends with her 16 jbits and a 6-jbit abit score."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(EXAMPLES_DIR, tmp_path / "docs" / "examples")
    assert cli.main(["multi", "run", "docs/examples/multi/riemann.json", "--json", "--log", "results/t.log"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == page_outputs()["riemann"]
    assert got["final"]["ann"]["jbits_cents"] == 1600 and got["final"]["r1"]["abits_cents"] == 1000
    assert cli.main(["multi", "check", "results/t.log"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "PASS: 2 of 2 hands checked, 0 failures"
    log = (tmp_path / "results/t.log").read_text().splitlines()
    i = next(k for k, line in enumerate(log) if '"commitment":"' in line)  # break the first commitment
    head, tail = log[i].split('"commitment":"', 1)
    log[i] = head + '"commitment":"' + ("1" if tail[0] == "0" else "0") + tail[1:]
    (tmp_path / "results/t.log").write_text("\n".join(log) + "\n")
    assert cli.main(["multi", "check", "results/t.log"]) == 1


def test_the_multi_run_example_runs_as_a_process(tmp_path):
    """The README's ``poker51 multi run docs/examples/...`` line as a user types it, from the root."""
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    r = subprocess.run(
        [sys.executable, "-m", "poker51.cli", "multi", "run", "docs/examples/multi/side_pots.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    assert "  eve        jbits   22.33  held   0.00  abit score   0.00" in r.stdout.splitlines()


# ----------------------------------------------------------------------------------------
# results paths, the receipt, the licence
# ----------------------------------------------------------------------------------------


def dry_run_outputs(tmp: Path, *args: str) -> set[str]:
    """Every file a config's DAG writes (a forced dry run in a copy of the workflow)."""
    shutil.copy(ROOT / "Snakefile", tmp)
    for sub in ("workflow", "config"):
        shutil.copytree(ROOT / sub, tmp / sub, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    r = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--forceall", "--cores", "1", *args],
        cwd=tmp,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    files = set()
    for line in (r.stdout + r.stderr).splitlines():
        if line.strip().startswith("output: "):
            files |= set(line.split("output: ", 1)[1].split(", "))
    return files


@pytest.fixture(scope="module")
def default_outputs(tmp_path_factory) -> set[str]:
    return dry_run_outputs(tmp_path_factory.mktemp("workflow"))


def test_result_paths_are_what_the_pipeline_writes(default_outputs):
    """``results/...`` in a code block is an output of ``make run``, a folder of outputs, a
    Makefile target's file, or a file the block's own command writes (``--log``, ``--out``,
    ``--phh``, ``--save``: the user's outputs go under the ignored ``results/``);
    ``results/smoke/...`` is the same for the smoke config, whose ``results`` is
    ``results/smoke`` (so its paths are the default run's one folder down)."""
    smoke = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    assert smoke["results"] == "results/smoke"
    folders = {str(Path(*Path(f).parts[:n])) for f in default_outputs for n in range(1, len(Path(f).parts))}
    paths: dict[str, str] = {}
    written: set[str] = set()  # what an example writes itself (`--log results/t.log`), and reads back after
    for page in RESULT_PAGES:
        for block in code_blocks(page.read_text(), "sh") + code_blocks(page.read_text(), "python"):
            paths |= dict.fromkeys(re.findall(r"results/[\w./{}-]*\w", block), rel(page))
            written |= set(re.findall(r"--(?:log|out|phh|save) (results/[\w./{}-]*\w)", block))
    assert {"results/t.log", "results/hands.jsonl"} <= written
    assert {"results/tables", "results/receipt.json", "results/standard", "results/smoke/tables"} <= set(paths)
    assert "results/verify.json" in default_outputs  # the rule's, which `poker51 verify` leaves alone
    made_by_make = {"results/report.html": "report:", "results/paper.ipynb": "notebook:"}  # Makefile targets
    makefile = (ROOT / "Makefile").read_text()
    assert all(target in makefile for target in made_by_make.values())
    for p, page in paths.items():
        q = "results" + p.removeprefix("results/smoke") if (p + "/").startswith("results/smoke/") else p
        assert q in default_outputs or q in folders or q in made_by_make or p in written, (p, page)


def test_docs_place_the_receipt_where_the_pipeline_writes_it(default_outputs):
    assert "results/receipt.json" in default_outputs
    from poker51.commands import verify

    for text in ((DOCS / "tables.md").read_text(), verify.__doc__ or "", README):
        assert "tables/receipt.json" not in text and "{tables}/receipt.json" not in text
    assert "results/receipt.json" in (DOCS / "tables.md").read_text()


def test_licence_and_citation_agree_with_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n") and "WITHOUT WARRANTY OF ANY KIND" in licence
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    # the keys cffconvert requires (CFF 1.2.0 schema: cff-version, message, title, authors)
    assert cff["cff-version"] == "1.2.0" and cff["message"] and cff["title"].startswith("poker51")
    assert cff["authors"] and all(("name" in a) or ("family-names" in a) for a in cff["authors"])
    assert cff["type"] == "software" and cff["license"] == "MIT"
    assert str(cff["version"]) == project["version"] == version("poker51")
