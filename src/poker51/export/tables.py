"""Riemann's strategy tables: the one table shape, its writers, its checks and the receipt.

SPEC section 7; rule card "How Riemann bets · v0.6", points 1–3.  One row per Riemann
information set of the abstract game (:mod:`poker51.games.abstract`), whose key
``("R", street, d4, k, pre_line, post_line, state)`` becomes the index columns:

============  =========  ===================================================================
column        type       meaning
============  =========  ===================================================================
street        int8       0 before the draw, 1 after it
spot          category   what Riemann faces (:data:`SPOTS`): ``bet`` H's opening bet;
                         ``checked`` H checked to it; ``raised`` H raised Riemann's bet of 2;
                         ``reraised`` H re-raised Riemann's raise
h_bet         int8       what Riemann must call: H's opening bet 1/2/4/8 (``bet``,
                         ``reraised``: the re-raise is by the same amount), 2 (``raised``:
                         H's raise of Riemann's bet of 2), 0 (``checked``)
h_draw        int8       H's draw count as Riemann reads it, 0..4 (five read as four)
r_draw        int8       Riemann's own House draw count after the draw; -1 before it
pre_line      string     before the draw: the round's betting so far; after it: the whole
                         pre-draw line (tokens joined by ``-``, see below)
post_line     string     after the draw: the round's betting so far; ``""`` before it
class         int16      Riemann's dealt-hand class before the draw; -1 after it
bucket        int8       Riemann's final-hand bucket (0 weakest) after the draw; -1 before
fold .. bet   float64    probability of each action (:data:`ACTION_COLUMNS`); 0 for an
                         action the spot does not offer; each row sums to 1
============  =========  ===================================================================

Tokens: ``x`` check, ``b1 b2 b4 b8`` bet, ``c`` call, ``r`` raise or re-raise.  Riemann's
lines are ``x``, ``x-b2-r``, ``b{n}``, ``b{n}-r-r`` within a round; a completed pre-draw line
is ``x-x``, ``x-b2-c``, ``x-b2-r-c``, ``b{n}-c``, ``b{n}-r-c`` or ``b{n}-r-r-c``.

Rows are sorted by :data:`INDEX_COLUMNS` in that order (``spot`` by its category code, which
is alphabetical).  :data:`TABLE_SCHEMA` is the Parquet schema; :func:`write_table` adds the
provenance and a content digest to the key-value metadata and :func:`read_table` refuses a
file whose schema, digest or rows are not a table's.  :func:`to_json` writes the same rows
as JSON for the JavaScript game server (``docs/tables.md``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from poker51.io import TableError, canonical_json, read_metadata, sha256_file, write_json, write_parquet

TABLE_FORMAT = "poker51-riemann-table/1"
RECEIPT_FORMAT = "poker51-receipt/1"
#: spot categories, alphabetical (so sorting by category code is sorting by name)
SPOTS = ("bet", "checked", "raised", "reraised")
#: actions of each spot, in the abstract game's action order (:mod:`poker51.games.abstract`)
SPOT_ACTIONS = {
    "bet": ("fold", "call", "raise"),
    "checked": ("check", "bet"),
    "raised": ("fold", "call"),
    "reraised": ("fold", "call"),
}
INDEX_COLUMNS = ("street", "spot", "h_bet", "h_draw", "r_draw", "pre_line", "post_line", "class", "bucket")
ACTION_COLUMNS = ("fold", "call", "raise", "check", "bet")
TABLE_COLUMNS = INDEX_COLUMNS + ACTION_COLUMNS
SPOT_DTYPE = pd.CategoricalDtype(list(SPOTS), ordered=False)
TABLE_SCHEMA = pa.schema(
    [pa.field("street", pa.int8(), nullable=False),
     pa.field("spot", pa.dictionary(pa.int8(), pa.string()), nullable=False),
     pa.field("h_bet", pa.int8(), nullable=False),
     pa.field("h_draw", pa.int8(), nullable=False),
     pa.field("r_draw", pa.int8(), nullable=False),
     pa.field("pre_line", pa.string(), nullable=False),
     pa.field("post_line", pa.string(), nullable=False),
     pa.field("class", pa.int16(), nullable=False),
     pa.field("bucket", pa.int8(), nullable=False)]
    + [pa.field(a, pa.float64(), nullable=False) for a in ACTION_COLUMNS]
)  # fmt: skip
_INT_DTYPES = {
    "street": "int8",
    "h_bet": "int8",
    "h_draw": "int8",
    "r_draw": "int8",
    "class": "int16",
    "bucket": "int8",
}
BETS = (1, 2, 4, 8)
#: probability rows are accepted when they sum to 1 within this (export writes them within 1e-12)
SUM_TOLERANCE = 1e-9
#: the packages named in provenance and receipts
PACKAGES = ("numpy", "numba", "pandas", "pyarrow", "poker51")


class StrategyTableError(TableError):
    """A strategy table that is not one: wrong schema, digest, rows or hash (names the file)."""


# --------------------------------------------------------------------------- spots
def spot_of_line(line: str) -> tuple[str, int]:
    """(spot, h_bet) of Riemann's decision after the round's betting ``line``.

    >>> spot_of_line("b4"), spot_of_line("x"), spot_of_line("x-b2-r"), spot_of_line("b8-r-r")
    (('bet', 4), ('checked', 0), ('raised', 2), ('reraised', 8))
    """
    t = line.split("-")
    if t == ["x"]:
        return "checked", 0
    if t == ["x", "b2", "r"]:
        return "raised", 2
    if t[0] in ("b1", "b2", "b4", "b8"):
        if len(t) == 1:
            return "bet", int(t[0][1:])
        if t[1:] == ["r", "r"]:
            return "reraised", int(t[0][1:])
    raise ValueError(f"{line!r} is not a line at which Riemann acts")


def completed_pre_lines() -> tuple[str, ...]:
    """The pre-draw lines after which both players reach the draw (15)."""
    out = ["x-x", "x-b2-c", "x-b2-r-c"]
    for b in BETS:
        out += [f"b{b}-c", f"b{b}-r-c", f"b{b}-r-r-c"]
    return tuple(out)


def decision_lines() -> tuple[str, ...]:
    """The round lines at which Riemann acts (10)."""
    return ("x", "x-b2-r") + tuple(f"b{b}" for b in BETS) + tuple(f"b{b}-r-r" for b in BETS)


# --------------------------------------------------------------------------- the table
def strategy_table(game, policy: np.ndarray, ab, variant: str) -> pd.DataFrame:
    """Riemann's rows of ``policy`` in a :func:`poker51.games.abstract.build_game` game.

    ``game.iset_keys[i] = (player, key)``; Riemann (player 1) keys are
    ``("R", street, d4, k, pre_line, post_line, state)``; the actions of information set
    ``i`` are ``policy[act_off[i]:act_off[i+1]]`` in the order of :data:`SPOT_ACTIONS`.
    ``ab`` is the variant's :class:`~poker51.games.abstract.AbstractionArrays` (its class and bucket
    counts bound the states).  Returns the sorted table with exact dtypes (module docstring).
    """
    if getattr(ab, "variant", variant) != variant:
        raise ValueError(f"abstraction is for {ab.variant!r}, not {variant!r}")
    policy = np.asarray(policy, dtype=np.float64)
    act_off = game.arrays.act_off
    if policy.shape != (int(act_off[-1]),):
        raise ValueError(f"policy has shape {policy.shape}, the game has {int(act_off[-1])} actions")
    cols: dict[str, list] = {c: [] for c in TABLE_COLUMNS}
    for i, (player, key) in enumerate(game.iset_keys):
        if player != 1:
            continue
        _, street, d4, k, pre, post, state = key
        spot, h_bet = spot_of_line(pre if street == 0 else post)
        probs = policy[act_off[i] : act_off[i + 1]]
        names = SPOT_ACTIONS[spot]
        if len(probs) != len(names):
            raise ValueError(f"information set {key} has {len(probs)} actions, spot {spot} has {len(names)}")
        if street == 0 and not 0 <= state < ab.n_classes or street == 1 and not 0 <= state < ab.n_buckets:
            raise ValueError(f"information set {key} has state {state} outside the abstraction")
        s = float(probs.sum())
        if abs(s - 1.0) > 1e-12 or probs.min() < 0:
            raise ValueError(f"information set {key}: probabilities {probs.tolist()} do not sum to 1")
        row = dict(
            street=street,
            spot=spot,
            h_bet=h_bet,
            h_draw=d4,
            r_draw=k,
            pre_line=pre,
            post_line=post,
            **{"class": state if street == 0 else -1, "bucket": state if street == 1 else -1},
        )
        row.update({a: 0.0 for a in ACTION_COLUMNS})
        row.update(zip(names, probs.tolist()))
        for c in TABLE_COLUMNS:
            cols[c].append(row[c])
    return _frame(cols)


def _frame(cols: Mapping[str, Sequence]) -> pd.DataFrame:
    df = pd.DataFrame({c: cols[c] for c in TABLE_COLUMNS})
    df = df.astype(_INT_DTYPES)
    df["spot"] = df["spot"].astype(str).astype(SPOT_DTYPE)
    for c in ("pre_line", "post_line"):
        df[c] = df[c].astype(str)
    for a in ACTION_COLUMNS:
        df[a] = df[a].astype("float64")
    return df.sort_values(list(INDEX_COLUMNS), kind="stable").reset_index(drop=True)


def content_digest(df: pd.DataFrame) -> str:
    """SHA-256 of the table's values, column by column (int/float little-endian bytes,
    strings newline-joined UTF-8); independent of the file encoding, stored in the metadata."""
    h = hashlib.sha256()
    for c in TABLE_COLUMNS:
        h.update(c.encode() + b"\0")
        if c in _INT_DTYPES or c in ACTION_COLUMNS:
            dt = np.dtype(_INT_DTYPES.get(c, "float64")).newbyteorder("<")
            h.update(np.ascontiguousarray(df[c].to_numpy(), dtype=dt).tobytes())
        else:
            h.update("\n".join(df[c].astype(str).tolist()).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def check_table(df: pd.DataFrame, name: str = "<table>") -> None:
    """Raise :class:`StrategyTableError` (message starts with ``name``) unless ``df`` is a
    strategy table: exact columns and dtypes, consistent spots, unique sorted index,
    probabilities in [0, 1], zero off the spot's actions, rows summing to 1."""

    def bad(what: str) -> StrategyTableError:
        return StrategyTableError(f"{name}: {what}")

    if tuple(df.columns) != TABLE_COLUMNS:
        raise bad(f"columns {list(df.columns)} are not {list(TABLE_COLUMNS)}")
    for c, dt in _INT_DTYPES.items():
        if df[c].dtype != np.dtype(dt):
            raise bad(f"column {c} has dtype {df[c].dtype}, not {dt}")
    if not isinstance(df["spot"].dtype, pd.CategoricalDtype) or list(df["spot"].cat.categories) != list(SPOTS):
        raise bad(f"column spot is not a category of {list(SPOTS)}")
    if df["spot"].isna().any():
        raise bad("column spot has missing values")
    if len(df) == 0:
        raise bad("no rows")
    P = df[list(ACTION_COLUMNS)].to_numpy(np.float64)
    if not np.isfinite(P).all() or (P < 0).any() or (P > 1).any():
        r = int(np.flatnonzero(~(np.isfinite(P) & (P >= 0) & (P <= 1)).all(axis=1))[0])
        raise bad(f"row {r} has a probability outside [0, 1]: {P[r].tolist()}")
    sums = P.sum(axis=1)
    off = np.flatnonzero(np.abs(sums - 1.0) > SUM_TOLERANCE)
    if off.size:
        raise bad(f"{off.size} rows do not sum to 1 (row {int(off[0])} sums to {sums[off[0]]!r})")
    street = df["street"].to_numpy()
    if not np.isin(street, (0, 1)).all():
        raise bad("street is not 0 or 1")
    pre, post = df["pre_line"].to_numpy(object), df["post_line"].to_numpy(object)
    spots = df["spot"].astype(str).to_numpy(object)
    h_bet = df["h_bet"].to_numpy()
    cache: dict[str, tuple[str, int]] = {}
    for r in range(len(df)):
        line = pre[r] if street[r] == 0 else post[r]
        if line not in cache:
            try:
                cache[line] = spot_of_line(line)
            except ValueError as exc:
                raise bad(f"row {r}: {exc}") from None
        if cache[line] != (spots[r], h_bet[r]):
            raise bad(f"row {r}: spot {spots[r]}/{h_bet[r]} does not match line {line!r}")
    for spot, names in SPOT_ACTIONS.items():
        others = [ACTION_COLUMNS.index(a) for a in ACTION_COLUMNS if a not in names]
        sel = spots == spot
        if (P[np.ix_(sel, others)] != 0).any():
            raise bad(f"a {spot} row gives probability to an action the spot does not offer")
    s0 = street == 0
    chk = {
        "h_draw in 0..4": df["h_draw"].between(0, 4).all(),
        "r_draw -1 before the draw, 0..4 after": ((df["r_draw"] == -1) == s0).all()
        and df["r_draw"].between(-1, 4).all(),
        "class >= 0 exactly before the draw": ((df["class"] >= 0) == s0).all(),
        "bucket >= 0 exactly after the draw": ((df["bucket"] >= 0) == ~s0).all(),
        "post_line empty exactly before the draw": ((df["post_line"] == "") == s0).all(),
    }
    for what, ok in chk.items():
        if not ok:
            raise bad(f"violates {what}")
    key = df[list(INDEX_COLUMNS)]
    if key.duplicated().any():
        raise bad(f"index not unique: row {int(np.flatnonzero(key.duplicated().to_numpy())[0])} repeats a key")
    order = key.sort_values(list(INDEX_COLUMNS), kind="stable").index.to_numpy()
    if not np.array_equal(order, np.arange(len(df))):
        raise bad("rows are not sorted by the index columns")


# --------------------------------------------------------------------------- files
def package_versions() -> dict[str, str]:
    """Python and the versions of :data:`PACKAGES`."""
    out = {"python": platform.python_version()}
    for p in PACKAGES:
        try:
            out[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            out[p] = "not installed"
    return out


def write_table(df: pd.DataFrame, path: str | Path, provenance: Mapping[str, Any]) -> Path:
    """Write a checked table to Parquet (``poker51.io.write_parquet``, schema
    :data:`TABLE_SCHEMA`).  The key-value metadata holds ``provenance`` (expected: variant,
    p, iterations, exploitability, config hash, seeds), the package versions, the format
    and the :func:`content_digest`; ``provenance["variant"]`` is required."""
    if "variant" not in provenance:
        raise ValueError("provenance must name the variant")
    check_table(df, str(path))
    meta = {
        "provenance": dict(provenance),
        "packages": package_versions(),
        "format": TABLE_FORMAT,
        "content_sha256": content_digest(df),
        "rows": len(df),
        "variant": provenance["variant"],
    }
    return write_parquet(df, path, metadata=meta, schema=TABLE_SCHEMA)


def read_table(path: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(table, metadata) of a Parquet strategy table, refusing with
    :class:`StrategyTableError` (naming ``path``) a missing, truncated, corrupted or foreign
    file: unreadable bytes, a schema other than :data:`TABLE_SCHEMA`, a content digest
    that does not match its rows, or rows that fail :func:`check_table`."""
    path = Path(path)
    if not path.is_file():
        raise StrategyTableError(f"{path}: no such table")
    try:
        table = pq.read_table(path)
        meta = read_metadata(path)
    except (pa.ArrowException, OSError, ValueError, UnicodeDecodeError) as exc:
        raise StrategyTableError(f"{path}: not a readable Parquet table ({exc})") from None
    if not table.schema.remove_metadata().equals(TABLE_SCHEMA):
        raise StrategyTableError(f"{path}: schema is not the strategy table's ({table.schema.remove_metadata()})")
    if meta.get("format") != TABLE_FORMAT:
        raise StrategyTableError(f"{path}: metadata format {meta.get('format')!r} is not {TABLE_FORMAT!r}")
    try:
        df = table.to_pandas()
    except (pa.ArrowException, ValueError) as exc:
        raise StrategyTableError(f"{path}: rows cannot be decoded ({exc})") from None
    df["spot"] = df["spot"].astype(str).astype(SPOT_DTYPE) if df["spot"].notna().all() else df["spot"]
    check_table(df, str(path))
    if content_digest(df) != meta.get("content_sha256"):
        raise StrategyTableError(f"{path}: content digest does not match the metadata (corrupted rows)")
    if meta.get("rows") != len(df):
        raise StrategyTableError(f"{path}: {len(df)} rows, the metadata says {meta.get('rows')}")
    return df, meta


def to_json(df: pd.DataFrame, path: str | Path, provenance: Mapping[str, Any] | None = None) -> Path:
    """The same table as JSON for the game server: an object with ``format``,
    ``columns``, ``actions``, ``spot_actions``, ``content_sha256``, ``provenance`` and
    ``rows`` (one record per row, keys sorted, one row per line; floats in shortest
    round-trip form).  Deterministic: the same frame gives the same bytes."""
    check_table(df, str(path))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {
        "format": TABLE_FORMAT,
        "columns": list(TABLE_COLUMNS),
        "index_columns": list(INDEX_COLUMNS),
        "actions": list(ACTION_COLUMNS),
        "spot_actions": {k: list(v) for k, v in SPOT_ACTIONS.items()},
        "content_sha256": content_digest(df),
        "provenance": dict(provenance or {}),
    }
    text = canonical_json(head)[:-1] + ',"rows":[\n'
    text += ",\n".join(_json_records(df))
    text += "\n]}\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def _json_records(df: pd.DataFrame) -> list[str]:
    """One canonical JSON object per row (keys sorted, compact; what ``canonical_json``
    gives for the row's dict), built column-wise for speed."""
    parts = []
    for c in sorted(TABLE_COLUMNS):
        if c in ACTION_COLUMNS:
            enc = [repr(float(v)) for v in df[c].tolist()]  # json's float form: shortest round trip
        elif c in _INT_DTYPES:
            enc = [str(int(v)) for v in df[c].tolist()]
        else:
            vals = df[c].astype(str).tolist()
            memo = {v: json.dumps(v, ensure_ascii=False) for v in set(vals)}
            enc = [memo[v] for v in vals]
        key = json.dumps(c) + ":"
        parts.append([key + e for e in enc])
    return ["{" + ",".join(row) + "}" for row in zip(*parts)]


def read_json_table(path: str | Path) -> pd.DataFrame:
    """The rows of a :func:`to_json` file as a table frame (checked)."""
    obj = json.loads(Path(path).read_text(encoding="utf-8"))
    cols = {c: [r[c] for r in obj["rows"]] for c in TABLE_COLUMNS}
    df = _frame(cols)
    check_table(df, str(path))
    return df


#: file name of a variant's published table (without extension)
TABLE_STEM = "riemann-v06-{variant}"


def table_path(tables_dir: str | Path, variant: str, ext: str = "parquet") -> Path:
    """Where a variant's table lives in a tables directory: ``{dir}/riemann-v06-{variant}.{ext}``.

    >>> table_path("results/tables", "wild").as_posix()
    'results/tables/riemann-v06-wild.parquet'
    """
    return Path(tables_dir) / (TABLE_STEM.format(variant=variant) + f".{ext}")


def export_tables(
    game, policy: np.ndarray, ab, variant: str, tables_dir: str | Path, provenance: Mapping[str, Any]
) -> list[Path]:
    """Write the variant's table as Parquet and JSON (:func:`table_path`); returns both paths."""
    df = strategy_table(game, policy, ab, variant)
    prov = {**provenance, "variant": variant}
    return [
        write_table(df, table_path(tables_dir, variant), prov),
        to_json(df, table_path(tables_dir, variant, "json"), prov),
    ]


# --------------------------------------------------------------------------- receipt
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


__all__ = [
    "ACTION_COLUMNS", "INDEX_COLUMNS", "SPOTS", "SPOT_ACTIONS", "SPOT_DTYPE", "StrategyTableError", "TABLE_COLUMNS",
    "TABLE_FORMAT", "TABLE_SCHEMA", "check_hash", "check_table", "completed_pre_lines", "content_digest",
    "decision_lines", "export_tables", "load_receipt", "package_versions", "read_json_table", "read_table",
    "receipt", "receipt_hash", "spot_of_line", "strategy_table", "table_path", "to_json", "write_receipt",
    "write_table",
]  # fmt: skip
