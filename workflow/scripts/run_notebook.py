"""Execute notebooks/paper.ipynb on a results directory (CI: the smoke results), so the
notebook cannot rot, and check that it shows its figures: every cell tagged ``figure`` must
hold at least one PNG image output.  The executed notebook is written next to the results.

    run_notebook.py RESULTS_DIR

Exits 1 naming each figure cell without an image (a figure drawn off screen, for example
under ``matplotlib.use("Agg")``, leaves no image output)."""

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

results = Path(sys.argv[1]).resolve()
os.environ["POKER51_RESULTS"] = str(results)
nb = nbformat.read("notebooks/paper.ipynb", as_version=4)
NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "notebooks"}}).execute()
nbformat.write(nb, results / "paper.ipynb")

figure_cells = [c for c in nb.cells if c.cell_type == "code" and "figure" in c.metadata.get("tags", [])]
images = {id(c): sum("image/png" in o.get("data", {}) for o in c.get("outputs", [])) for c in figure_cells}
missing = [c.source.splitlines()[0] for c in figure_cells if images[id(c)] == 0]
if not figure_cells:
    sys.exit("run_notebook: no cell of notebooks/paper.ipynb is tagged 'figure'")
if missing:
    sys.exit(f"run_notebook: {len(missing)} figure cells show no image: {missing}")
print(
    f"run_notebook: {len(nb.cells)} cells executed on {sys.argv[1]}; "
    f"{sum(images.values())} images in {len(figure_cells)} figure cells; written to {results / 'paper.ipynb'}"
)
