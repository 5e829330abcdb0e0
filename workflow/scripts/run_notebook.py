"""Execute notebooks/paper.ipynb on a results directory (CI: the smoke results), so
the notebook cannot rot.  Usage: run_notebook.py RESULTS_DIR"""

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

os.environ["POKER51_RESULTS"] = str(Path(sys.argv[1]).resolve())
nb = nbformat.read("notebooks/paper.ipynb", as_version=4)
NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": "notebooks"}}).execute()
print(f"run_notebook: {len(nb.cells)} cells executed on {sys.argv[1]}")
