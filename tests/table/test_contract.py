"""One contract over every engine (scikit-learn's ``parametrize_with_checks`` habit).

Every check of :data:`contract.CHECKS` runs over every adapter that a module
``tests/table/engines_<name>.py`` registers in its ``ADAPTERS`` list (the convention and the
adapter interface: :mod:`contract`).  The heads-up engine is ``engines_headsup``; the five-seat
tables register in ``engines_multi`` and the rule book's games in ``engines_rulebook``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from contract import CHECKS, EngineAdapter

ENGINE_MODULES = sorted(p.stem for p in Path(__file__).parent.glob("engines_*.py"))


def adapters() -> list[EngineAdapter]:
    out: list[EngineAdapter] = []
    for name in ENGINE_MODULES:
        out += importlib.import_module(name).ADAPTERS
    return out


ADAPTERS = adapters()


def test_every_engine_module_registers_an_adapter():
    assert "engines_headsup" in ENGINE_MODULES
    assert all(isinstance(a, EngineAdapter) for a in ADAPTERS)
    assert len({a.name for a in ADAPTERS}) == len(ADAPTERS) >= len(ENGINE_MODULES)


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
@pytest.mark.parametrize("adapter", ADAPTERS, ids=[a.name for a in ADAPTERS])
def test_contract(adapter, check):
    check(adapter)
