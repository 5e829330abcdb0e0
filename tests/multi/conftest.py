"""Test set-up of tests/multi: its helper module is importable as ``multi_helpers``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
