"""Docs that match the code (issue 9): the README's command examples parse, the cheap ones run,
every ``results/...`` path in a README code block is one the default pipeline writes; the
licence and the citation file are there and agree with the package."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

from poker51 import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def code_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def examples() -> list[list[str]]:
    """Every ``poker51 ...`` line of the README's shell blocks, as argv (comments dropped)."""
    out = []
    for block in code_blocks("sh"):
        for line in block.splitlines():
            if line.startswith("poker51 "):
                out.append(shlex.split(line, comments=True)[1:])
    return out


EXAMPLES = examples()
#: examples that take about a second; the others read a finished run or take minutes
CHEAP = [argv for argv in EXAMPLES if argv[0] == "census" or "kuhn" in argv or argv == ["--version"]]


def test_the_readme_has_an_example_of_every_command():
    assert {argv[0] for argv in EXAMPLES} >= set(cli.SUBCOMMANDS)
    assert len(CHEAP) == 8  # two of them count a rule book game (census --game)


@pytest.mark.parametrize("argv", EXAMPLES, ids=[" ".join(a) for a in EXAMPLES])
def test_readme_example_parses(argv):
    if argv == ["--version"]:
        return
    args = cli.build_parser(argv[0]).parse_args(argv)
    assert args.command == argv[0]


@pytest.mark.parametrize("argv", CHEAP, ids=[" ".join(a) for a in CHEAP])
def test_cheap_readme_example_runs(argv, capsys):
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    if "kuhn" in argv:  # "-1/18 for the first player"
        assert json.loads(out)["value"] == pytest.approx(-1 / 18, abs=2e-3)
    elif "--json" in argv and "--game" in argv:
        got = json.loads(out)
        assert got["game"] == argv[argv.index("--game") + 1] and sum(got["counts"].values()) == got["hands"]
    elif "--json" in argv:
        assert json.loads(out)["deck"] == argv[argv.index("--deck") + 1]
    else:
        assert out


@pytest.fixture(scope="module")
def default_outputs(tmp_path_factory) -> set[str]:
    """Every file the default config's DAG writes (a forced dry run in a copy of the workflow)."""
    d = tmp_path_factory.mktemp("workflow")
    shutil.copy(ROOT / "Snakefile", d)
    for sub in ("workflow", "config"):
        shutil.copytree(ROOT / sub, d / sub, ignore=shutil.ignore_patterns("__pycache__"))
    r = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--forceall", "--cores", "1"], cwd=d, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr[-3000:]
    files = set()
    for line in (r.stdout + r.stderr).splitlines():
        if line.strip().startswith("output: "):
            files |= set(line.split("output: ", 1)[1].split(", "))
    return files


def test_readme_paths_are_what_the_pipeline_writes(default_outputs):
    """``results/...`` in a README code block is an output of ``make run`` or a folder of outputs."""
    folders = {str(Path(*Path(f).parts[:n])) for f in default_outputs for n in range(1, len(Path(f).parts))}
    paths = set()
    for block in code_blocks("sh") + code_blocks("python"):
        paths |= set(re.findall(r"results/[\w./{}-]*\w", block))
    assert {"results/tables", "results/receipt.json", "results/standard"} <= paths
    assert "results/verify.json" in default_outputs  # the rule's, which `poker51 verify` leaves alone
    made_by_make = {"results/report.html": "report:", "results/paper.ipynb": "notebook:"}  # Makefile targets
    makefile = (ROOT / "Makefile").read_text()
    assert all(target in makefile for target in made_by_make.values())
    missing = sorted(p for p in paths if p not in default_outputs and p not in folders and p not in made_by_make)
    assert not missing, missing


def test_docs_place_the_receipt_where_the_pipeline_writes_it(default_outputs):
    assert "results/receipt.json" in default_outputs
    from poker51.commands import verify

    for text in ((ROOT / "docs" / "tables.md").read_text(), verify.__doc__ or "", README):
        assert "tables/receipt.json" not in text and "{tables}/receipt.json" not in text
    assert "results/receipt.json" in (ROOT / "docs" / "tables.md").read_text()


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
