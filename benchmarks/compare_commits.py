"""One benchmark on two commits, run alternately: a fair comparison on a machine whose speed drifts.

    .venv/bin/python benchmarks/compare_commits.py [--base REV] [--rounds N] [--script NAME] [-- ARGS...]

On a shared machine the speed moves by more within an hour than most changes gain
(``docs/speed-log.md``), so a figure taken before a change and one taken after it compare the
machine as much as the code.  This runs ``benchmarks/NAME`` (default ``bench_poker51.py``) of
the working tree and of ``--base`` (default ``HEAD~1``, checked out into a temporary
``git worktree``) one after the other, ``--rounds`` times (base first, then the working tree, in
every round), each as ``python benchmarks/NAME ARGS`` in its own checkout with that checkout's
``src`` first on ``PYTHONPATH`` and the same Python environment; then prints, per round and
side, the benchmark's lines that start with one of ``--key`` (default: the Nash solve and the
iteration lines of ``bench_poker51.py``).  Each side has its own Numba cache (its ``src``
folder), so a first round may include compiling: keep the later rounds.  Relative paths in ARGS
are read from each checkout's root: give absolute ones for files of this checkout (an
abstraction folder under ``results/``, say).  The worktree is removed at the end unless
``--keep``.  Not in ``make bench`` (it takes several minutes per round).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KEYS = ("Nash to", "1 thread", "2 threads")


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="The benchmark's own options go after --.")
    ap.add_argument("--base", default="HEAD~1", help="the commit to compare with (default HEAD~1)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of base then working tree (default 2)")
    ap.add_argument("--script", default="bench_poker51.py", help="a script of benchmarks/ (default bench_poker51.py)")
    ap.add_argument("--key", action="append", default=None, help="print the output lines that start with this")
    ap.add_argument("--keep", action="store_true", help="keep the base's worktree")
    argv = sys.argv[1:] if argv is None else list(argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    a, unknown = ap.parse_known_args(argv[:cut])
    if unknown:
        ap.error(f"unrecognized arguments: {' '.join(unknown)} (the benchmark's own options go after --)")
    a.args = argv[cut + 1 :]
    if a.rounds < 1:
        ap.error(f"--rounds must be at least 1, got {a.rounds}")
    if Path(a.script).name != a.script or not (ROOT / "benchmarks" / a.script).is_file():
        ap.error(f"--script {a.script}: not a script of {ROOT / 'benchmarks'}")
    r = _git("rev-parse", "--verify", "--quiet", f"{a.base}^{{commit}}")
    if r.returncode != 0:
        ap.error(f"--base {a.base}: not a commit of {ROOT}")
    a.commit = r.stdout.strip()
    a.key = tuple(a.key) if a.key else DEFAULT_KEYS
    return a


def run_side(root: Path, script: str, args: list[str]) -> tuple[int, str]:
    """(exit status, stdout + stderr) of the benchmark in checkout ``root``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run(
        [sys.executable, str(root / "benchmarks" / script), *args], cwd=root, env=env, capture_output=True, text=True
    )
    return r.returncode, r.stdout + r.stderr


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    folder = Path(tempfile.mkdtemp(prefix=f"poker51-base-{a.commit[:10]}-"))
    made = _git("worktree", "add", "--detach", "--quiet", str(folder), a.commit)
    if made.returncode != 0:
        folder.rmdir()
        print(f"compare_commits: git worktree add failed: {made.stderr.strip()}", file=sys.stderr)
        return 1
    try:
        return _compare(a, folder)
    finally:
        if not a.keep:
            _git("worktree", "remove", "--force", str(folder))
        else:
            print(f"the base's worktree: {folder} (git worktree remove {folder})")


def _compare(a: argparse.Namespace, folder: Path) -> int:
    """The rounds, base first in each; 1 if a run failed."""
    if not (folder / "benchmarks" / a.script).is_file():
        print(f"compare_commits: {a.commit[:10]} has no benchmarks/{a.script}", file=sys.stderr)
        return 1
    head = _git("rev-parse", "--short", "HEAD").stdout.strip()
    dirty = " + uncommitted changes" if _git("status", "--porcelain", "--untracked-files=no").stdout.strip() else ""
    sides = [(f"base {a.commit[:10]}", folder), (f"this tree ({head}{dirty})", ROOT)]
    print(f"benchmarks/{a.script} {' '.join(a.args)}: {a.rounds} round(s), base first in each")
    failed = 0
    for rnd in range(1, a.rounds + 1):
        for label, root in sides:
            code, out = run_side(root, a.script, a.args)
            print(f"-- round {rnd}, {label}" + ("" if code == 0 else f": exit status {code}"), flush=True)
            lines = [x for x in out.splitlines() if x.startswith(a.key)]
            for x in lines if code == 0 else out.strip().splitlines()[-5:]:
                print(f"   {x}")
            failed += code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
