"""The v0.6 verifier: the tables are intact and Riemann plays exactly them (SPEC section 7).

Rule card, "Verification": "each published table is intact, every decision Riemann makes
over 9,000 seeded hands is the table's, hands replay byte for byte, and the rules you play
by are exactly v0.5's".  :func:`verify` runs five checks and returns a deterministic receipt
(no timings, so reruns are byte-identical):

``hashes``
    Every table file (each variant's ``.parquet`` and, if present, ``.json``) has the
    SHA-256 the receipt records; each Parquet table then loads through
    :meth:`poker51.play.riemann.Riemann.load` (schema, content digest, rows).
``decisions``
    For each variant, ``hands_per_variant`` hands on the engine's seeded decks
    (``[seed + 1000 * variant_index, i]``) with :class:`~poker51.play.riemann.Riemann` as R
    against H = :class:`poker51.play.players.RandomPlayer` (uniform over legal actions and the 32
    keep masks, seeded per hand).  Stacks are seeded per hand: half the hands 100/100, the
    others each stack uniform in 1..12, so short all-ins, all-in bets of every size and
    ante-only hands occur.  Each of Riemann's actions in the **log** is recomputed here,
    without :mod:`poker51.play.riemann`: the class (:func:`poker51.abstraction.classes.classify`) or the
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
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.classes import bucket_of, classify
from poker51.cards import parse_card
from poker51.export.tables import ACTION_COLUMNS, check_hash, load_receipt, table_path
from poker51.fnv import fnv1a_64
from poker51.hands.evaluate import strength
from poker51.hands.house import house_keep
from poker51.io import TableError, read_metadata, read_parquet, write_json
from poker51.play import engine
from poker51.play.players import RandomPlayer

VERIFY_FORMAT = "poker51-verify/1"
VARIANTS = ("standard", "wild", "bug")
DEFAULT_SEED = 20240601
#: the v0.5 rules of play, from the rule card ("A hand · two betting rounds", points 1-8)
RULES_V05 = {
    "ante": 1,
    "bet_sizes": [1, 2, 4, 8],
    "short_balance_all_in": True,
    "riemann_bet": 2,
    "raises": "one raise and one re-raise per round, each by the opening amount",
    "log_format": "poker51-hand/1",
    "label": "v0.6",
}
_SIZES = (1, 2, 4, 8)


def engine_rules() -> dict[str, Any]:
    """The engine's rule constants, in the shape of :data:`RULES_V05`."""
    return {
        "ante": engine.ANTE,
        "bet_sizes": list(engine.BET_SIZES),
        "short_balance_all_in": True,
        "riemann_bet": engine.RIEMANN_BET,
        "raises": RULES_V05["raises"],
        "log_format": engine.LOG_FORMAT,
        "label": "v0.6",
    }


# --------------------------------------------------------------------------- the table, read plainly
class TableOracle:
    """The table's decisions recomputed from its rows alone (no :mod:`poker51.play.riemann`)."""

    def __init__(self, df: pd.DataFrame, variant: str, classes: pd.DataFrame, buckets: pd.DataFrame) -> None:
        self.variant, self.classes, self.buckets = variant, classes, buckets
        keys = zip(
            df["street"].tolist(),
            df["h_draw"].tolist(),
            df["r_draw"].tolist(),
            df["pre_line"].tolist(),
            df["post_line"].tolist(),
            df["class"].tolist(),
            df["bucket"].tolist(),
        )
        self.rows = dict(zip(keys, df[list(ACTION_COLUMNS)].itertuples(index=False, name=None)))
        self._cls: dict[tuple, int] = {}
        self._bkt: dict[tuple, int] = {}

    def klass(self, cards) -> int:
        t = tuple(sorted(cards))
        if t not in self._cls:
            if len(self._cls) > 200_000:
                self._cls.clear()
            self._cls[t] = classify(list(t), self.variant, self.classes)
        return self._cls[t]

    def bucket(self, cards) -> int:
        t = tuple(sorted(cards))
        if t not in self._bkt:
            if len(self._bkt) > 200_000:
                self._bkt.clear()
            self._bkt[t] = bucket_of(list(t), self.variant, self.buckets)
        return self._bkt[t]

    def action(
        self, cards_str: list[str], street: int, h_draw: int, r_draw: int, pre: str, post: str, can_raise: bool
    ) -> tuple[str, str]:
        """(solved action, played action) at one of Riemann's decisions."""
        cards = [parse_card(c) for c in cards_str]
        d4 = h_draw if h_draw < 4 else 4
        if street == 0:
            key = (0, d4, -1, pre, "", self.klass(cards), -1)
        else:
            key = (1, d4, r_draw, pre, post, -1, self.bucket(cards))
        probs = self.rows.get(key)
        if probs is None:
            return "(no table row)", f"(no table row {key})"
        text = ",".join(c for _, c in sorted(zip(cards, cards_str))) + f";{street}|{d4}|{r_draw}|{pre}|{post}"
        u = fnv1a_64(text.encode("ascii")) / 2.0**64
        total, pick = 0.0, None
        for name, p in zip(ACTION_COLUMNS, probs):
            if p > 0:
                total += p
                pick = name
                if total > u:
                    break
        played = pick
        if not can_raise and pick in ("raise", "bet"):
            played = "call" if pick == "raise" else "check"
        return pick, played


def _nearest(amount: int) -> int:
    best = None
    for s in _SIZES:  # ascending: a tie keeps the smaller size
        if best is None or abs(s - amount) < abs(best - amount):
            best = s
    return best


# --------------------------------------------------------------------------- one hand's log
def audit_hand(log: str, oracle: TableOracle, rule: int) -> dict[str, Any]:
    """Decision, keep, jbit and rule checks of one hand log; returns counts and failures."""
    ev = [json.loads(line) for line in log.splitlines() if line]
    fails: list[str] = []
    out = {"decisions": 0, "converted": 0, "keeps": 0, "failures": fails}
    head = ev[0]
    tag = f"hand {head.get('seed')}"
    deal = next(e for e in ev if e["event"] == "deal")
    cards = {"H": list(deal["H"]), "R": list(deal["R"])}
    h_draw = r_draw = None
    lines = {"pre": [], "post": []}
    stacks = {s: head["stacks"][s] - 1 for s in "HR"}
    to = {"H": 0, "R": 0}
    unit = 0
    rnd = None
    for e in ev[1:]:
        if e["event"] == "draw":
            if e["seat"] == "R":
                r_draw = e["count"]
                keep = house_keep([parse_card(c) for c in cards["R"]], rule)[0]
                out["keeps"] += 1
                if e["keep"] != keep:
                    fails.append(f"{tag}: Riemann kept mask {e['keep']}, the House rule keeps {keep}")
            cards[e["seat"]] = list(e["hand"])
            continue
        if e["event"] != "action":
            continue
        if e["round"] != rnd:
            rnd, to, unit = e["round"], {"H": 0, "R": 0}, 0
        seat, _other = e["seat"], "R" if e["seat"] == "H" else "H"
        if "draw_count" in e:
            h_draw = e["draw_count"]
        if seat == "R":
            owe = to["H"] - to["R"]
            need = owe + unit if owe > 0 else 2
            can = stacks["H"] > 0 and stacks["R"] >= need
            street = 0 if rnd == "pre" else 1
            solved, want = oracle.action(
                cards["R"],
                street,
                h_draw,
                -1 if street == 0 else r_draw,
                "-".join(lines["pre"]),
                "-".join(lines["post"]),
                can,
            )
            out["decisions"] += 1
            out["converted"] += int(solved != want)
            if e["kind"] != want:
                fails.append(
                    f"{tag}: Riemann played {e['kind']} in round {rnd} after "
                    f"{'-'.join(lines[rnd]) or '(nothing)'}; the table gives {want}"
                )
        kind, amount = e["kind"], e["amount"]
        if kind == "bet":
            unit = amount
            lines[rnd].append(f"b{_nearest(amount)}" if seat == "H" else "b2")
        else:
            lines[rnd].append({"check": "x", "call": "c", "raise": "r", "fold": "f"}[kind])
        stacks[seat] -= amount
        to[seat] += amount
    return out


def audit_rules(log: str, rule: int) -> list[str]:
    """Failures of one hand log against the v0.5 rules of play (module docstring, ``rules``)."""
    ev = [json.loads(line) for line in log.splitlines() if line]
    f: list[str] = []
    head = ev[0]
    tag = f"hand {head.get('seed')}"
    if head.get("rules") != RULES_V05["label"] or head.get("format") != RULES_V05["log_format"]:
        f.append(f"{tag}: rules {head.get('rules')!r} / format {head.get('format')!r}")
    ante = RULES_V05["ante"]
    before = dict(head["stacks"])
    stacks = {s: before[s] - ante for s in "HR"}
    contrib = {"H": ante, "R": ante}
    if ev[1] != {"event": "ante", "amount": ante, "stacks": stacks, "pot": 2 * ante}:
        f.append(f"{tag}: the ante event is {ev[1]}")
    rnd, line, to, unit, wager = None, [], {"H": 0, "R": 0}, 0, min(stacks.values()) > 0
    hands = {}
    for e in ev[2:]:
        k = e["event"]
        if k == "deal":
            hands = {"H": e["H"], "R": e["R"]}
        elif k == "draw":
            hands[e["seat"]] = e["hand"]
            if rnd == "pre":
                rnd, wager = "draw", min(stacks.values()) > 0
        elif k == "action":
            if e["round"] != rnd:
                if (rnd, e["round"]) not in ((None, "pre"), ("draw", "post")) or e["round"] == "post" and not wager:
                    f.append(f"{tag}: round {e['round']} after {rnd} (wagering open: {wager})")
                rnd, line, to, unit = e["round"], [], {"H": 0, "R": 0}, 0
            seat, kind, amt = e["seat"], e["kind"], e["amount"]
            opp = "R" if seat == "H" else "H"
            owe = to[opp] - to[seat]
            err = None
            if seat != ("H" if len(line) % 2 == 0 else "R"):
                err = "out of turn"
            elif kind == "check":
                err = "check facing a bet" if owe > 0 else None
            elif kind == "bet":
                sizes = set(RULES_V05["bet_sizes"]) | ({stacks["H"]} if stacks["H"] < 8 else set())
                if not wager or line not in ([], ["check"]) or stacks[opp] == 0 or amt > stacks[seat]:
                    err = "bet not allowed here"
                elif seat == "R" and (amt != RULES_V05["riemann_bet"] or line != ["check"]):
                    err = f"Riemann bets {amt}"
                elif seat == "H" and (amt not in sizes or line != []):
                    err = f"H bets {amt}"
                unit = amt
            elif kind == "call":
                err = None if owe > 0 and amt == min(owe, stacks[seat]) else f"call of {amt} owing {owe}"
            elif kind == "raise":
                ok = line in (["bet"], ["check", "bet"], ["bet", "raise"]) and stacks[opp] > 0
                err = None if ok and amt == owe + unit and amt <= stacks[seat] else f"raise of {amt}"
            elif kind == "fold":
                err = None if owe > 0 else "fold without a bet"
            if err:
                f.append(f"{tag}: {seat} {kind} {amt} after {line}: {err}")
            stacks[seat] -= amt
            contrib[seat] += amt
            to[seat] += amt
            line.append(kind)
            if e["stacks"] != stacks or e["to"] != to[seat] or e["all_in"] != (amt > 0 and stacks[seat] == 0):
                f.append(f"{tag}: action accounting {e} (expected stacks {stacks})")
        elif k == "result":
            c = e["contributed"]
            if c != contrib:
                f.append(f"{tag}: contributions {c}, expected {contrib}")
            if e["reason"] == "fold":
                folder = "H" if e["winner"] == "R" else "R"
                want = {folder: -contrib[folder], e["winner"]: contrib[folder]}
            else:
                st = {s: strength([parse_card(x) for x in hands[s]], rule) for s in "HR"}
                m = min(contrib.values())
                w = "H" if st["H"] > st["R"] else "R" if st["R"] > st["H"] else None
                want = {s: (m if w == s else -m if w is not None else 0) for s in "HR"}
                if e["winner"] != w or e["returned"] != {s: contrib[s] - m for s in "HR"}:
                    f.append(f"{tag}: showdown settled as {e['winner']}, {e['returned']}; expected {w}")
            if e["net"] != want:
                f.append(f"{tag}: net {e['net']}, the rules give {want}")
    return f


def jbits_conserved(res: engine.HandResult) -> bool:
    ev = json.loads(res.log.splitlines()[-1])
    return (
        sum(res.stacks_after.values()) == sum(res.stacks_before.values())
        and sum(res.net.values()) == 0
        and all(res.stacks_after[s] == res.stacks_before[s] + res.net[s] for s in "HR")
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
        from poker51.play.riemann import _abstraction_frames

        return _abstraction_frames(variant, None, None)
    if isinstance(abstraction, Mapping):
        c, b = abstraction[variant]
    else:
        c, b = Path(abstraction) / variant / "classes.parquet", Path(abstraction) / variant / "buckets.parquet"
    return (c if isinstance(c, pd.DataFrame) else read_parquet(c)), (
        b if isinstance(b, pd.DataFrame) else read_parquet(b)
    )


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
) -> dict[str, Any]:
    """Run the five checks (module docstring); write the receipt to ``out`` if given.

    ``tables``: a directory holding ``{variant}.parquet`` (and ``.json``) or a list of Parquet
    paths; ``receipt_path``: the export receipt (path or dict); ``abstraction``: see
    :func:`_abstraction`.  Hands are streamed: memory does not grow with their number.
    """
    from tqdm.auto import tqdm

    from poker51.play.riemann import Riemann

    rec = load_receipt(receipt_path)
    paths = _table_paths(tables)
    checks = {
        c: {"pass": True, "checked": 0, "failures": 0} for c in ("hashes", "decisions", "replay", "jbits", "rules")
    }
    examples: list[str] = []

    def fail(check: str, msg: str) -> None:
        checks[check]["pass"] = False
        checks[check]["failures"] += 1
        if len(examples) < max_examples:
            examples.append(f"{check}: {msg}")

    hashes = {}
    players = {}
    for v, p in sorted(paths.items()):
        for f in (p, p.with_suffix(".json")):
            if f == p or f.is_file():
                checks["hashes"]["checked"] += 1
                try:
                    hashes[f.as_posix()] = check_hash(f, rec)
                except Exception as exc:
                    fail("hashes", str(exc))
        try:
            classes, buckets = _abstraction(abstraction, v)
            players[v] = (Riemann.load(p, receipt=rec, classes=classes, buckets=buckets), classes, buckets)
        except Exception as exc:
            fail("hashes", str(exc))
    if engine_rules() != RULES_V05:
        fail("rules", f"engine rule constants {engine_rules()} differ from v0.5's {RULES_V05}")
    checks["rules"]["checked"] += 1

    per_variant = {}
    for vi, v in enumerate(VARIANTS):
        if v not in players:
            continue
        riemann, classes, buckets = players[v]
        oracle = TableOracle(riemann.table, v, classes, buckets)
        stats = {"hands": 0, "decisions": 0, "converted": 0, "keeps": 0, "failures": 0}
        base = int(seed) + 1000 * vi
        bar = tqdm(
            range(int(hands_per_variant)), desc=f"verify {v}", unit="hand", disable=not progress, mininterval=1.0
        )
        for i in bar:
            stacks, h_seed = hand_setup(seed, vi, i)
            n_fail = sum(c["failures"] for c in checks.values())
            res = engine.play_hand(
                {"H": RandomPlayer(h_seed), "R": riemann}, stacks=stacks, variant=v, base_seed=base, hand_index=i
            )
            stats["hands"] += 1
            a = audit_hand(res.log, oracle, riemann.rule)
            for k in ("decisions", "converted", "keeps"):
                stats[k] += a[k]
            checks["decisions"]["checked"] += a["decisions"] + a["keeps"]
            for m in a["failures"]:
                fail("decisions", f"{v} {m}")
            checks["replay"]["checked"] += 1
            try:
                if engine.replay(res.log).log_bytes != res.log_bytes:
                    fail("replay", f"{v} hand {i}: replay bytes differ")
            except engine.ReplayError as exc:
                fail("replay", f"{v} hand {i}: {exc}")
            checks["jbits"]["checked"] += 1
            if not jbits_conserved(res):
                fail("jbits", f"{v} hand {i}: jbits not conserved")
            checks["rules"]["checked"] += 1
            for m in audit_rules(res.log, riemann.rule):
                fail("rules", f"{v} {m}")
            stats["failures"] += sum(c["failures"] for c in checks.values()) - n_fail
        per_variant[v] = stats
    total_fail = sum(c["failures"] for c in checks.values())
    result = {
        "format": VERIFY_FORMAT,
        "seed": int(seed),
        "hands_per_variant": int(hands_per_variant),
        "opponent": "poker51.play.players.RandomPlayer, seeded per hand; stacks per verify.hand_setup",
        "rules_v05": RULES_V05,
        "tables": dict(sorted(hashes.items())),
        "variants": per_variant,
        "checks": checks,
        "hands": sum(s["hands"] for s in per_variant.values()),
        "decisions": sum(s["decisions"] for s in per_variant.values()),
        "failures": total_fail,
        "pass": total_fail == 0 and bool(per_variant),
        "examples": examples,
    }
    if out is not None:
        write_json(result, out)
    return result


__all__ = [
    "RULES_V05",
    "TableOracle",
    "audit_hand",
    "audit_rules",
    "engine_rules",
    "hand_setup",
    "jbits_conserved",
    "verify",
]
