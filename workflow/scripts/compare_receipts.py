"""Compare two runs' receipts file by file (paths relative to each results directory).

    compare_receipts.py RESULTS_A RESULTS_B

Exits 1 naming every file whose SHA-256 differs or that only one run wrote: the
pipeline's outputs must be byte-identical whatever --cores is."""

import json
import sys
from pathlib import Path


def files(results: str) -> dict[str, str]:
    rec = json.loads((Path(results) / "receipt.json").read_text())
    prefix = results.rstrip("/") + "/"
    return {k.removeprefix(prefix): v for k, v in rec["files"].items()}


a, b = files(sys.argv[1]), files(sys.argv[2])
bad = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
if bad:
    sys.exit(f"compare_receipts: {len(bad)} files differ between {sys.argv[1]} and {sys.argv[2]}: {bad}")
print(f"compare_receipts: {len(a)} files byte-identical between {sys.argv[1]} and {sys.argv[2]}")
