"""The receipt: config, package versions, the git commit, seeds and the SHA-256 of every
reproducible file (SPEC section 8), and the checks that a file is the one a receipt names.

The receipt names every package whose version can change an output byte (:data:`RECEIPT_PACKAGES`:
the kernels' NumPy and Numba, SciPy's statistics, pandas and pyarrow's Parquet writer, Matplotlib's
figures, Snakemake, poker51 and Python) and the commit of the poker51 source tree with whether the
tree had uncommitted changes (:func:`git_state`).  It holds no time and no path outside the results,
so the same checkout, environment and inputs give the same receipt, byte for byte.
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from poker51.export.schema import StrategyTableError
from poker51.io import sha256_file, write_json

RECEIPT_FORMAT = "poker51-receipt/2"
#: the packages named in a strategy table's provenance (its bytes depend on these)
PACKAGES = ("numpy", "numba", "pandas", "pyarrow", "poker51")
#: the packages named in the receipt: every one that shapes an output (tables, figures, the DAG)
RECEIPT_PACKAGES = ("numpy", "numba", "scipy", "pandas", "pyarrow", "matplotlib", "snakemake", "poker51")


def package_versions(packages: Iterable[str] = PACKAGES) -> dict[str, str]:
    """Python and the installed versions of ``packages`` (``"not installed"`` if absent)."""
    out = {"python": platform.python_version()}
    for p in packages:
        try:
            out[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            out[p] = "not installed"
    return out


def git_state(source: str | Path | None = None) -> dict[str, Any]:
    """``{"commit": sha, "dirty": bool}`` of the git work tree holding ``source`` (default: the
    poker51 package's own source); ``dirty`` means tracked changes or untracked files that are
    not ignored (results and logs are ignored).  Outside a work tree, or without git, both are
    ``None``."""
    where = Path(source) if source is not None else Path(__file__).resolve().parent

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(where), *args], capture_output=True, text=True, timeout=60, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain") if commit else None
    if commit is None or status is None:
        return {"commit": None, "dirty": None}
    return {"commit": commit.strip(), "dirty": bool(status.strip())}


def receipt(
    paths: Iterable[str | Path],
    config: Mapping[str, Any],
    seeds: Mapping[str, Any],
    git: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``{"format", "config", "packages", "git", "seeds", "files": {path: sha256}}`` (no
    timestamps: the same checkout, files and inputs give the same receipt).  Paths are stored as
    given (POSIX); ``git`` defaults to :func:`git_state` of the package source."""
    files = {}
    for p in paths:
        p = Path(p)
        if not p.is_file():
            raise FileNotFoundError(f"{p}: cannot hash a file that does not exist")
        files[p.as_posix()] = sha256_file(p)
    return {
        "format": RECEIPT_FORMAT,
        "config": dict(config),
        "packages": package_versions(RECEIPT_PACKAGES),
        "git": dict(git_state() if git is None else git),
        "seeds": dict(seeds),
        "files": dict(sorted(files.items())),
    }


def write_receipt(
    path: str | Path, paths: Iterable[str | Path], config: Mapping[str, Any], seeds: Mapping[str, Any]
) -> dict[str, Any]:
    """Write :func:`receipt` as sorted, indented JSON to ``path``; returns it."""
    r = receipt(paths, config, seeds)
    write_json(r, path)
    return r


def load_receipt(receipt_or_path: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(receipt_or_path, Mapping):
        return dict(receipt_or_path)
    p = Path(receipt_or_path)
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StrategyTableError(f"{p}: not a readable receipt ({exc})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("files"), dict):
        raise StrategyTableError(f"{p}: not a receipt (no 'files' map)")
    return obj


def receipt_hash(rec: Mapping[str, Any], path: str | Path) -> str | None:
    """The SHA-256 a receipt records for ``path``: the entry whose path resolves to the same
    file, else the only entry with the same file name; None if there is none."""
    files = rec.get("files", {})
    p = Path(path)
    for k, v in files.items():
        if Path(k) == p or Path(k).resolve() == p.resolve():
            return v
    same = [v for k, v in files.items() if Path(k).name == p.name]
    return same[0] if len(same) == 1 else None


def check_hash(path: str | Path, rec: Mapping[str, Any]) -> str:
    """Return the file's SHA-256, raising :class:`StrategyTableError` unless the receipt
    records exactly that hash for it."""
    want = receipt_hash(rec, path)
    if want is None:
        raise StrategyTableError(f"{path}: not listed in the receipt")
    got = sha256_file(path)
    if got != want:
        raise StrategyTableError(f"{path}: SHA-256 {got} does not match the receipt's {want}")
    return got
