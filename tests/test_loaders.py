"""Every loader of a variant's tables refuses another variant's files, and a folder that mixes
abstraction runs, with one line naming the path and both values (issue 29): the abstraction
(:meth:`AbstractionTables.load`, :func:`load_abstraction`), the classes and buckets that
:meth:`Riemann.load` and the verifier take, and :func:`load_results`.  The command line's
side (exit 2, one line) is in ``tests/test_cli.py``'s table of bad inputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from poker51.abstraction.tables import AbstractionTables, load_abstraction
from poker51.errors import TableError
from poker51.io import check_metadata, write_parquet
from poker51.rules import ABSTRACTION_TABLES

FRAME = pd.DataFrame({"class": [0, 1]})


def abstraction_dir(root: Path, labels: dict[str, dict]) -> Path:
    """Four tables under ``root`` with the metadata ``labels[name]`` (default: the classes')."""
    for name in ABSTRACTION_TABLES:
        write_parquet(FRAME, root / f"{name}.parquet", metadata=labels.get(name, labels["classes"]))
    return root


WILD = {"variant": "wild", "n_buckets": 16, "belief_seed": 51, "belief_samples": 20000, "config_sha256": "a" * 64}

#: (labels of the four tables, the variant asked for, the table named, what the line says)
MISMATCHES = [
    (
        {"classes": WILD},
        "standard",
        "classes",
        "the classes table of variant wild (poker51.variant), not of standard (asked for)",
    ),
    (
        {"classes": WILD},
        "bug",
        "classes",
        "the classes table of variant wild (poker51.variant), not of bug (asked for)",
    ),
    (
        {"classes": {**WILD, "variant": "standard"}, "belief": WILD},
        "standard",
        "belief",
        "the belief table of variant wild (poker51.variant), not of standard (asked for)",
    ),
    (
        {"classes": WILD, "buckets": {**WILD, "n_buckets": 8}},
        "wild",
        "buckets",
        "a buckets table with n_buckets = 8 (poker51.n_buckets), not 16 (as in {dir}/classes.parquet)",
    ),
    (
        {"classes": WILD, "transitions": {**WILD, "belief_seed": 7}},
        "wild",
        "transitions",
        "a transitions table with belief_seed = 7 (poker51.belief_seed), not 51 (as in {dir}/classes.parquet)",
    ),
    (
        {"classes": WILD, "belief": {**WILD, "config_sha256": "b" * 64}},
        "wild",
        "belief",
        f"a belief table with config_sha256 = '{'b' * 64}' (poker51.config_sha256), not '{'a' * 64}' "
        "(as in {dir}/classes.parquet)",
    ),
]


@pytest.mark.parametrize("labels,variant,named,says", MISMATCHES)
def test_abstraction_load_refuses_another_variant_or_run(labels, variant, named, says, tmp_path):
    d = abstraction_dir(tmp_path / "wild", labels)
    with pytest.raises(TableError) as err:
        AbstractionTables.load(d, variant)
    line = str(err.value)
    assert "\n" not in line
    assert line == f"{d}/{named}.parquet: " + says.format(dir=d)


def test_load_abstraction_finds_the_variant_folder_and_refuses_its_label(tmp_path):
    abstraction_dir(tmp_path / "standard", {"classes": WILD})
    with pytest.raises(TableError, match=r"standard/classes\.parquet: the classes table of variant wild"):
        load_abstraction(tmp_path, "standard")


def test_a_table_without_the_keys_is_not_refused(tmp_path):
    """Tables written outside the pipeline (tests, users) carry no metadata: nothing to compare."""
    p = write_parquet(FRAME, tmp_path / "classes.parquet")
    assert check_metadata(p, {"variant": "standard", "n_buckets": 16}) == {}


def test_riemann_load_blames_the_classes_file(tmp_path):
    """The wild classes with the standard table: the classes file is named, with both variants
    (it used to blame the table's row count)."""
    from helpers import exported_standard

    from poker51.policies.riemann import Riemann

    ex = exported_standard()
    classes = write_parquet(pd.read_parquet(ex.classes), tmp_path / "classes.parquet", metadata={"variant": "wild"})
    with pytest.raises(TableError) as err:
        Riemann.load(ex.parquet, classes=classes, buckets=ex.buckets)
    assert str(err.value) == (
        f"{classes}: the class table of variant wild (poker51.variant), not of standard (the variant of {ex.parquet})"
    )
    buckets = write_parquet(pd.read_parquet(ex.buckets), tmp_path / "buckets.parquet", metadata={"variant": "bug"})
    with pytest.raises(TableError, match=r"buckets\.parquet: the bucket table of variant bug \(poker51\.variant\)"):
        Riemann.load(ex.parquet, classes=ex.classes, buckets=buckets)
    assert Riemann.load(ex.parquet, classes=ex.classes, buckets=ex.buckets).variant == "standard"


def test_riemann_load_blames_a_bucket_file_of_another_count(tmp_path):
    """A buckets file of the right variant but another bucket count (its 40 buckets merged in
    pairs) is refused naming that file and both counts, not the table's row count; the same for
    a class table with a class too many."""
    from helpers import exported_standard

    from poker51.policies.riemann import Riemann

    ex = exported_standard()
    b = pd.read_parquet(ex.buckets).sort_values("bucket")
    halves = b[b["bucket"] % 2 == 0].assign(bucket=lambda f: f["bucket"] // 2)
    buckets = write_parquet(halves, tmp_path / "buckets20.parquet", metadata={"variant": "standard"})
    with pytest.raises(TableError) as err:
        Riemann.load(ex.parquet, classes=ex.classes, buckets=buckets)
    assert str(err.value) == (
        f"{buckets}: 20 buckets, but {ex.parquet} is a table of 40 (the bucket table of another abstraction)"
    )
    c = pd.read_parquet(ex.classes)
    extra = pd.concat([c, c.tail(1).assign(**{"class": len(c), "base": -7})], ignore_index=True)
    classes = write_parquet(extra, tmp_path / "classes.parquet", metadata={"variant": "standard"})
    with pytest.raises(TableError, match=rf"classes\.parquet: {len(c) + 1} classes, but .* is a table of {len(c)} "):
        Riemann.load(ex.parquet, classes=classes, buckets=ex.buckets)


def test_the_verifier_reads_no_other_variant_classes(tmp_path):
    from poker51.realcard.verify import _abstraction

    abstraction_dir(tmp_path / "standard", {"classes": WILD})
    with pytest.raises(TableError, match=r"standard/classes\.parquet: the class table of variant wild"):
        _abstraction(tmp_path, "standard")


def fake_results(root: Path, variant_label: str) -> Path:
    """The files :func:`load_results` reads, tiny, the variant folder ``standard`` labelled
    ``variant_label``."""
    for rel in ("census/counts", "census/orders", "census/claims", "scores", "convergence", "evidence"):
        write_parquet(FRAME, root / f"{rel}.parquet")
    abstraction_dir(root / "standard", {"classes": {"variant": variant_label}})
    (root / "receipt.json").write_text(json.dumps({"config": {"solve": {"algorithm": "dcfr"}}, "files": {}}))
    return root


def test_load_results_refuses_another_variant_folder(tmp_path):
    from poker51.results import load_results

    root = fake_results(tmp_path, "wild")
    with pytest.raises(TableError) as err:
        load_results(root)
    says = "the classes table of variant wild (poker51.variant), not of standard (asked for)"
    assert str(err.value) == f"{root}/standard/classes.parquet: {says}"


def test_scores_iterations_are_labelled_by_the_algorithm_that_ran(tmp_path):
    """The scores stage writes "CFR+ iterations" whatever ran; a DCFR run reads "DCFR iterations"."""
    from poker51.results import Results

    units = {"p": "probability", "iterations": "CFR+ iterations", "guarantee": "jbits"}
    write_parquet(FRAME, tmp_path / "scores.parquet", metadata={"units": units})
    empty = pd.DataFrame()
    for algorithm, label in (("dcfr", "DCFR iterations"), ("cfr+", "CFR+ iterations"), ("pcfr+", "PCFR+ iterations")):
        receipt = {"config": {"solve": {"algorithm": algorithm}}}
        r = Results(tmp_path, *[empty] * 3, None, *[empty] * 3, None, {}, receipt, None)
        assert r.units("scores.parquet") == {**units, "iterations": label}
