"""After `make report` on the smoke results: report.html holds every figure PNG and headline
table of the run, each with its caption.  Exit 1 naming what is missing.

    check_report.py RESULTS_DIR/report.html"""

import json
import re
import sys
from pathlib import Path

report = Path(sys.argv[1])
results = report.parent
if not report.is_file():
    sys.exit(f"check_report: {report}: no such report")
text = report.read_text(encoding="utf-8")
# the report embeds one JSON record per result: "path": {"name": ..., "caption": "<p>...</p>", ...}
entries = {
    m.group(1): json.loads(f'"{m.group(2)}"')
    for m in re.finditer(r'"([^"]+)": \{"name": "[^"]*", "filename": "[^"]*", .*?"caption": "((?:[^"\\]|\\.)*)"', text)
}
expected = sorted(
    [p.as_posix() for p in (results / "figures").glob("*.png")]
    + [p.as_posix() for p in (results / "headline").glob("*.html")]
    + [(results / "census" / "claims.md").as_posix()]
)
missing = [p for p in expected if p not in entries]
bare = [p for p in expected if p in entries and len(re.sub("<[^>]+>", "", entries[p]).strip()) < 40]
if len(expected) < 10 or missing or bare:
    sys.exit(f"check_report: {report}: {len(expected)} expected; missing {missing}; without a caption {bare}")
print(f"check_report: {len(expected)} figures and tables in {report}, each with its caption")
