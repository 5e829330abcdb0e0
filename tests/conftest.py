"""Shared test set-up: test modules in every folder import :mod:`helpers` (tests/helpers.py)."""

import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# Property tests are seeded like everything else: the default profile derives its examples
# from each test's name (the same examples on every run and machine); `make slow` also runs
# them with the "explore" profile, fresh random examples each time, to look for new failures.
settings.register_profile("seeded", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False, max_examples=1000)
settings.load_profile("seeded")
