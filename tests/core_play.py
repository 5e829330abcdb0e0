"""Play Riemann from exported tables with whatever poker51 is importable (not a test module).

    python tests/core_play.py TABLE.parquet TABLE.json RECEIPT CLASSES BUCKETS HANDS

``tests/test_core_install.py`` runs it in a fresh venv holding the slim core alone and in the
project's venv, and compares the two outputs: the SHA-256 of every hand log (Parquet and JSON
tables), Riemann's net jbits, the number of showdowns, and which heavy modules were imported.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from poker51.play.engine import play_match
from poker51.policies.riemann import Riemann

HEAVY = {"numba", "llvmlite", "scipy", "matplotlib", "snakemake", "tqdm", "yaml", "jsonschema"}


class Uniform:
    """The human seat: uniform over the legal actions and the 32 keep masks (seeded)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose_keep(self, view) -> int:
        return self.rng.randrange(32)

    def act(self, view, legal):
        return legal[self.rng.randrange(len(legal))]


def main(parquet: str, json_table: str, receipt: str, classes: str, buckets: str, hands: str) -> None:
    out: dict = {}
    for label, path in (("parquet", parquet), ("json", json_table)):
        r = Riemann.load(path, receipt=receipt, classes=classes, buckets=buckets)
        res = play_match({"H": Uniform(5), "R": r}, int(hands), 51, stacks={"H": 20, "R": 20})
        logs = "".join(x.log for x in res)
        out[label] = {
            "logs_sha256": hashlib.sha256(logs.encode()).hexdigest(),
            "net_R": sum(x.net["R"] for x in res),
            "showdowns": logs.count('"event":"showdown"'),
            "hands": len(res),
        }
    out["heavy_modules"] = sorted({m.split(".")[0] for m in sys.modules} & HEAVY)
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main(*sys.argv[1:])
