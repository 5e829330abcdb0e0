"""After the smoke run: every Parquet output round-trips through pandas and pyarrow,
and every figure is a non-empty PDF and PNG.  Exit 1 naming the first bad file."""
import sys
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from poker51.io import read_parquet

results = Path(yaml.safe_load(Path(sys.argv[1]).read_text())["results"])
tables = sorted(results.rglob("*.parquet"))
figures = sorted((results / "figures").glob("*.p*"))
if not tables or not figures:
    sys.exit(f"check_smoke: no tables or figures under {results}")
for path in tables:
    df, at = read_parquet(path), pq.read_table(path)
    if len(df) != at.num_rows or list(df.columns) != at.column_names or len(df) == 0:
        sys.exit(f"check_smoke: {path} does not round-trip (pandas {df.shape}, pyarrow {at.shape})")
for path in figures:
    head = path.read_bytes()[:8]
    if not (head.startswith(b"%PDF") or head.startswith(b"\x89PNG")):
        sys.exit(f"check_smoke: {path} is not a PDF or PNG")
print(f"check_smoke: {len(tables)} tables round-trip, {len(figures)} figure files drawn")
