"""The v0.6 verifier: the tables are intact and Riemann plays exactly them (SPEC section 7).

Rule card, "Verification": "each published table is intact, every decision Riemann makes
over 9,000 seeded hands is the table's, hands replay byte for byte, and the rules you play
by are exactly v0.5's".  :func:`verify` runs five checks and returns a deterministic receipt
(no timings, so reruns are byte-identical):

``hashes``
    Every table file (each variant's ``.parquet`` and, if present, ``.json``) has the
    SHA-256 the receipt records; each Parquet table then loads through
    :meth:`poker51.policies.riemann.Riemann.load` (schema, content digest, rows).
``decisions``
    For each variant, ``hands_per_variant`` hands on the engine's seeded decks
    (``[seed + 1000 * variant_index, i]``) with :class:`~poker51.policies.riemann.Riemann` as R
    against H = :class:`poker51.play.players.RandomPlayer` (uniform over legal actions and the 32
    keep masks, seeded per hand).  Stacks are seeded per hand: half the hands 100/100, the
    others each stack uniform in 1..12, so short all-ins, all-in bets of every size and
    ante-only hands occur.  Each of Riemann's actions in the **log** is recomputed here,
    without :mod:`poker51.policies.riemann`: the class (:func:`poker51.abstraction.classes.classify`) or the
    bucket (:func:`poker51.abstraction.classes.bucket_of`) of its cards, the lines rebuilt from the
    logged actions, the table row found in the table's own rows, the FNV-1a byte string, the
    cumulative choice, and the all-in conversions.  Riemann's keep must be the House keep.
``replay``
    :func:`poker51.play.engine.replay` of each log gives the same bytes.
``jbits``
    In every hand the stacks' sum is unchanged, the nets sum to 0, and the result's
    contributions = returned + won.
``rules``
    "The rules you play by are exactly v0.5's": since v0.6 only Riemann's betting changed
    (rule card, A hand, last paragraph), so the check is (1) the engine's rule constants
    equal :data:`RULES_V05`, pinned here from the rule card (ante 1; bets 1, 2, 4, 8, or the
    whole balance below 8; Riemann's bet 2; one raise and one re-raise by the opening
    amount), and (2) every hand's log passes an audit written independently of the engine
    (:func:`audit_rules`): order of play, bet and raise sizes, calls all in for less, no bet
    or raise against an empty stack, no wager once a player has no jbits, a fold losing
    exactly what the folder put in, unmatched excess returned and the matched pot to the
    better hand (split when equal).  This is a finite check, not a proof.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.export.receipt import check_hash, load_receipt
from poker51.export.schema import table_path
from poker51.io import TableError, read_metadata, read_parquet, sha256_file, write_json
from poker51.play import engine
from poker51.play.actions import LOG_FORMAT, SEATS, HandResult, ReplayError
from poker51.play.players import RandomPlayer
from poker51.policies.riemann import Riemann, abstraction_frames
from poker51.realcard.audit import RULES_V05, TableOracle, audit_hand, audit_rules
from poker51.rules import ANTE, BET_SIZES, RIEMANN_BET, VARIANT_NAMES

VERIFY_FORMAT = "poker51-verify/1"
#: one variant's hand checks, written by the workflow's ``verify_hands`` jobs
HANDS_FORMAT = "poker51-verify-hands/1"
#: the checks made on the hands a variant plays (``hashes`` is made on the files)
HAND_CHECKS = ("decisions", "replay", "jbits", "rules")
#: what a variant's hands count
HAND_STATS = ("hands", "decisions", "converted", "keeps", "failures")
VARIANTS = VARIANT_NAMES
DEFAULT_SEED = 20240601


def engine_rules() -> dict[str, Any]:
    """The engine's rule constants, in the shape of :data:`RULES_V05`."""
    return {
        "ante": ANTE,
        "bet_sizes": list(BET_SIZES),
        "short_balance_all_in": True,
        "riemann_bet": RIEMANN_BET,
        "raises": RULES_V05["raises"],
        "log_format": LOG_FORMAT,
        "label": "v0.6",
    }


def jbits_conserved(res: HandResult) -> bool:
    ev = json.loads(res.log.splitlines()[-1])
    return (
        sum(res.stacks_after.values()) == sum(res.stacks_before.values())
        and sum(res.net.values()) == 0
        and all(res.stacks_after[s] == res.stacks_before[s] + res.net[s] for s in SEATS)
        and sum(ev["contributed"].values()) == sum(ev["returned"].values()) + sum(ev["won"].values())
    )


# --------------------------------------------------------------------------- the run
def hand_setup(seed: int, variant_index: int, i: int) -> tuple[dict[str, int], int]:
    """(stacks, H's RNG seed) of hand ``i`` (module docstring, ``decisions``)."""
    ss = np.random.SeedSequence([int(seed), 51, int(variant_index), int(i)])
    a, b, c, h = (int(x) for x in ss.generate_state(4))
    stacks = {"H": 100, "R": 100} if a % 2 == 0 else {"H": 1 + b % 12, "R": 1 + c % 12}
    return stacks, h


def _table_paths(tables) -> dict[str, Path]:
    if isinstance(tables, (str, Path)) and Path(tables).is_dir():
        found = {v: table_path(tables, v) for v in VARIANTS if table_path(tables, v).is_file()}
        if not found:
            raise FileNotFoundError(f"{tables}: no {'/'.join(VARIANTS)}.parquet table")
        return found
    paths = [Path(tables)] if isinstance(tables, (str, Path)) else [Path(p) for p in tables]
    out = {}
    for p in paths:
        variant = p.stem.removeprefix("riemann-v06-")
        if variant not in VARIANTS:
            try:
                variant = read_metadata(p).get("variant", p.stem)
            except TableError:
                pass
        out[variant] = p
    return out


def _abstraction(abstraction, variant: str):
    """(classes, buckets) for a variant: from a mapping, a directory
    ``{dir}/{variant}/classes.parquet`` + ``buckets.parquet``, or (None) recomputed."""
    if abstraction is None:
        return abstraction_frames(variant, None, None)
    if isinstance(abstraction, Mapping):
        c, b = abstraction[variant]
    else:
        c, b = Path(abstraction) / variant / "classes.parquet", Path(abstraction) / variant / "buckets.parquet"
    return (c if isinstance(c, pd.DataFrame) else read_parquet(c)), (
        b if isinstance(b, pd.DataFrame) else read_parquet(b)
    )


@dataclass
class VerifyReport:
    """The verifier's result; :meth:`to_json` is the deterministic receipt written to disk."""

    seed: int
    hands_per_variant: int
    max_examples: int = 20
    tables: dict[str, str] = field(default_factory=dict)
    variants: dict[str, dict[str, int]] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {
            c: {"pass": True, "checked": 0, "failures": 0} for c in ("hashes", "decisions", "replay", "jbits", "rules")
        }
    )
    examples: list[str] = field(default_factory=list)

    def fail(self, check: str, msg: str) -> None:
        self.checks[check]["pass"] = False
        self.checks[check]["failures"] += 1
        if len(self.examples) < self.max_examples:
            self.examples.append(f"{check}: {msg}")

    def count(self, check: str, n: int = 1) -> None:
        self.checks[check]["checked"] += n

    @property
    def failures(self) -> int:
        return sum(int(c["failures"]) for c in self.checks.values())

    @property
    def passed(self) -> bool:
        return self.failures == 0 and bool(self.variants)

    def merge(self, part: Mapping[str, Any]) -> None:
        """Add one variant's hand checks (:func:`verify_hands`), as if they had run here: the
        counts add up and the examples continue in order, up to ``max_examples``."""
        for check in HAND_CHECKS:
            mine, theirs = self.checks[check], part["checks"][check]
            mine["pass"] = bool(mine["pass"] and theirs["pass"])
            mine["checked"] += int(theirs["checked"])
            mine["failures"] += int(theirs["failures"])
        self.examples += list(part["examples"])[: max(0, self.max_examples - len(self.examples))]
        self.variants[str(part["variant"])] = {k: int(part["stats"][k]) for k in HAND_STATS}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": VERIFY_FORMAT,
            "seed": int(self.seed),
            "hands_per_variant": int(self.hands_per_variant),
            "opponent": "poker51.play.players.RandomPlayer, seeded per hand; stacks per verify.hand_setup",
            "rules_v05": RULES_V05,
            "tables": dict(sorted(self.tables.items())),
            "variants": self.variants,
            "checks": self.checks,
            "hands": sum(v["hands"] for v in self.variants.values()),
            "decisions": sum(v["decisions"] for v in self.variants.values()),
            "failures": self.failures,
            "pass": self.passed,
            "examples": self.examples,
        }


def _load_players(paths: Mapping[str, Path], rec: dict, abstraction, report: VerifyReport) -> dict:
    """The ``hashes`` check, and each variant's Riemann with its classes and buckets."""
    players = {}
    for v, p in sorted(paths.items()):
        for f in (p, p.with_suffix(".json")):
            if f == p or f.is_file():
                report.count("hashes")
                try:
                    report.tables[f.as_posix()] = check_hash(f, rec)
                except Exception as exc:
                    report.fail("hashes", str(exc))
        try:
            classes, buckets = _abstraction(abstraction, v)
            players[v] = (Riemann.load(p, receipt=rec, classes=classes, buckets=buckets), classes, buckets)
        except Exception as exc:
            report.fail("hashes", str(exc))
    return players


def _verify_hand(report: VerifyReport, v: str, i: int, res: HandResult, oracle: TableOracle, rule: int) -> dict:
    """The ``decisions``, ``replay``, ``jbits`` and ``rules`` checks of one hand."""
    a = audit_hand(res.log, oracle, rule)
    report.count("decisions", a["decisions"] + a["keeps"])
    for m in a["failures"]:
        report.fail("decisions", f"{v} {m}")
    report.count("replay")
    try:
        if engine.replay(res.log).log_bytes != res.log_bytes:
            report.fail("replay", f"{v} hand {i}: replay bytes differ")
    except ReplayError as exc:
        report.fail("replay", f"{v} hand {i}: {exc}")
    report.count("jbits")
    if not jbits_conserved(res):
        report.fail("jbits", f"{v} hand {i}: jbits not conserved")
    report.count("rules")
    for m in audit_rules(res.log, rule):
        report.fail("rules", f"{v} {m}")
    return a


def verify(
    tables: str | Path | Iterable[str | Path],
    receipt_path: str | Path | Mapping,
    hands_per_variant: int = 3000,
    seed: int = DEFAULT_SEED,
    *,
    abstraction=None,
    out: str | Path | None = None,
    progress: bool = False,
    max_examples: int = 20,
    hands_from: Mapping[str, str | Path] | None = None,
) -> VerifyReport:
    """Run the five checks (module docstring); write the receipt to ``out`` if given.

    ``tables``: a directory holding ``{variant}.parquet`` (and ``.json``) or a list of Parquet
    paths; ``receipt_path``: the export receipt (path or dict); ``abstraction``: see
    :func:`_abstraction`.  Hands are streamed: memory does not grow with their number.
    ``hands_from``: per variant, the file :func:`write_verify_hands` wrote for its table (the
    workflow plays the hands as soon as a table is exported, before the receipt exists); each
    must be of this seed and number of hands and of the very bytes the receipt records, else
    the ``hashes`` check fails.  The report is the same as when the hands are played here.
    """
    rec = load_receipt(receipt_path)
    report = VerifyReport(int(seed), int(hands_per_variant), max_examples)
    paths = _table_paths(tables)
    players = _load_players(paths, rec, abstraction, report)
    if engine_rules() != RULES_V05:
        report.fail("rules", f"engine rule constants {engine_rules()} differ from v0.5's {RULES_V05}")
    report.count("rules")
    for v in VARIANTS:
        if v not in players:
            continue
        part: dict[str, Any] | None
        if hands_from is None:
            riemann, classes, buckets = players[v]
            part = verify_hands(v, riemann, classes, buckets, hands_per_variant, seed, progress, max_examples)
        else:
            part = _read_hands(hands_from, v, report, paths[v])
        if part is not None:
            report.merge(part)
    if out is not None:
        write_json(report.to_json(), out)
    return report


def verify_hands(
    variant: str,
    riemann: Riemann,
    classes: pd.DataFrame,
    buckets: pd.DataFrame,
    hands_per_variant: int,
    seed: int,
    progress: bool = False,
    max_examples: int = 20,
) -> dict[str, Any]:
    """The ``decisions``, ``replay``, ``jbits`` and ``rules`` checks of one variant's hands
    (module docstring), as the part :meth:`VerifyReport.merge` adds to a report."""
    from tqdm.auto import tqdm

    vi = VARIANTS.index(variant)
    report = VerifyReport(int(seed), int(hands_per_variant), max_examples)
    oracle = TableOracle(riemann.table, variant, classes, buckets)
    stats = dict.fromkeys(HAND_STATS, 0)
    base = int(seed) + 1000 * vi
    bar = tqdm(
        range(int(hands_per_variant)), desc=f"verify {variant}", unit="hand", disable=not progress, mininterval=1.0
    )
    for i in bar:
        stacks, h_seed = hand_setup(seed, vi, i)
        n_fail = report.failures
        res = engine.play_hand(
            {"H": RandomPlayer(h_seed), "R": riemann}, stacks=stacks, variant=variant, base_seed=base, hand_index=i
        )
        stats["hands"] += 1
        a = _verify_hand(report, variant, i, res, oracle, riemann.rule)
        for k in ("decisions", "converted", "keeps"):
            stats[k] += a[k]
        stats["failures"] += report.failures - n_fail
    return {
        "format": HANDS_FORMAT,
        "variant": variant,
        "seed": int(seed),
        "hands_per_variant": int(hands_per_variant),
        "stats": stats,
        "checks": {c: report.checks[c] for c in HAND_CHECKS},
        "examples": report.examples,
    }


def write_verify_hands(
    table: str | Path,
    variant: str,
    hands_per_variant: int,
    seed: int,
    *,
    abstraction=None,
    out: str | Path,
    progress: bool = False,
) -> dict[str, Any]:
    """:func:`verify_hands` of one exported table, with the SHA-256 of the bytes it played,
    written to ``out`` for :func:`verify` (``hands_from``)."""
    path = Path(table)
    sha = sha256_file(path)
    classes, buckets = _abstraction(abstraction, variant)
    riemann = Riemann.load(path, classes=classes, buckets=buckets, variant=variant)
    part = {**verify_hands(variant, riemann, classes, buckets, hands_per_variant, seed, progress), "table_sha256": sha}
    write_json(part, out)
    return part


def _read_hands(hands_from: Mapping[str, str | Path], v: str, report: VerifyReport, table: Path) -> dict | None:
    """The hand checks of variant ``v`` from its file, or None after failing ``hashes`` with
    the reason (missing, unreadable, another seed or number of hands, other table bytes)."""
    where = hands_from.get(v)
    if where is None:
        report.fail("hashes", f"{v}: no hand checks were given for {table}")
        return None
    try:
        part = json.loads(Path(where).read_text())
        if part.get("format") != HANDS_FORMAT or part.get("variant") != v:
            raise ValueError(f"not the hand checks of {v} ({HANDS_FORMAT})")
        lacking = [c for c in HAND_CHECKS if c not in part["checks"]]
        lacking += [k for k in HAND_STATS if k not in part["stats"]]
        if lacking or not isinstance(part["examples"], list):
            raise ValueError(f"the hand checks lack {lacking or ['examples']}")
        if (part["seed"], part["hands_per_variant"]) != (report.seed, report.hands_per_variant):
            raise ValueError(
                f"seed {part['seed']} and {part['hands_per_variant']} hands, not {report.seed} and "
                f"{report.hands_per_variant}"
            )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        report.fail("hashes", f"{where}: {exc}")
        return None
    played = part.get("table_sha256")
    if played != report.tables.get(table.as_posix()):
        report.fail("hashes", f"{where}: the hands were played on {table} with SHA-256 {played}, not the receipt's")
        return None
    return part


__all__ = [
    "RULES_V05",
    "VerifyReport",
    "TableOracle",
    "audit_hand",
    "audit_rules",
    "engine_rules",
    "hand_setup",
    "jbits_conserved",
    "verify",
    "verify_hands",
    "write_verify_hands",
]
