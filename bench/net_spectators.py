"""Spectators over TCP: N in-host tables of six bots, each watched by K spectators (real
TCP connections from another process, which reads and drops every byte), against the
same tables unwatched, run interleaved (A B A B) in one run, each in a fresh host
process settled as ``motherlode host`` settles it (``net.gctune``).

Per run: actions a second, how late bot actions are applied (p50, p99; as
bench/net_gc.py), the host's CPU share and CPU time per action (``process_time``), and
the collector's longest pause (wall and CPU). At the end: medians over the rounds and
their range, per K.

    .venv/bin/python bench/net_spectators.py [--tables 100] [--spectators 0,50]
        [--seconds 20] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SEATS = 6


async def host_child(tables: int, watchers: int, seconds: float) -> None:
    from inhost import BotTables
    from net_gc import pct

    from net import gctune
    from net.host import Host, HostConfig

    host = Host(config=HostConfig(max_connections=100_000))
    bots = BotTables(host, tables, SEATS)
    made, late = bots.tables, bots.late
    await host.start("127.0.0.1", 0)
    watchers_proc = None
    if watchers:
        watchers_proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--watch", str(host.port), str(tables), str(watchers),
            stdout=subprocess.PIPE,
        )  # fmt: skip
        assert watchers_proc.stdout is not None
        await watchers_proc.stdout.readline()  # "joined"
    gctune.settle()
    await asyncio.sleep(2.0)
    pauses: list[tuple[float, float]] = []
    started = [0.0, 0.0]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.process_time()
        else:
            pauses.append((time.perf_counter() - started[0], time.process_time() - started[1]))

    gc.callbacks.append(on_gc)
    profile = None
    if os.environ.get("PROFILE"):  # PROFILE=file: the measured window's profile, pstats
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    late.clear()
    spectating = sum(sum(1 for m in t.members if m.spectator and m.connected) for t in made)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    end = wall0 + seconds
    while time.perf_counter() < end:
        await asyncio.sleep(0.5)
        bots.restart_finished()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    gc.callbacks.remove(on_gc)
    if profile is not None:
        profile.disable()
        profile.dump_stats(os.environ["PROFILE"])
    actions = len(late)  # bot actions applied (nearly every action here)
    if watchers_proc is not None:
        watchers_proc.kill()
    print(json.dumps({
        "actions": actions, "wall": wall, "cpu": cpu, "spectating": spectating,
        "late_p50": pct(late, 50), "late_p99": pct(late, 99),
        "pause": max(pauses, default=(0.0, 0.0)),
    }), flush=True)  # fmt: skip
    os._exit(0)  # no goodbyes to thousands of connections


async def watch(port: int, tables: int, per_table: int) -> None:
    from net import protocol as p

    async def one(table: int, n: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(p.encode(p.Hello(protocol=3, name=f"W{n}", table=f"T{table}",
                                      spectate=True)))  # fmt: skip
        joined.append(1)
        while await reader.read(1 << 16):
            pass

    joined: list[int] = []
    tasks = [asyncio.create_task(one(t, n)) for t in range(tables) for n in range(per_table)]
    while len(joined) < len(tasks):
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    print("joined", flush=True)
    await asyncio.gather(*tasks, return_exceptions=True)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        asyncio.run(host_child(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
        return
    if sys.argv[1:2] == ["--watch"]:
        asyncio.run(watch(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--spectators", default="0,50")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    ks = [int(k) for k in args.spectators.split(",")]
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'tables':>6} {'K':>4} {'watching':>8} {'acts/s':>7} {'late p50':>8} "
          f"{'late p99':>8} {'CPU':>5} {'µs/act':>7} {'pause ms (CPU)':>16}")  # fmt: skip
    results: dict[int, list[dict]] = {}
    for _ in range(args.rounds):
        for k in ks:  # interleaved: A B A B
            done = subprocess.run(
                [sys.executable, __file__, "--child", str(args.tables), str(k), str(args.seconds)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            r = json.loads(done.stdout.strip().splitlines()[-1])
            results.setdefault(k, []).append(r)
            print(f"{args.tables:6} {k:4} {r['spectating']:8} {r['actions'] / r['wall']:7.0f} "
                  f"{r['late_p50'] * 1e3:8.2f} {r['late_p99'] * 1e3:8.2f} "
                  f"{r['cpu'] / r['wall']:5.0%} {r['cpu'] / max(r['actions'], 1) * 1e6:7.0f} "
                  f"{r['pause'][0] * 1e3:7.1f} ({r['pause'][1] * 1e3:5.1f}) "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("medians over the rounds (range), n = rounds:")
    for k, rows in results.items():
        def spread(values: list[float]) -> str:
            values = sorted(values)
            return f"{statistics.median(values):.1f} ({values[0]:.1f}-{values[-1]:.1f})"

        print(f"K={k}: n={len(rows)}, late p99 ms {spread([r['late_p99'] * 1e3 for r in rows])}, "
              f"CPU µs/action {spread([r['cpu'] / max(r['actions'], 1) * 1e6 for r in rows])}, "
              f"CPU share % {spread([r['cpu'] / r['wall'] * 100 for r in rows])}, longest "
              f"pause CPU ms {spread([r['pause'][1] * 1e3 for r in rows])}")  # fmt: skip


if __name__ == "__main__":
    main()
