"""Load of the table service over loopback: bot clients at many tables of a real ``poker51 serve``.

    .venv/bin/python benchmarks/bench_service_load.py [--tables-dir results/smoke/tables]
        [--tables 50] [--watchers 4] [--seconds 20] [--max-hands 20000] [--think-ms 0]
        [--style steady|random] [--db URL]

The server is a child process (``poker51 serve`` on 127.0.0.1, a free port, a temporary SQLite
database unless ``--db``); the clients run in this process on one asyncio loop
(:mod:`poker51.service.bots`).  Each table is a heads-up room: one player (a bot choosing among the
engine's legal actions, seeded: ``--style steady`` (the default) a cautious person's habits,
``--style random`` uniformly) and ``--watchers`` watchers, each its own WebSocket,
so the issue's target of 50 tables and 250 connected clients is ``--tables 50 --watchers 4``.  A
player whose bank cannot ante opens a new account and room (its watchers follow), so the load
does not fade as banks empty: a steady player does so every 10-15 hands, a random one every five
or so (then about 20 new rooms a second, each with its five sockets: a sign-up storm, the harder
load).  It stops by itself after ``--seconds`` of play or ``--max-hands``
hands, whichever comes first.

Rooms are opened as a person opens them, their seeds from :mod:`secrets` (a room given
``entropy``, as the tests open them, draws its seeds through NumPy's ``SeedSequence``, about
0.1 ms more a deal); the players' choices and think times are seeded.

``--think-ms T`` gives each player a think time before every command, uniform in [T/2, 3T/2]
(seeded), as a person takes: the latency is then measured at the load those players offer, not
at saturation.  With ``--think-ms 0`` (the default) every player sends its next command as soon
as the last is answered, so the server is saturated and the latency is mostly queueing: that run
measures capacity (hands/s), the paced run the latency at a given rate.

Printed: hands/s and actions/s over the measured window (every command: deal, act, draw), the
p50/p99/max action latency (a command's send to its ack, through the commit; the clients' own
garbage collector is off while measuring, so that its pauses are not counted), the CPU seconds of
the server and of the clients, the machine figure (the Python loop of ``bench_machine.py``, and
the load average before and after: the server and the clients share this machine's cores with
whatever else runs), and the conservation audit after the server has stopped: every open room
rebuilt from its journal, banks + chips in play = every jbit minted, every bank its ledger's sum.
Exit status 1 when the audit fails.

Only heads-up rooms are driven: the host opens five-seat rooms now, but their load is not measured yet.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gc
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

from _timing import best_of

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TABLES = ROOT / "results" / "smoke" / "tables"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables-dir", default=None, help="Riemann's tables (default results/smoke/tables)")
    ap.add_argument("--abstraction", default=None, help="serve's --abstraction (default: next to the tables)")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--watchers", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--max-hands", type=int, default=20_000)
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--seed", type=int, default=51)
    ap.add_argument("--think-ms", type=float, default=0.0, help="each player's mean think time (default 0: saturation)")
    ap.add_argument("--style", choices=("steady", "random"), default="steady",
                    help="the players' habits (poker51.service.bots.choose_headsup; default steady)")  # fmt: skip
    args = ap.parse_args(argv)
    for name, least in (("tables", 1), ("max_hands", 1)):
        if getattr(args, name) < least:
            ap.error(f"--{name.replace('_', '-')} must be at least {least}, got {getattr(args, name)}")
    if not 0 <= args.watchers <= 50:
        ap.error(f"--watchers must be 0..50, got {args.watchers}")
    if not 0 <= args.think_ms <= 10_000:
        ap.error(f"--think-ms must be 0..10000, got {args.think_ms:g}")
    if not 0 < args.seconds <= 600:
        ap.error(f"--seconds must be in (0, 600], got {args.seconds:g}")
    if args.tables_dir is None:
        args.tables_dir = str(DEFAULT_TABLES)
    elif not (Path(args.tables_dir) / "riemann-v06-standard.parquet").is_file():
        ap.error(f"--tables-dir {args.tables_dir}: no riemann-v06-standard.parquet (build it: make smoke)")
    return args


class Load:
    """The counters every table adds to."""

    def __init__(self, max_hands: int) -> None:
        self.max_hands = max_hands
        self.hands = 0
        self.actions = 0
        self.latencies: list[float] = []
        self.by_type: dict[str, list[float]] = {}  # the latencies per command type (deal, act, draw)
        self.errors: list[str] = []
        self.rooms = 0
        self.measuring = False
        self.stop = asyncio.Event()


async def table(
    server, load: Load, k: int, watchers: int, seed: int, think: float = 0.0, style: str = "steady"
) -> None:
    from poker51.service.bots import WsBot, choose_headsup, post_json

    rng = random.Random(seed * 1_000_003 + k)
    while not load.stop.is_set():
        acc = await asyncio.to_thread(post_json, f"{server.http}/api/accounts")
        room = await asyncio.to_thread(post_json, f"{server.http}/api/rooms", {"kind": "headsup"}, acc["token"])
        load.rooms += 1
        player = WsBot(server.ws, room["room"], acc["token"], name=f"t{k}")
        eyes = [WsBot(server.ws, room["room"], None, name=f"t{k}w{i}", quiet=True) for i in range(watchers)]
        await player.open()
        for w in eyes:
            await w.open()
        try:
            while not load.stop.is_set():
                cmd = choose_headsup(player.track.view, rng, player.track.bank, style)
                if cmd is None:  # broke: a new account and room
                    break
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                t = time.perf_counter()
                answer = await player.send(cmd)
                dt = time.perf_counter() - t
                if answer.get("type") != "ack":
                    load.errors.append(f"table {k}: {cmd} -> {answer}")
                    break
                if load.measuring:
                    load.actions += 1
                    load.latencies.append(dt)
                    load.by_type.setdefault(cmd["type"], []).append(dt)
                    view = player.track.view.get("hand") or {}
                    if cmd["type"] != "deal" and (view.get("view") or {}).get("phase") == "done":
                        load.hands += 1
                        if load.hands >= load.max_hands:
                            load.stop.set()
        finally:
            for w in [player, *eyes]:
                await w.close()


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def drive(server, args: argparse.Namespace) -> tuple[Load, float, float]:
    load = Load(args.max_hands)
    think = args.think_ms / 1e3
    tasks = [
        asyncio.create_task(table(server, load, k, args.watchers, args.seed, think, args.style))
        for k in range(args.tables)
    ]
    await asyncio.sleep(min(3.0, args.seconds / 4))  # connect and warm up, unmeasured
    # the clients' own collector would stop every socket of this process for 50-120 ms a few
    # times a run, pauses of the load generator, not of the server: off while measuring
    gc.collect()
    gc.freeze()
    gc.disable()
    assert server.proc is not None
    cpu0, mine0 = cpu_of(server.proc.pid), time.process_time()
    t0 = time.perf_counter()
    load.measuring = True
    try:
        await asyncio.wait_for(load.stop.wait(), args.seconds)
    except TimeoutError:
        pass
    wall = time.perf_counter() - t0
    load.measuring = False
    gc.enable()
    gc.unfreeze()
    cpu = (cpu_of(server.proc.pid) - cpu0, time.process_time() - mine0)
    load.stop.set()
    await asyncio.wait(tasks, timeout=60)
    for t in tasks:
        t.cancel()
    return load, wall, cpu


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not (Path(args.tables_dir) / "riemann-v06-standard.parquet").is_file():  # the default, absent
        print(f"service load         not measured: no Riemann table in {args.tables_dir} (make smoke builds it)")
        return 0
    sys.path.insert(0, str(ROOT / "src"))
    from bench_machine import caches, python_loop

    from poker51.service.bots import ServerProcess, audit, serve_argv

    tmp = tempfile.TemporaryDirectory(prefix="poker51-load-")
    url = args.db or f"sqlite:///{tmp.name}/service.db"
    extra = [] if args.abstraction is None else ["--abstraction", args.abstraction]
    server = ServerProcess(serve_argv(args.tables_dir, url, extra), log=f"{tmp.name}/server.log")
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = os.getloadavg()
    loop_s = best_of(python_loop, 1)
    print(f"machine              {now}, {os.cpu_count()} cores, {platform.machine()}; {caches()}")
    print(f"python loop          {loop_s:.2f} s for 20 million additions (bench_machine.py)")
    print(f"load average before  {' '.join(f'{x:.2f}' for x in load_before)}")
    started = server.start(timeout=300)
    print(f"server start         {started:.1f} s ({url.split(':', 1)[0]})")
    try:
        load, wall, (cpu_server, cpu_clients) = asyncio.run(drive(server, args))
    finally:
        server.stop()
    n = len(load.latencies)
    clients = args.tables * (1 + args.watchers)
    print(f"tables               {args.tables} ({load.rooms} rooms opened), {clients} connected clients")
    pace = f"think time {args.think_ms:g} ms (uniform x0.5-1.5)" if args.think_ms else "no think time (saturation)"
    print(f"players              {args.style}, {pace}")
    print(f"hands                {load.hands} in {wall:.1f} s: {load.hands / wall:.1f} hands/s")
    print(f"actions              {load.actions}: {load.actions / wall:.1f} actions/s")
    if n:
        p50, p99, top = (x * 1e3 for x in (pct(load.latencies, 0.5), pct(load.latencies, 0.99), max(load.latencies)))
        print(f"action latency       p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {top:.1f} ms")
        for kind, xs in sorted(load.by_type.items()):
            q50, q99 = pct(xs, 0.5) * 1e3, pct(xs, 0.99) * 1e3
            print(f"  {kind:<18} {len(xs):>6} commands, p50 {q50:.1f} ms, p99 {q99:.1f} ms")
    print(f"cpu                  server {cpu_server:.1f} s, clients {cpu_clients:.1f} s over {wall:.1f} s wall")
    print(f"load average after   {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    a = audit(url)
    verdict = "ok" if not a["bad"] else "FAILED: " + "; ".join(a["bad"])
    print(
        f"conservation         {verdict}: banks {a['banks']} + chips in play {a['chips']} = {a['minted']} minted"
        f" ({a['rooms']} open rooms rebuilt)"
    )
    for e in load.errors[:5]:
        print(f"error                {e}")
    tmp.cleanup()
    return 0 if not a["bad"] and not load.errors else 1


if __name__ == "__main__":
    sys.exit(main())
