"""Every number and name of a game lives in one record, and the code reads it from there.

The records: :mod:`poker51.rules` (heads-up Poker 51), :mod:`poker51.multi.law` (the five-seat
tables) and :mod:`poker51.rulebook.games` (the rule book).  Checked here: the configuration
schemas enumerate exactly the code's registries; the heads-up engine and ``poker51 play``
follow the ante; and no module outside the records restates an ante, a bet size, Riemann's bet,
a seat count or a raise cap as a literal (a source scan).  The abstract game's and the LBR
kernels' antes are checked beside their own tests (``tests/games/test_abstract.py``,
``tests/realcard/test_lbr.py``).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from pathlib import Path

import pytest
import yaml

from poker51 import rules
from poker51.cards import parse_cards
from poker51.census.decks import NAMED_DECKS
from poker51.errors import InputError
from poker51.games.population import DRAW_RULES
from poker51.multi import law
from poker51.play import engine
from poker51.play.players import ScriptedPlayer
from poker51.rulebook.games import CENSUS_GAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "poker51"

# --------------------------------------------------------------------------- schemas = registries
#: the solver's algorithm enums are tied to ``poker51.solver.SOLVERS`` by their own test
ALGORITHM_ENUMS = {
    ("properties", "solve", "properties", "algorithm"),
    ("properties", "solver_comparison", "properties", "algorithms", "items"),
}
from poker51.realcard.bounds import STRATEGIES as BOUND_STRATEGIES  # noqa: E402

CONFIG_ENUMS: dict[tuple, list] = {
    ("properties", "census", "properties", "decks", "items"): list(NAMED_DECKS),
    ("properties", "abstraction", "properties", "variants", "items"): list(rules.VARIANT_NAMES),
    ("properties", "solver_comparison", "properties", "variants", "items"): list(rules.VARIANT_NAMES),
    ("properties", "multi", "properties", "buyin"): list(law.BUYINS),
    ("properties", "rulebook", "properties", "games", "items"): list(CENSUS_GAMES),
    ("properties", "rulebook", "properties", "exact", "items"): list(CENSUS_GAMES),
    ("properties", "realcard_bounds", "properties", "strategies", "items"): list(BOUND_STRATEGIES),
}
POPULATION_ENUMS: dict[tuple, list] = {
    ("properties", "types", "additionalProperties", "properties", "draw"): list(DRAW_RULES),
    ("properties", "types", "additionalProperties", "properties", "open", "properties", "size"): list(rules.BET_SIZES),
}


def enums(node, path=()) -> dict[tuple, list]:
    """Every ``enum`` of a schema, by its path of keys."""
    found: dict[tuple, list] = {}
    if isinstance(node, dict):
        if "enum" in node:
            found[path] = node["enum"]
        for key, value in node.items():
            found |= enums(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found |= enums(value, (*path, i))
    return found


def load(path: Path):
    return yaml.safe_load(path.read_text())


def test_the_config_schema_enumerates_the_code_registries():
    """Each enum of ``workflow/schemas/config.schema.yaml`` is a registry's names, in its order; a
    new enum with no registry named here fails too (the algorithm enums have their own test)."""
    found = enums(load(ROOT / "workflow" / "schemas" / "config.schema.yaml"))
    assert set(found) - ALGORITHM_ENUMS == set(CONFIG_ENUMS)
    for path, names in CONFIG_ENUMS.items():
        assert found[path] == names, path


def test_the_config_schema_seat_bounds_are_the_tables_law():
    props = load(ROOT / "workflow" / "schemas" / "config.schema.yaml")["properties"]["multi"]["properties"]
    assert props["seats"]["items"]["maximum"] == law.N_SEATS
    assert props["riemanns"]["items"]["maximum"] == law.N_SEATS - 1  # one seat at least is a person's


def test_the_population_schema_enumerates_the_code_registries():
    found = enums(load(PACKAGE / "schemas" / "population.schema.yaml"))
    assert set(found) == set(POPULATION_ENUMS)
    for path, names in POPULATION_ENUMS.items():
        assert found[path] == names, path
    # the types' sizes are jbits at the tables too (poker51.multi reads them times JBIT)
    assert [s // law.JBIT for s in law.OPEN_SIZES] == list(rules.BET_SIZES)


# --------------------------------------------------------------------------- the ante is followed
def test_the_engine_antes_follow_its_ante(monkeypatch):
    """The heads-up engine posts, logs and settles the ante it reads from :mod:`poker51.rules`."""
    assert engine.ANTE == rules.ANTE == 1
    monkeypatch.setattr(engine, "ANTE", 2)
    deck = engine.stacked_deck("standard", parse_cards("Ah Ad Ac Kd Ks Qh Qd 9c 6s 4h"))
    seats = {s: ScriptedPlayer(["check", "check"], keeps=[0b11111]) for s in "HR"}
    res = engine.play_hand(seats, stacks={"H": 20, "R": 20}, deck=deck, variant="standard")
    (ante,) = [e for e in map(json.loads, res.log.splitlines()) if e["event"] == "ante"]
    assert (ante["amount"], ante["pot"], ante["stacks"]) == (2, 4, {"H": 18, "R": 18})
    assert res.net == {"H": 2, "R": -2} and res.stacks_after == {"H": 22, "R": 18}


def test_play_needs_a_stack_of_one_ante(monkeypatch):
    from poker51.commands import play

    args = argparse.Namespace(variant="standard", stack=1, hands=0)
    with pytest.raises(InputError, match="at least 1 "):
        play.run(argparse.Namespace(variant="standard", stack=0, hands=0))
    monkeypatch.setattr(rules, "ANTE", 2)
    with pytest.raises(InputError, match="--stack must be at least 2 "):
        play.run(args)


# --------------------------------------------------------------------------- no literal restated
#: the records, where the literals live
HOMES = {"rules.py", "multi/law.py", "rulebook/games.py"}
#: names of the records' numbers (and the aliases the kernels used): assigned only from a record
GUARDED = {
    "ANTE", "BET_SIZES", "RIEMANN_BET", "R_BET", "SIZES", "OPEN_SIZES", "N_SEATS", "MAX_RAISES", "RIEMANN_OPEN",
    "N_DRAWS", "JBIT", "BUYINS", "ALL_IN_OPEN_BELOW", "RANGE_FRACTION", "FRACTIONS", "RAISE_AT", "BLUFF_BELOW",
    "RERAISE_FACTOR",
}  # fmt: skip
#: v0.5's thresholds have their home in poker51.policies.v05 (the rule card's steps)
HOME_OF = {"RANGE_FRACTION": "policies/v05.py", "RAISE_AT": "policies/v05.py", "BLUFF_BELOW": "policies/v05.py",
           "RERAISE_FACTOR": "policies/v05.py"}  # fmt: skip
#: the rule card pinned independently of the engine, for the verify stage to compare with it
PINNED = {("realcard/audit.py", "RULES_V05")}
ANTE_NAME = re.compile(r"(^|_)ante(_|$)", re.IGNORECASE)


def _literal(node: ast.AST) -> bool:
    """A number, a tuple/list/set/dict of literals, or a call on literals only (``np.array([1, 2])``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.values) and all(_literal(v) for v in node.values)
    if isinstance(node, ast.Call):
        return bool(node.args) and all(_literal(a) for a in node.args)
    return False


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _assigned(node: ast.AST):
    """(name, value) pairs of an assignment, tuple targets paired with tuple values."""
    if isinstance(node, ast.Assign):
        pairs = [(t, node.value) for t in node.targets]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        pairs = [(node.target, node.value)]
    else:
        return
    for target, value in pairs:
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs += list(zip(target.elts, value.elts))
        elif _name(target) is not None:
            yield _name(target), value


def restated_constants(package: Path) -> list[str]:
    """Where a module outside the records writes a record's number as a literal: a guarded name or an
    ``ante`` assigned a literal, an ``ante=`` argument or default, a ``"ante"`` key, or an ante compared
    with a number.  Returns ``path:line: what`` for each."""
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel in HOMES:
            continue
        tree = ast.parse(path.read_text(), rel)
        pinned = {n for (p, n) in PINNED if p == rel}
        skip: set[int] = set()
        for node in ast.walk(tree):
            for name, value in _assigned(node):
                if name in pinned:
                    skip.update(id(n) for n in ast.walk(value))
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            where = f"{rel}:{getattr(node, 'lineno', '?')}"
            for name, value in _assigned(node):
                guarded = name in GUARDED and HOME_OF.get(name) != rel
                if (guarded or ANTE_NAME.search(name)) and name not in pinned and _literal(value):
                    found.append(f"{where}: {name} = {ast.unparse(value)}")
            if isinstance(node, ast.keyword) and node.arg and ANTE_NAME.search(node.arg) and _literal(node.value):
                found.append(f"{where}: {node.arg}={ast.unparse(node.value)}")
            if isinstance(node, ast.arguments):
                args = node.posonlyargs + node.args
                defaults = list(zip(args[len(args) - len(node.defaults) :], node.defaults))
                defaults += [(a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults) if d is not None]
                found += [f"{rel}: default {a.arg}={ast.unparse(d)}" for a, d in defaults
                          if ANTE_NAME.search(a.arg) and _literal(d)]  # fmt: skip
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "ante" and _literal(value):
                        found.append(f"{where}: 'ante': {ast.unparse(value)}")
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_name(s) and ANTE_NAME.search(_name(s) or "") for s in sides) and any(
                    _literal(s) for s in sides
                ):
                    found.append(f"{where}: {ast.unparse(node)}")
    return found


def test_no_module_restates_a_constant_of_the_records():
    """The ante test of issue 25: a module keeping a literal ante (or a size, Riemann's bet, the
    seats, the raise cap) where it should read the record fails here, naming the line."""
    assert restated_constants(PACKAGE) == []


def test_the_scan_finds_literal_antes(tmp_path):
    """The scan flags what it should (each form once) and leaves reads of the records alone."""
    (tmp_path / "multi").mkdir()
    (tmp_path / "multi" / "law.py").write_text("ANTE = 100\n")
    (tmp_path / "k.py").write_text(
        "import numpy as np\nfrom poker51.rules import ANTE, BET_SIZES\n"
        "R_BET = 2\nSIZES = np.array([1, 2, 4, 8], dtype=np.int64)\nN_SEATS = 5\n"
        "OK = np.array(BET_SIZES)\nante_h = ANTE\n"
        "def f(x, ante=1):\n    return g(ante=1) if x.ante < 1 else {'ante': 1}\n"
    )
    assert sorted(f.split(": ", 1)[1] for f in restated_constants(tmp_path)) == sorted([
        "R_BET = 2", "SIZES = np.array([1, 2, 4, 8], dtype=np.int64)", "N_SEATS = 5",
        "default ante=1", "ante=1", "x.ante < 1", "'ante': 1",
    ])  # fmt: skip
