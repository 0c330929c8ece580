"""Slowloris, long version: 500 sockets that never finish a hello (silent, trickling
a hello a byte a second, or trickling a line that never ends) against a host process on
the real clock, while a real client joins every 100 ms.

Figures: how many flood sockets were closed with ``hello_timeout`` and when (goal: all,
at the 10 s time-out), and the join latency of the real clients during the flood, from
opening the TCP connection to the host's welcome (goal: under 100 ms).
The CI version is ``tests/hardening/test_slowloris.py`` (fake clock).

    .venv/bin/python bench/stress_slowloris.py [--sockets 500] [--timeout 10]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402
from net.client import Client  # noqa: E402
from net.protocol import Code  # noqa: E402
from tests.hardening.harness import Raw, percentile, rss_kib  # noqa: E402
from tests.hardening.hostproc import HostProcess  # noqa: E402


async def slow(raw: Raw, kind: str, opened: float, stop_at: float) -> tuple[str, float, list]:
    """Trickle (or not) until the host closes; (kind, seconds open, codes received)."""
    hello = p.encode(p.Hello(protocol=3, name="Slow"))
    reader = asyncio.create_task(raw.closed())
    i = 0
    while not reader.done() and time.perf_counter() < stop_at:
        await asyncio.sleep(1.0 if kind == "trickle" else 0.5)
        try:
            if kind == "trickle":
                raw.writer.write(hello[i : i + 1])
            elif kind == "endless":
                raw.writer.write(b'{"type":"chat","text":"' if i == 0 else b"zz")
        except (ConnectionError, OSError):
            break
        i += 1
    seen = await reader
    return kind, time.perf_counter() - opened, [m.code for m in seen if isinstance(m, p.Error)]


async def run(args) -> int:
    host = HostProcess(
        {
            "config": {"hello_timeout": args.timeout, "max_connections": args.sockets + 100},
            "tables": [{"name": "Saloon", "game": "foolsgold", "seats": 8}],
        }
    )
    kinds = ["silent"] * (args.sockets // 2)
    kinds += ["trickle"] * (args.sockets * 3 // 10)
    kinds += ["endless"] * (args.sockets - len(kinds))
    started = time.perf_counter()
    flood = []
    for kind in kinds:
        raw = await Raw.open(host.port)
        flood.append(
            asyncio.create_task(slow(raw, kind, time.perf_counter(), started + args.timeout - 0.5))
        )
    opened = time.perf_counter() - started
    print(f"{len(flood)} flood sockets open in {opened:.2f} s "
          f"({kinds.count('silent')} silent, {kinds.count('trickle')} trickling a hello, "
          f"{kinds.count('endless')} trickling an endless line); host RSS "
          f"{rss_kib(host.pid) / 1024:.1f} MiB")  # fmt: skip
    joins: list[float] = []
    failures = 0
    while not all(task.done() for task in flood):
        t0 = time.perf_counter()
        try:
            client = await Client.connect("127.0.0.1", host.port, "Probe", reconnect=False)
            joins.append(time.perf_counter() - t0)
            await client.send(p.Leave())
            # wait for the host's bye: closing at once can reset the connection before
            # the host reads the leave (unread data on close makes the kernel send RST)
            async with asyncio.timeout(5):
                async for message in client:
                    if isinstance(message, p.Bye):
                        break
            await client.close()
        except Exception as exc:  # noqa: BLE001 - a failed join is a figure
            failures += 1
            print("join failed:", exc)
            if failures == 1:
                spy = await Raw.open(host.port)
                info = (await spy.hello("Spy", spectate=True)).table
                print([(s.name, s.connected, s.kind) for s in info.seats], info.phase)
                spy.close()
        await asyncio.sleep(max(0.0, 0.1 - (time.perf_counter() - t0)))
        if time.perf_counter() - started > args.timeout * 3:
            break
    results = [task.result() for task in flood if task.done()]
    timed_out = [r for r in results if r[2] == [Code.HELLO_TIMEOUT]]
    lifetimes = [r[1] for r in results]
    host_rss = rss_kib(host.pid) / 1024
    alive = host.alive
    host.stop()
    print(f"closed by the host: {len(results)}/{len(flood)}; with exactly [hello_timeout]: "
          f"{len(timed_out)}; open for {min(lifetimes):.2f}-{max(lifetimes):.2f} s "
          f"(time-out {args.timeout:g} s)")  # fmt: skip
    print(f"joins during the flood: {len(joins)} ok, {failures} failed; latency p50 "
          f"{percentile(joins, 0.5) * 1000:.1f} ms, p99 {percentile(joins, 0.99) * 1000:.1f} "
          f"ms, max {max(joins) * 1000:.1f} ms (goal < 100 ms)")  # fmt: skip
    print(f"host alive: {alive}, RSS at the end {host_rss:.1f} MiB")
    ok = len(timed_out) == len(flood) and not failures and alive and max(joins) < 0.1
    print("RESULT:", "nothing lost" if ok else "FAILURES")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
