"""Test set-up of tests/table: the contract and the engines' adapters import by their names
(``contract``, ``engines_headsup``, ...)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
