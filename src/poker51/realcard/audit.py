"""The verifier's independent reading of a hand log: Riemann's decisions recomputed from the
table's rows alone (no :mod:`poker51.policies.riemann`), and the rules of play audited without
the engine (rule card, "A hand · two betting rounds"; :mod:`poker51.realcard.verify` runs them).
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from poker51.abstraction.buckets import bucket_of
from poker51.abstraction.classes import class_index, classify
from poker51.cards import parse_card
from poker51.export.schema import ACTION_COLUMNS
from poker51.fnv import fnv1a_64
from poker51.hands.evaluate import strength
from poker51.hands.house import house_keep
from poker51.rules import BET_SIZES

#: the v0.5 rules of play, from the rule card ("A hand · two betting rounds", points 1-8)
RULES_V05: dict[str, Any] = {
    "ante": 1,
    "bet_sizes": [1, 2, 4, 8],
    "short_balance_all_in": True,
    "riemann_bet": 2,
    "raises": "one raise and one re-raise per round, each by the opening amount",
    "log_format": "poker51-hand/1",
    "label": "v0.6",
}


# --------------------------------------------------------------------------- the table, read plainly
class TableOracle:
    """The table's decisions recomputed from its rows alone (no :mod:`poker51.policies.riemann`)."""

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
        self._class_index = class_index(self.classes)
        self._bkt: dict[tuple, int] = {}

    def klass(self, cards) -> int:
        t = tuple(sorted(cards))
        if t not in self._cls:
            if len(self._cls) > 200_000:
                self._cls.clear()
            self._cls[t] = classify(list(t), self.variant, self._class_index)
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
        total, pick = 0.0, "(no positive probability)"
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
    best = BET_SIZES[0]
    for s in BET_SIZES[1:]:  # ascending: a tie keeps the smaller size
        if abs(s - amount) < abs(best - amount):
            best = s
    return best


# --------------------------------------------------------------------------- one hand's log
def audit_hand(log: str, oracle: TableOracle, rule: int) -> dict[str, Any]:
    """Decision, keep, jbit and rule checks of one hand log; returns counts and failures."""
    ev = [json.loads(line) for line in log.splitlines() if line]
    fails: list[str] = []
    out: dict[str, Any] = {"decisions": 0, "converted": 0, "keeps": 0, "failures": fails}
    head = ev[0]
    tag = f"hand {head.get('seed')}"
    deal = next(e for e in ev if e["event"] == "deal")
    cards = {"H": list(deal["H"]), "R": list(deal["R"])}
    h_draw = r_draw = -1  # H's count comes with its first action; Riemann's at the draw
    lines: dict[str, list[str]] = {"pre": [], "post": []}
    stacks = {s: head["stacks"][s] - RULES_V05["ante"] for s in "HR"}  # after the antes
    to = {"H": 0, "R": 0}
    unit = 0
    rnd = ""
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
            lines[rnd].append(f"b{_nearest(amount)}" if seat == "H" else f"b{RULES_V05['riemann_bet']}")
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
    rnd, to, unit, wager = "", {"H": 0, "R": 0}, 0, min(stacks.values()) > 0
    line: list[str] = []
    hands: dict[str, list[str]] = {}
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
                if (rnd, e["round"]) not in (("", "pre"), ("draw", "post")) or e["round"] == "post" and not wager:
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
