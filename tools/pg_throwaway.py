"""A throwaway PostgreSQL server for the service's storage tests, from Debian's packages.

    python tools/pg_throwaway.py --install        # install Debian's postgresql if absent (root, apt-get)
    python tools/pg_throwaway.py -- CMD ARGS...   # start a server, run CMD with POKER51_PG_URL set, stop it

The server lives in a fresh temporary folder (data directory and unix socket), listens on its
unix socket only (``listen_addresses=''``: no TCP port at all), trusts the local user
``poker51``, and is stopped and deleted at the end.  Run as root, ``initdb`` and the server run as
the ``postgres`` user (Debian's package creates it) through ``runuser``.  ``fsync`` is off: the
data is thrown away, and the tests check the service's transactions, not the disk.

:class:`ThrowawayPostgres` is the same as a context manager (the tests' session fixture uses it).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

USER = "poker51"


def find_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/<n>/bin`` holding ``initdb`` and ``pg_ctl``, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def install() -> Path:
    """Debian's postgresql, installed with apt-get when absent (needs root)."""
    b = find_bin()
    if b is not None:
        return b
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise RuntimeError("PostgreSQL is not installed and this is not root with apt-get: apt-get install postgresql")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql"], check=True, env=env)
    b = find_bin()
    if b is None:
        raise RuntimeError("apt-get installed postgresql but no /usr/lib/postgresql/*/bin/initdb appeared")
    return b


class ThrowawayPostgres:
    """``with ThrowawayPostgres() as url: ...``: a server for the block (module docstring)."""

    def __init__(self, bindir: Path | None = None) -> None:
        self.bindir = bindir or find_bin()
        self.root: Path | None = None
        self.url: str | None = None

    def _run(self, *cmd: str) -> subprocess.CompletedProcess:
        prefix: list[str] = []
        if os.geteuid() == 0:
            prefix = ["runuser", "-u", "postgres", "--"]
        return subprocess.run(prefix + list(cmd), check=True, capture_output=True, text=True, timeout=120)

    def start(self) -> str:
        if self.bindir is None:
            raise RuntimeError("PostgreSQL is not installed (python tools/pg_throwaway.py --install)")
        self.root = Path(tempfile.mkdtemp(prefix="poker51-pg-"))
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        data, sock = self.root / "data", self.root
        try:
            self._run(
                str(self.bindir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"
            )
            opts = f"-c listen_addresses='' -k {sock} -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            self._run(
                str(self.bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(self.root / "log"), "-w", "start"
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            err = getattr(exc, "stderr", "") or ""
            self.stop()
            raise RuntimeError(f"the throwaway PostgreSQL did not start: {err.strip()[-300:] or exc}") from None
        self.url = f"postgresql+psycopg://{USER}@/postgres?host={sock}"
        return self.url

    def stop(self) -> None:
        if self.root is None:
            return
        data = self.root / "data"
        if (data / "postmaster.pid").exists() and self.bindir is not None:
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = self.url = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--install"]:
        print(install())
        return 0
    if argv[:1] == ["--"] and len(argv) > 1:
        with ThrowawayPostgres() as url:
            return subprocess.run(argv[1:], env={**os.environ, "POKER51_PG_URL": url}).returncode
    print(__doc__.strip().splitlines()[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
