"""Shared test set-up: test modules in every folder import :mod:`helpers` (tests/helpers.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
