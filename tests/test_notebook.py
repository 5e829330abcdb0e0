"""notebooks/paper.ipynb draws every figure the pipeline draws (issue 29): the figures its
figure cells name (metadata ``poker51_figures``) are the figure targets of workflow/rules, and
``workflow/scripts/run_notebook.py`` (CI, on the smoke results) counts each cell's images
against them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from poker51.rules import VARIANT_NAMES

ROOT = Path(__file__).resolve().parents[1]


def pipeline_figures() -> set[str]:
    """Every ``figure("stem")`` and ``figure_report("stem", ...)`` of the rules files."""
    text = "".join(p.read_text() for p in sorted((ROOT / "workflow" / "rules").glob("*.smk")))
    stems = set(re.findall(r"\bfigure(?:_report)?\(f?\"([^\"]+)\"", text))
    return {s.replace("{v}", v).replace("{variant}", v) for s in stems for v in VARIANT_NAMES}


def notebook_figures() -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "paper.ipynb").read_text())
    out = []
    for c in nb["cells"]:
        if c["cell_type"] == "code" and "figure" in c["metadata"].get("tags", []):
            named = c["metadata"]["poker51_figures"]
            out += [s.format(variant=v) for s in ([named] if isinstance(named, str) else named) for v in VARIANT_NAMES]
    return list(dict.fromkeys(out))


def test_the_notebook_draws_every_figure_of_the_pipeline():
    figures = pipeline_figures()
    assert len(figures) == 16  # 13 figures, the strategy heat map once per variant
    assert sorted(notebook_figures()) == sorted(figures)


def test_every_figure_cell_calls_a_draw_function_per_figure_it_names():
    nb = json.loads((ROOT / "notebooks" / "paper.ipynb").read_text())
    for c in nb["cells"]:
        if "figure" in c["metadata"].get("tags", []):
            named = c["metadata"]["poker51_figures"]
            calls = len(re.findall(r"figures\.draw_\w+\(", "".join(c["source"])))
            assert calls == (1 if isinstance(named, str) else len(named)), "".join(c["source"])


def test_no_module_imports_tqdm_auto():
    """``tqdm.auto`` (and ``tqdm.notebook``) print a TqdmExperimentalWarning in the notebook's
    first cell: the package imports plain ``tqdm``."""
    src = ROOT / "src" / "poker51"
    bad = [
        str(p.relative_to(src))
        for p in sorted(src.rglob("*.py"))
        if re.search(r"^\s*(from|import) tqdm\.(auto|autonotebook|notebook)\b", p.read_text(), re.M)
    ]
    assert bad == []
