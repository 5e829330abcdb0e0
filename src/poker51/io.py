"""Deterministic Parquet and JSON writing, hashing, and guarded reading.

Every table the pipeline writes goes through :func:`write_parquet`: the schema
comes from the frame (or is given), the pandas index is dropped, key-value
metadata is sorted and carries no timestamps, so the same frame gives the same
bytes on every run.  :func:`read_parquet` refuses a truncated or corrupted file
with an error that names the path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from poker51.errors import TableError  # re-exported: ``poker51.io.TableError`` is the same class


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and fixed separators: equal objects give equal text."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def write_parquet(
    df: pd.DataFrame,
    path: str | Path,
    metadata: Mapping[str, Any] | None = None,
    schema: pa.Schema | None = None,
) -> Path:
    """Write ``df`` byte-reproducibly; ``metadata`` values are stored as canonical JSON."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(df, schema=schema, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta.pop(b"pandas", None)  # holds library versions of the writer, not data
    for key, value in sorted((metadata or {}).items()):
        meta[f"poker51.{key}".encode()] = canonical_json(value).encode()
    table = table.replace_schema_metadata(dict(sorted(meta.items())))
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd", write_statistics=False)
    tmp.replace(path)
    return path


def read_parquet(path: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """Read a table, raising :class:`TableError` naming ``path`` if it cannot be read."""
    path = Path(path)
    if not path.exists():
        raise TableError(f"{path}: no such table")
    if path.is_dir():
        raise TableError(f"{path}: is a directory, not a table file")
    try:
        return pq.read_table(path, columns=columns).to_pandas()
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise TableError(f"{path}: not a readable Parquet table ({exc})") from exc


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The ``poker51.*`` key-value metadata of a table, decoded from JSON."""
    path = Path(path)
    try:
        meta = pq.read_schema(path).metadata or {}
    except (pa.ArrowException, OSError) as exc:
        raise TableError(f"{path}: not a readable Parquet table ({exc})") from exc
    out = {}
    for k, v in meta.items():
        key = k.decode()
        if key.startswith("poker51."):
            out[key[len("poker51.") :]] = json.loads(v.decode())
    return out


def check_metadata(
    path: str | Path, expected: Mapping[str, Any], what: str = "table", source: str = "asked for"
) -> dict[str, Any]:
    """The metadata of the table at ``path`` (:func:`read_metadata`), refused with one line
    (:class:`TableError` naming the path, the key, what it holds and what was asked) when a key
    of ``expected`` that the metadata carries holds another value: the classes of the wild
    variant given for the standard one, a table of another bucket count; ``source`` says where
    the expected values come from (default: the caller asked for them).  A key the metadata
    does not carry (a table written outside the pipeline) is not checked.

    >>> import tempfile, pandas as pd
    >>> p = write_parquet(pd.DataFrame({"a": [1]}), Path(tempfile.mkdtemp()) / "classes.parquet", {"variant": "wild"})
    >>> check_metadata(p, {"variant": "wild"})["variant"]
    'wild'
    >>> check_metadata(p, {"variant": "standard"}, "class table")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    poker51.errors.TableError: .../classes.parquet: the class table of variant wild (poker51.variant), not of ...
    """
    meta = read_metadata(path)
    for key, want in expected.items():
        if key in meta and want is not None and meta[key] != want:
            if key == "variant":
                raise TableError(
                    f"{path}: the {what} of variant {meta[key]} (poker51.variant), not of {want} ({source})"
                )
            raise TableError(f"{path}: a {what} with {key} = {meta[key]!r} (poker51.{key}), not {want!r} ({source})")
    return meta


def write_json(obj: Any, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    tmp = path.with_name(path.name + ".tmp")  # renamed when complete: an interrupt leaves no half file
    tmp.write_text(text)
    tmp.replace(path)
    return path
