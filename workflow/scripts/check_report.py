"""After `make report` on the smoke results: report.html holds every figure PNG and headline
table of the run, each with its caption, and its front page (the workflow description,
workflow/report/workflow.rst) lists every one of them with that caption in full, so that no
caption hides behind a result's info icon.  Exit 1 naming what is missing.

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
# the front page: `var workflow_desc = "<html>";`, each result's name then its caption's HTML
m = re.search(r'var workflow_desc = ("(?:[^"\\]|\\.)*");', text)
front = json.loads(m.group(1)) if m else ""
listed = {p: front.find(f"<b>{Path(p).name}</b>") for p in expected}
unlisted = [p for p in expected if listed[p] < 0 or front.find(entries[p].strip().replace("\n", " "), listed[p]) < 0]
if unlisted:
    sys.exit(f"check_report: {report}: the front page does not list with its caption {unlisted}")
print(f"check_report: {len(expected)} figures and tables in {report}, each with its caption, all on the front page")
