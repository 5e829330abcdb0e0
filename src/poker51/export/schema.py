"""Riemann's strategy tables: the one table shape, defined once, and its reading and checks.

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
                         (int16 in a table of more than 127 buckets, which only the
                         abstraction-size study builds and plays in memory: the file
                         format holds int8, :func:`poker51.rules.bucket_dtype`)
fold .. bet   float64    probability of each action (:data:`ACTION_COLUMNS`); 0 for an
                         action the spot does not offer; each row sums to 1
============  =========  ===================================================================

Tokens: ``x`` check, ``b1 b2 b4 b8`` bet, ``c`` call, ``r`` raise or re-raise.  Riemann's
lines are ``x``, ``x-b2-r``, ``b{n}``, ``b{n}-r-r`` within a round; a completed pre-draw line
is ``x-x``, ``x-b2-c``, ``x-b2-r-c``, ``b{n}-c``, ``b{n}-r-c`` or ``b{n}-r-r-c``.

Rows are sorted by :data:`INDEX_COLUMNS` in that order (``spot`` by its category code, which
is alphabetical).  :data:`TABLE_SCHEMA` is the Parquet schema;
:func:`poker51.export.tables.write_table` adds the provenance and a content digest to the
key-value metadata and :func:`read_table` refuses a file whose bytes, schema, digest or rows
are not a table's.  :func:`poker51.export.compact.to_json` writes the same rows as compact JSON for the
JavaScript game server (``docs/tables.md``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from poker51.io import TableError, read_metadata
from poker51.rules import BET_SIZES, RIEMANN_BET, bucket_dtype, table_stem

TABLE_FORMAT = "poker51-riemann-table/1"
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
INT_DTYPES = {
    "street": "int8",
    "h_bet": "int8",
    "h_draw": "int8",
    "r_draw": "int8",
    "class": "int16",
    "bucket": "int8",
}
#: the four bytes that open and close every Parquet file
PARQUET_MAGIC = b"PAR1"
#: probability rows are accepted when they sum to 1 within this (export writes them within 1e-12)
SUM_TOLERANCE = 1e-9


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
    if t == ["x", f"b{RIEMANN_BET}", "r"]:
        return "raised", RIEMANN_BET
    if t[0] in tuple(f"b{b}" for b in BET_SIZES):
        if len(t) == 1:
            return "bet", int(t[0][1:])
        if t[1:] == ["r", "r"]:
            return "reraised", int(t[0][1:])
    raise ValueError(f"{line!r} is not a line at which Riemann acts")


def completed_pre_lines() -> tuple[str, ...]:
    """The pre-draw lines after which both players reach the draw (15)."""
    out = ["x-x", f"x-b{RIEMANN_BET}-c", f"x-b{RIEMANN_BET}-r-c"]
    for b in BET_SIZES:
        out += [f"b{b}-c", f"b{b}-r-c", f"b{b}-r-r-c"]
    return tuple(out)


def decision_lines() -> tuple[str, ...]:
    """The round lines at which Riemann acts (10)."""
    return ("x", f"x-b{RIEMANN_BET}-r") + tuple(f"b{b}" for b in BET_SIZES) + tuple(f"b{b}-r-r" for b in BET_SIZES)


# --------------------------------------------------------------------------- rows
def _bucket_dtype(buckets: Any) -> np.dtype:
    """The bucket column's dtype for these bucket values: int8, int16 above 127 buckets."""
    top = int(np.max(buckets)) if len(buckets) else -1
    return np.dtype(bucket_dtype(top + 1))


def frame(cols: Mapping[str, Sequence | np.ndarray]) -> pd.DataFrame:
    df = pd.DataFrame({c: cols[c] for c in TABLE_COLUMNS})
    df = df.astype({**INT_DTYPES, "bucket": _bucket_dtype(df["bucket"].to_numpy(np.int64))})
    df["spot"] = df["spot"].astype(str).astype(SPOT_DTYPE)
    for c in ("pre_line", "post_line"):
        df[c] = df[c].astype(str)
    for a in ACTION_COLUMNS:
        df[a] = df[a].astype("float64")
    return df.sort_values(list(INDEX_COLUMNS), kind="stable").reset_index(drop=True)


def _codes(col: pd.Series) -> tuple[np.ndarray, list[str]]:
    """(codes, sorted distinct strings) of a string column: ``uniques[codes[i]]`` is row i."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = [str(c) for c in col.cat.categories]
        order = np.argsort(np.array(cats, dtype=object), kind="stable")
        rank = np.empty(len(cats) + 1, np.int64)
        rank[order], rank[-1] = np.arange(len(cats)), -1
        return rank[col.cat.codes.to_numpy()], sorted(cats)
    if not pd.api.types.is_string_dtype(col.dtype):
        col = col.astype(str)
    codes, uniques = pd.factorize(col, sort=True)
    return np.asarray(codes, dtype=np.int64), [str(u) for u in uniques]


def content_digest(df: pd.DataFrame, lines: Mapping[str, tuple[np.ndarray, list[str]]] | None = None) -> str:
    """SHA-256 of the table's values, column by column (int/float little-endian bytes,
    strings newline-joined UTF-8); independent of the file encoding, stored in the metadata.
    ``lines`` may hold the :func:`_codes` of string columns already computed."""
    h = hashlib.sha256()
    for c in TABLE_COLUMNS:
        h.update(c.encode() + b"\0")
        if c in INT_DTYPES or c in ACTION_COLUMNS:
            dt = (df[c].dtype if c == "bucket" else np.dtype(INT_DTYPES.get(c, "float64"))).newbyteorder("<")
            h.update(np.ascontiguousarray(df[c].to_numpy(), dtype=dt).tobytes())
        else:
            codes, uniques = (lines or {}).get(c) or _codes(df[c])
            h.update("\n".join(np.asarray(uniques, dtype=object)[codes].tolist()).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _line_spots(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(spot code or -1, h_bet) of each distinct line (-1: not a line at which Riemann acts)."""
    spot = np.full(len(lines), -1, np.int64)
    bet = np.zeros(len(lines), np.int64)
    for i, line in enumerate(lines):
        try:
            name, h_bet = spot_of_line(line)
        except ValueError:
            continue
        spot[i], bet[i] = SPOTS.index(name), h_bet
    return spot, bet


def check_table(df: pd.DataFrame, name: str = "<table>", lines: dict[str, Any] | None = None) -> None:
    """Raise :class:`StrategyTableError` (message starts with ``name``) unless ``df`` is a
    strategy table: exact columns and dtypes, consistent spots, unique sorted index,
    probabilities in [0, 1], zero off the spot's actions, rows summing to 1.

    Vectorised: the lines are factorised (a table has a few dozen distinct lines), so a
    150,000-row table is checked in a few tens of milliseconds.  A dict given as ``lines``
    receives the :func:`_codes` of ``pre_line`` and ``post_line`` (for :func:`content_digest`)."""

    def bad(what: str) -> StrategyTableError:
        return StrategyTableError(f"{name}: {what}")

    if tuple(df.columns) != TABLE_COLUMNS:
        raise bad(f"columns {list(df.columns)} are not {list(TABLE_COLUMNS)}")
    want: dict[str, Any] = dict(INT_DTYPES)
    if pd.api.types.is_integer_dtype(df["bucket"].dtype):
        want["bucket"] = _bucket_dtype(df["bucket"].to_numpy(np.int64))
    for c, dt in want.items():
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
    street = df["street"].to_numpy().astype(np.int64)
    if not np.isin(street, (0, 1)).all():
        raise bad("street is not 0 or 1")
    pre, pre_lines = _codes(df["pre_line"])
    post, post_lines = _codes(df["post_line"])
    if lines is not None:
        lines.update(pre_line=(pre, pre_lines), post_line=(post, post_lines))
    (pre_spot, pre_bet), (post_spot, post_bet) = _line_spots(pre_lines), _line_spots(post_lines)
    s0 = street == 0
    want_spot = np.where(s0, pre_spot[pre], post_spot[post])
    want_bet = np.where(s0, pre_bet[pre], post_bet[post])
    if (want_spot < 0).any():
        r = int(np.flatnonzero(want_spot < 0)[0])
        line = pre_lines[pre[r]] if s0[r] else post_lines[post[r]]
        raise bad(f"row {r}: {line!r} is not a line at which Riemann acts")
    spots = df["spot"].cat.codes.to_numpy().astype(np.int64)
    h_bet = df["h_bet"].to_numpy().astype(np.int64)
    wrong = np.flatnonzero((spots != want_spot) | (h_bet != want_bet))
    if wrong.size:
        r = int(wrong[0])
        line = pre_lines[pre[r]] if s0[r] else post_lines[post[r]]
        raise bad(f"row {r}: spot {SPOTS[spots[r]]}/{h_bet[r]} does not match line {line!r}")
    for code, spot in enumerate(SPOTS):
        others = [ACTION_COLUMNS.index(a) for a in ACTION_COLUMNS if a not in SPOT_ACTIONS[spot]]
        if (P[np.ix_(spots == code, others)] != 0).any():
            raise bad(f"a {spot} row gives probability to an action the spot does not offer")
    empty = post == post_lines.index("") if "" in post_lines else np.zeros(len(df), bool)
    chk = {
        "h_draw in 0..4": df["h_draw"].between(0, 4).all(),
        "r_draw -1 before the draw, 0..4 after": ((df["r_draw"] == -1) == s0).all()
        and df["r_draw"].between(-1, 4).all(),
        "class >= 0 exactly before the draw": ((df["class"] >= 0) == s0).all(),
        "bucket >= 0 exactly after the draw": ((df["bucket"] >= 0) == ~s0).all(),
        "post_line empty exactly before the draw": (empty == s0).all(),
    }
    for what, ok in chk.items():
        if not ok:
            raise bad(f"violates {what}")
    # sorted and unique: each row's key is lexicographically above the previous one (strings
    # by their rank among the sorted distinct lines, the spot by its alphabetical code)
    key = np.stack(
        [street, spots, h_bet, df["h_draw"].to_numpy(), df["r_draw"].to_numpy(), pre, post,
         df["class"].to_numpy(), df["bucket"].to_numpy()], axis=1
    ).astype(np.int64)  # fmt: skip
    step = np.diff(key, axis=0)
    nonzero = step != 0
    first = nonzero.argmax(axis=1)
    rising = step[np.arange(len(step)), first] > 0
    if (~nonzero.any(axis=1)).any():
        raise bad(f"index not unique: row {int(np.flatnonzero(~nonzero.any(axis=1))[0]) + 1} repeats a key")
    if not rising.all():
        raise bad("rows are not sorted by the index columns")


# --------------------------------------------------------------------------- files
def read_table(path: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(table, metadata) of a Parquet strategy table, refusing with
    :class:`StrategyTableError` (naming ``path``) a missing, truncated, corrupted or foreign
    file: unreadable bytes, a schema other than :data:`TABLE_SCHEMA`, a content digest
    that does not match its rows, or rows that fail :func:`check_table`."""
    path = Path(path)
    if not path.is_file():
        raise StrategyTableError(f"{path}: no such table")
    with open(path, "rb") as f:
        head = f.read(4)
        f.seek(max(0, path.stat().st_size - 4))
        tail = f.read(4)
    if head != PARQUET_MAGIC or tail != PARQUET_MAGIC:
        raise StrategyTableError(f"{path}: not a Parquet file (the magic bytes at its start or end are wrong)")
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
    if isinstance(df["spot"].dtype, pd.CategoricalDtype) and list(df["spot"].cat.categories) != list(SPOTS):
        df["spot"] = df["spot"].cat.set_categories(list(SPOTS))  # a name not in SPOTS becomes missing (refused)
    lines: dict[str, Any] = {}
    check_table(df, str(path), lines)
    if content_digest(df, lines) != meta.get("content_sha256"):
        raise StrategyTableError(f"{path}: content digest does not match the metadata (corrupted rows)")
    if meta.get("rows") != len(df):
        raise StrategyTableError(f"{path}: {len(df)} rows, the metadata says {meta.get('rows')}")
    return df, meta


def table_path(tables_dir: str | Path, variant: str, ext: str = "parquet") -> Path:
    """Where a variant's table lives in a tables directory: ``{dir}/riemann-v06-{variant}.{ext}``.

    >>> table_path("results/tables", "wild").as_posix()
    'results/tables/riemann-v06-wild.parquet'
    """
    return Path(tables_dir) / (table_stem(variant) + f".{ext}")
