"""The worked examples of docs/multi.md: each scenario on the page gives exactly the output on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from poker51.cards import parse_cards
from poker51.multi.belief import standard_belief
from poker51.multi.riemann import RiemannPolicy, power, range_fraction
from poker51.multi.scenario import run_scenario
from poker51.policies.v05 import adjusted_score, post_draw_read, pre_draw_read

DOC = Path(__file__).resolve().parents[2] / "docs" / "multi.md"
BLOCK = re.compile(r"```json (scenario|output)=(\S+)\n(.*?)```", re.S)


def blocks() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for kind, name, body in BLOCK.findall(DOC.read_text()):
        out.setdefault(name, {})[kind] = json.loads(body)
    return out


def test_the_page_has_both_worked_examples():
    assert set(blocks()) == {"side-pots", "riemann"}
    assert all(set(b) == {"scenario", "output"} for b in blocks().values())


@pytest.mark.parametrize("name", ["side-pots", "riemann"])
def test_worked_example_gives_the_documented_output(name, tmp_path):
    b = blocks()[name]
    log = tmp_path / f"{name}.log"
    assert run_scenario(b["scenario"], log=log) == b["output"]  # type: ignore[arg-type]
    from poker51.multi.commit import check_log

    assert check_log(log)["failures"] == 0


def test_riemanns_reads_quoted_in_example_2():
    belief = standard_belief()
    assert RiemannPolicy(belief) is not None
    r = pre_draw_read(parse_cards("Qs Qh Qd 5c 3s"), 5, belief, "standard")
    assert round(r, 4) == 0.9891
    assert round(post_draw_read(parse_cards("Qs Qh Qd 8h 2h"), 3, belief, "standard"), 4) == 0.9714
    r = pre_draw_read(parse_cards("Ks Kd 9s 7d 4h"), 5, belief, "standard")
    assert round(r, 4) == 0.9039 and round(power(adjusted_score(r, range_fraction(400, False)), 1), 4) == 0.8627
    r = post_draw_read(parse_cards("Ks Kd 5s 2d 2h"), 2, belief, "standard")
    assert round(power(adjusted_score(r, range_fraction(200, False)), 1), 4) == 0.2739 >= 200 / 2200
