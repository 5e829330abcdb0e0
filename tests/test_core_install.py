"""The slim core: ``pip install poker51`` (no extras) in a fresh venv plays Riemann from exported tables.

The venv gets the package built from a copy of ``src/`` and ``pyproject.toml`` with its core
dependencies resolved by pip, at the lock's versions (``-c requirements/lock.txt``; pip's usual
indexes or its cache).  It must hold NumPy, pandas and pyarrow and none of the pipeline's packages,
and it must play 300 hands from the Parquet and the JSON tables exactly as the project's venv does
(same hand logs, byte for byte).  About a minute; ``make test`` runs it once.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import exported_standard

ROOT = Path(__file__).resolve().parents[1]
PIPELINE_ONLY = {"numba", "llvmlite", "scipy", "matplotlib", "snakemake", "tqdm", "pyyaml", "jsonschema"}


def run(*cmd: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, timeout=1200)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("core")
    pkg = root / "pkg"
    shutil.copytree(ROOT / "src", pkg / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, pkg / name)
    venv = root / "venv"
    run(sys.executable, "-m", "venv", venv)
    # --no-compile: no .pyc files written for NumPy, pandas and pyarrow (a third of the install's time)
    run(venv / "bin" / "pip", "install", "--quiet", "--no-compile", "-c", ROOT / "requirements" / "lock.txt", pkg)
    return venv


def test_core_install_holds_only_the_core(core_venv):
    code = "import importlib.metadata as m; print(' '.join(d.metadata['Name'].lower() for d in m.distributions()))"
    names = run(core_venv / "bin" / "python", "-c", code).split()
    assert {"numpy", "pandas", "pyarrow", "poker51"} <= set(names)
    assert not PIPELINE_ONLY & set(names), sorted(PIPELINE_ONLY & set(names))
    assert len(names) < 15, names  # pip, numpy, pandas, pyarrow, python-dateutil, six, tzdata, poker51


def test_core_plays_the_exported_tables_like_the_pipeline(core_venv):
    files = exported_standard()
    args = [files.parquet, files.json, files.receipt, files.classes, files.buckets, 300]
    core = json.loads(run(core_venv / "bin" / "python", ROOT / "tests" / "core_play.py", *args, cwd=core_venv.parent))
    full = json.loads(run(sys.executable, ROOT / "tests" / "core_play.py", *args, cwd=core_venv.parent))
    assert core == full
    assert core["heavy_modules"] == [] and core["parquet"]["hands"] == 300 and core["parquet"]["showdowns"] > 20
    assert core["json"] == core["parquet"]  # the rounded JSON table plays the same hands
