"""The receipt: config, package versions, seeds and the SHA-256 of every reproducible file
(SPEC section 8), and the checks that a file is the one a receipt names.
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from poker51.export.schema import StrategyTableError
from poker51.io import sha256_file, write_json

RECEIPT_FORMAT = "poker51-receipt/1"
#: the packages named in provenance and receipts
PACKAGES = ("numpy", "numba", "pandas", "pyarrow", "poker51")


def package_versions() -> dict[str, str]:
    """Python and the versions of :data:`PACKAGES`."""
    out = {"python": platform.python_version()}
    for p in PACKAGES:
        try:
            out[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            out[p] = "not installed"
    return out


def receipt(paths: Iterable[str | Path], config: Mapping[str, Any], seeds: Mapping[str, Any]) -> dict[str, Any]:
    """``{"format", "config", "packages", "seeds", "files": {path: sha256}}`` (no timestamps:
    the same files and inputs give the same receipt).  Paths are stored as given (POSIX)."""
    files = {}
    for p in paths:
        p = Path(p)
        if not p.is_file():
            raise FileNotFoundError(f"{p}: cannot hash a file that does not exist")
        files[p.as_posix()] = sha256_file(p)
    return {
        "format": RECEIPT_FORMAT,
        "config": dict(config),
        "packages": package_versions(),
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
