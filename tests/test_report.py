"""The report's categories (``snakemake --report``, workflow/rules): numbered 1..N in the order
of the pipeline, one number per category, and every caption file present (issue 29)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_categories_are_numbered_in_order_without_duplicates():
    text = "".join(p.read_text() for p in sorted((ROOT / "workflow" / "rules").glob("*.smk")))
    names = set(re.findall(r"\"(\d+) ([A-Z][^\"]*)\"", text))
    numbers = sorted(int(n) for n, _ in names)
    assert numbers == list(range(1, len(names) + 1)), sorted(names)
    assert dict((int(n), c) for n, c in names)[6] == "Headline tables"


def test_every_caption_file_exists():
    text = "".join(p.read_text() for p in sorted((ROOT / "workflow" / "rules").glob("*.smk")))
    captions = set(re.findall(r"figure_report\(\"([^\"{]+)\"", text)) | set(re.findall(r"caption=\"([^\"{]+)\"", text))
    assert captions and all((ROOT / "workflow" / "report" / f"{c}.rst").exists() for c in captions), captions
