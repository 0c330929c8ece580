"""How long LAN discovery takes: announce -> listed, seat change -> seen, withdraw -> gone,
over mDNS and over the beacon, each measured on its own.

It runs in a private network namespace on its loopback (it re-executes itself under
``unshare -n`` as root, ``unshare -rn`` otherwise), so nothing reaches the real LAN.

    .venv/bin/python bench/discovery_latency.py [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import subprocess
import sys
import time

INSIDE = "MOTHERLODE_BENCH_NETNS"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if os.environ.get(INSIDE) != "1":
        prefix = ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]
        shell = 'ip link set lo up && exec "$0" "$@"'
        argv = [*prefix, "sh", "-c", shell, sys.executable, *sys.argv]
        sys.exit(subprocess.call(argv, env={**os.environ, INSIDE: "1"}))
    asyncio.run(run(args.rounds))


async def run(rounds: int) -> None:
    from net.discovery import Announcement, Announcer, Browser

    lo = ["127.0.0.1"]
    paths = {
        "mdns": ({"beacon": None}, {"beacon": None}),
        "beacon": ({"mdns": False}, {"mdns": False}),
    }
    print(f"LAN discovery on a private loopback, {rounds} rounds each; milliseconds (median, max)")
    for path, (browser_options, announcer_options) in paths.items():
        appear, change, gone = [], [], []
        for n in range(rounds):
            table = Announcement(
                game="nuggets",
                table=f"t{n}",
                seats_free=3,
                seats_total=4,
                port=7777,
                protocol=1,
            )
            async with Browser(interfaces=lo, **browser_options) as browser:
                async with Announcer(interfaces=lo, **announcer_options) as announcer:
                    start = time.perf_counter()
                    await announcer.update(table)
                    await seen(browser, lambda g: g)
                    appear.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    await announcer.update(dataclasses.replace(table, seats_free=2))
                    await seen(browser, lambda g: g and g[0].seats_free == 2)
                    change.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    await announcer.withdraw(table.table)
                    await seen(browser, lambda g: not g)
                    gone.append(time.perf_counter() - start)
        for label, values in (("appear", appear), ("seat change", change), ("withdraw", gone)):
            median, worst = statistics.median(values) * 1000, max(values) * 1000
            print(f"  {path:6} {label:12} {median:8.1f} {worst:8.1f}")


async def seen(browser, predicate, timeout: float = 15.0):
    async def wait():
        async for games in browser.changes():
            if predicate(games):
                return games

    return await asyncio.wait_for(wait(), timeout)


if __name__ == "__main__":
    main()
