"""The receipt's git state: the commit and whether the tree was dirty, deterministic per checkout."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from poker51.export.receipt import RECEIPT_PACKAGES, git_state, package_versions, receipt

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args):
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def test_commit_and_dirty_state_of_a_work_tree(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / ".gitignore").write_text("results/\n")
    (repo / "a.py").write_text("x = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    head = _git(repo, "rev-parse", "HEAD").strip()
    assert git_state(repo) == {"commit": head, "dirty": False}
    (repo / "results").mkdir()
    (repo / "results" / "t.parquet").write_bytes(b"x")  # ignored outputs leave the tree clean
    assert git_state(repo) == {"commit": head, "dirty": False}
    (repo / "b.py").write_text("y = 2\n")  # an untracked source file makes it dirty
    assert git_state(repo) == {"commit": head, "dirty": True}
    (repo / "b.py").unlink()
    (repo / "a.py").write_text("x = 2\n")  # and so does a changed tracked file
    assert git_state(repo) == {"commit": head, "dirty": True}
    assert git_state(tmp_path) == {"commit": None, "dirty": None}  # not a work tree


def test_receipt_is_the_same_for_the_same_checkout(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("table\n")
    a = receipt([f], {"k": 1}, {"s": 2})
    b = receipt([f], {"k": 1}, {"s": 2})
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert a["git"] == git_state() and set(a["git"]) == {"commit", "dirty"}
    assert a["packages"] == package_versions(RECEIPT_PACKAGES) and a["packages"]["matplotlib"] != "not installed"
    assert receipt([f], {}, {}, git={"commit": "abc", "dirty": False})["git"] == {"commit": "abc", "dirty": False}
