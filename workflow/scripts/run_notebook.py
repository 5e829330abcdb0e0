"""Execute notebooks/paper.ipynb on a results directory (CI: the smoke results), so the
notebook cannot rot, and check that it shows every figure the pipeline drew: each cell tagged
``figure`` names in its metadata (``poker51_figures``; ``{variant}`` stands for each variant
of the run) the figures it draws and must hold exactly that many PNG images, and together
they must name every ``RESULTS_DIR/figures/*.png``.  The executed notebook is written next to
the results.

    run_notebook.py RESULTS_DIR

Exits 1 naming each figure the notebook misses and each cell whose image count is wrong (a
figure drawn off screen, for example under ``matplotlib.use("Agg")``, leaves no image)."""

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from poker51.rules import VARIANT_NAMES

results = Path(sys.argv[1]).resolve()
os.environ["POKER51_RESULTS"] = str(results)
nb = nbformat.read("notebooks/paper.ipynb", as_version=4)
NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "notebooks"}}).execute()
nbformat.write(nb, results / "paper.ipynb")

variants = [v for v in VARIANT_NAMES if (results / v / "classes.parquet").exists()]
drawn = sorted(p.stem for p in (results / "figures").glob("*.png"))
figure_cells = [c for c in nb.cells if c.cell_type == "code" and "figure" in c.metadata.get("tags", [])]
problems, shown = [], set()
for c in figure_cells:
    named = c.metadata.get("poker51_figures", [])
    stems = [s.format(variant=v) for s in ([named] if isinstance(named, str) else named) for v in variants]
    stems = list(dict.fromkeys(stems))
    images = sum("image/png" in o.get("data", {}) for o in c.get("outputs", []))
    if images != len([s for s in stems if s in drawn]):
        problems.append(f"{c.source.splitlines()[0]!r} shows {images} images for {stems}")
    shown |= set(stems) if images else set()
stray = [s for s in drawn if s not in shown]
if stray:
    problems.append(f"figures of the run the notebook does not show: {stray}")
warnings = [o.get("text", "") for c in nb.cells[:2] for o in c.get("outputs", []) if o.get("name") == "stderr"]
if any("Warning" in w for w in warnings):
    problems.append(f"the first cells print a warning: {warnings}")
if problems:
    sys.exit("run_notebook: " + "; ".join(problems))
print(
    f"run_notebook: {len(nb.cells)} cells executed on {sys.argv[1]}; {len(shown)} figures in {len(figure_cells)} "
    f"figure cells, every one of the {len(drawn)} in figures/; written to {results / 'paper.ipynb'}"
)
