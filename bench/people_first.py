"""People first on a busy host (issue 22): how long a person waits for the host while
``--tables`` in-host tables of six bots play Fool's Gold, with the host's cap on the
bots' timer work per turn of the event loop (``HostConfig.bots_per_turn``, 5 ms) and
without it (``inf``), interleaved (on, off, on, off, ...), each host a process of its
own started afresh.

The person is this process: it says hello at the host's one table with nobody else at
it, then sends a ping at a person's pace (every 0.3 s, give or take 30%) and times the
pong. The host prints its CPU share, its bots' actions a second and how late their
actions were applied (late p50 / p99): the price the bots pay.

    .venv/bin/python bench/people_first.py [--tables 600] [--seconds 30] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import msgspec  # noqa: E402

from net import protocol as p  # noqa: E402


def pct(data: list[float], q: float) -> float:
    if not data:
        return float("nan")
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def host_child(tables: int, budget: float, seconds: float) -> None:
    from inhost import BotTables

    from net import gctune
    from net.host import Host, HostConfig

    host = Host(config=HostConfig(bots_per_turn=budget))
    host.create_table("Saloon", "foolsgold", seats=3)  # the person's, first
    bots = BotTables(host, tables)
    gctune.settle()
    await host.start("127.0.0.1", 0)
    print(json.dumps({"port": host.port}), flush=True)
    await asyncio.sleep(3.0)  # the person warms up too
    bots.late.clear()
    cpu0, wall0, moves0 = time.process_time(), time.perf_counter(), bots.moves
    end = wall0 + seconds
    while time.perf_counter() < end:
        await asyncio.sleep(0.5)
        bots.restart_finished()
    wall = time.perf_counter() - wall0
    print(json.dumps({
        "cpu": (time.process_time() - cpu0) / wall,
        "actions_per_s": (bots.moves - moves0) / wall,
        "late_p50_ms": pct(bots.late, 50) * 1000, "late_p99_ms": pct(bots.late, 99) * 1000,
        "deferred": host.turns.deferred,
    }), flush=True)
    await asyncio.sleep(3600)  # until the bench kills it


async def person(port: int, seconds: float, seed: int) -> list[float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
    writer.write(p.encode(p.Hello(protocol=3, name="Ann")))
    welcome = msgspec.json.decode(await reader.readline())
    assert welcome.get("type") == "welcome", welcome
    rng = random.Random(seed)
    times: list[float] = []
    warm_until = time.perf_counter() + 3.0
    end = warm_until + seconds
    n = 0
    while time.perf_counter() < end:
        await asyncio.sleep(0.3 * rng.uniform(0.7, 1.3))
        n += 1
        sent = time.perf_counter()
        writer.write(p.encode(p.Ping(id=n)))
        while True:
            message = msgspec.json.decode(await reader.readline())
            if message.get("type") == "pong" and message.get("id") == n:
                break
        if sent >= warm_until:
            times.append(time.perf_counter() - sent)
    writer.close()
    return times


async def one_run(tables: int, budget: float, seconds: float, seed: int) -> dict:
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--child", "--tables", str(tables), "--budget", str(budget),
        "--seconds", str(seconds), stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        limit=1 << 20)  # fmt: skip
    assert child.stdout is not None
    try:
        port = json.loads(await asyncio.wait_for(child.stdout.readline(), 300))["port"]
        waits = await person(port, seconds, seed)
        host = json.loads(await asyncio.wait_for(child.stdout.readline(), 120))
    finally:
        child.kill()
        await child.wait()
    return {"p50_ms": pct(waits, 50) * 1000, "p99_ms": pct(waits, 99) * 1000,
            "n": len(waits), **host}


async def main(args: argparse.Namespace) -> None:
    results: dict[str, list[dict]] = {"on": [], "off": []}
    budgets = {"on": 0.005, "off": math.inf}
    for r in range(args.rounds):
        for mode in ("on", "off") if r % 2 == 0 else ("off", "on"):
            result = await one_run(args.tables, budgets[mode], args.seconds, seed=r)
            results[mode].append(result)
            print(json.dumps({"round": r, "mode": mode, **result}), flush=True)
    print(f"\n{args.tables} tables of 6 bots, {args.seconds:g} s a run, {args.rounds} rounds, "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    print("| people first | person's ping p50 ms | p99 ms | host CPU | bot actions/s "
          "| bots late p50 / p99 ms | deferred |")
    print("|---|---|---|---|---|---|---|")
    for mode in ("on", "off"):
        rs = results[mode]

        def spread(key: str, fmt: str = ".1f", rs=rs) -> str:
            values = [x[key] for x in rs]
            return (f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-"
                    f"{max(values):{fmt}})")

        print(f"| {mode} | {spread('p50_ms')} | {spread('p99_ms')} | {spread('cpu', '.2f')} | "
              f"{spread('actions_per_s', '.0f')} | {spread('late_p50_ms')} / "
              f"{spread('late_p99_ms')} | {spread('deferred', '.0f')} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--budget", type=float, default=0.005, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(host_child(args.tables, args.budget, args.seconds))
    else:
        asyncio.run(main(args))
