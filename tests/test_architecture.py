"""The house rules of the package (docs/architecture.md), checked on the source with ``ast``.

- Imports go down the layers only: a module imports its own package and the layers below.
- No module imports another module's ``_private`` name, nor reads one through a module alias, even
  within one package (an underscore means private to its module).
- No import cycles between modules.
- The Snakemake scripts call :mod:`poker51.stages` only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "poker51"

#: layer of each top-level package or module, bottom first (docs/architecture.md)
LAYERS: dict[str, int] = {
    **dict.fromkeys(
        ("errors", "fnv", "io", "log", "cards", "rules", "validation", "provenance", "slurm", "pcg64", "interrupt"),
        0,
    ),
    **dict.fromkeys(("hands", "table"), 1),
    **dict.fromkeys(("census", "abstraction", "solver"), 2),
    "games": 3,
    "export": 4,
    "study": 5,
    "play": 6,
    "policies": 7,
    **dict.fromkeys(("realcard", "multi", "rulebook"), 8),
    **dict.fromkeys(("figures", "results", "service"), 9),
    **dict.fromkeys(("stages", "cli", "commands", "__init__"), 10),
}


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def unit(module: str) -> str:
    """The layered unit of a module: its top-level package, or the module itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(imported poker51 module, names taken from it, line) for every import in the file,
    function-level imports included."""
    return imports_of(ast.parse(path.read_text()))


def imports_of(tree: ast.AST) -> list[tuple[str, list[str], int]]:
    """:func:`imports` of a parsed module."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names if a.name.startswith("poker51")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("poker51"):
            names = [a.name for a in node.names]
            if node.module == "poker51":  # from poker51 import figures
                out += [(f"poker51.{n}", [], node.lineno) for n in names]
            else:
                out.append((node.module, names, node.lineno))
    return out


MODULES = modules()


def test_every_unit_has_a_layer():
    assert {unit(m) for m in MODULES} <= set(LAYERS), sorted({unit(m) for m in MODULES} - set(LAYERS))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    me = unit(module)
    bad = []
    for target, _, line in imports(MODULES[module]):
        them = unit(target)
        if them != me and not (LAYERS[them] < LAYERS[me] or LAYERS[me] == LAYERS[them] == 0):
            bad.append(f"line {line}: {module} ({me}, layer {LAYERS[me]}) imports {target} (layer {LAYERS[them]})")
    assert not bad, bad


def dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def private(name: str) -> bool:
    """A ``_private`` name (dunders such as ``__version__`` are public)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(module: str, source: str) -> list[str]:
    """Where ``module`` (its ``source``) takes a ``_private`` name of another poker51 module:
    imports it (``from poker51.x import _y``) or reads it as an attribute of a module it
    imported (``x._y``, ``poker51.x._y``).  Another module is any other, in its own package
    too: an underscore means private to its module (docs/architecture.md).  Dunder names
    (``__version__``) are public."""
    tree = ast.parse(source)
    bad = []
    for target, names, line in imports_of(tree):
        if target != module:
            bad += [f"line {line}: {n} from {target}" for n in names if private(n)]
    aliases = {}  # local name -> the poker51 module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("poker51"):
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("poker51"):
            for a in node.names:
                if f"{node.module}.{a.name}" in MODULES:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and private(node.attr)):
            continue
        chain = dotted(node.value)
        if chain is None or chain[0] not in aliases:
            continue
        owner = ".".join([aliases[chain[0]], *chain[1:]])
        if owner != module and owner in MODULES:
            bad.append(f"line {node.lineno}: {'.'.join(chain)}.{node.attr}")
    return bad


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_names_cross_modules(module):
    bad = private_uses(module, MODULES[module].read_text())
    assert not bad, bad


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from poker51.solver.passes import _terminal_dot", ["line 1: _terminal_dot from poker51.solver.passes"]),
        ("from poker51.solver.cfr import _weights, SOLVERS", ["line 1: _weights from poker51.solver.cfr"]),
        ("from poker51.solver import passes\npasses._mix(1)", ["line 2: passes._mix"]),
        ("import poker51.solver.passes as ps\nps._mix", ["line 2: ps._mix"]),
        ("import poker51.solver.passes\npoker51.solver.passes._mix", ["line 2: poker51.solver.passes._mix"]),
        ("def f():\n    from poker51.rules import _x", ["line 2: _x from poker51.rules"]),  # function level
        ("from poker51.solver.cfr import _weights as w", ["line 1: _weights from poker51.solver.cfr"]),
        ("from poker51 import __version__\nfrom poker51.solver.cfr import SOLVERS", []),
        ("def _own():\n    pass\n_own()", []),  # its own private names
        ("from poker51.solver.cfr import CFRSolver\nCFRSolver._fingerprint", []),  # a class's, not a module's
    ],
)
def test_private_names_check_finds_them(source, found):
    """The check itself, on a module of the solver's own package (a sibling's ``_name`` counts)."""
    assert private_uses("poker51.solver.rnr", source) == found


def test_no_import_cycles():
    graph = {m: {t for t, _, _ in imports(p) if t in MODULES and t != m} for m, p in MODULES.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(t) :] + [t]))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_workflow_scripts_call_the_stages_only():
    bad = []
    for path in sorted((ROOT / "workflow" / "scripts").glob("*.py")):
        text = path.read_text()
        if "snakemake." not in text:  # CI helpers run by the Makefile, not rules
            continue
        for target, _, line in imports(path):
            if target != "poker51.stages":
                bad.append(f"{path.name}:{line} imports {target}")
    assert not bad, bad
