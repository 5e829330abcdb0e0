"""Helpers of the browser tests (not tests): Debian's chromium (``tools/ensure_chromium.sh``), a real
uvicorn server on 127.0.0.1 in a thread, the screenshots' folder, and a bridge that lets the host
open five-seat rooms until it does so itself."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from service_helpers import ROOT

#: Chromium's flags: headless, and none of its own traffic (this machine's network is closed, and
#: the tests send traffic to loopback only)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "results" / "test-artifacts" / "browser"
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}


def ensure_chromium() -> str:
    """The chromium binary (installed from Debian's packages when absent); one line on failure."""
    r = subprocess.run(
        ["sh", str(ROOT / "tools" / "ensure_chromium.sh")], capture_output=True, text=True, timeout=900, check=False
    )
    if r.returncode != 0:
        raise RuntimeError((r.stderr.strip().splitlines() or ["tools/ensure_chromium.sh failed"])[-1])
    return r.stdout.strip().splitlines()[-1]


class ServerThread:
    """The service's app on uvicorn, listening on 127.0.0.1 at a free port, in a daemon thread.
    ``stop`` asks it to exit and waits (bounded)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self, timeout: float = 20.0) -> ServerThread:
        self.thread.start()
        t0 = time.monotonic()
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() - t0 > timeout:
                raise RuntimeError(f"uvicorn did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        self.sock.close()
        if self.thread.is_alive():
            raise RuntimeError(f"uvicorn on {self.url} did not stop in {timeout} s")


def shot(page: Any, name: str) -> Path:
    """A full-page screenshot under :data:`ARTIFACTS` (printed, so ``pytest -s`` shows where)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path
