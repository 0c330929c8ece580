"""A hall, not a room (issue 36): what players arriving at once at ``motherlode serve``
wait for, and what each costs in memory, with the warm parent (``serve.warm``) and
without it (``serve --cold``), side by side in one run.

    python bench/serve_scale.py [--arrivals 1,8,32] [--rounds 2]

For each round, each way in turn (warm, cold, then cold, warm in the next round): a
fresh ``motherlode serve`` on loopback (for warm: once its parent is ready), then for
each count N, N SSH players (asyncssh, a pty each, a pyte screen) connect at once. For
each: connect to the menu's text on its screen ("first screen"). After the largest
count, while every app is up: the proportional set size (PSS, shared pages split
between the processes that share them) of every app and of the warm parent, per
player. Then everyone leaves and the next count arrives.

Figures: first screen median and max per count, and PSS per player, warm and cold.
Run it alone (load average under 0.5): start-up is CPU, so anything else running is in
the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.helpers import Player, ServeProcess, children_of, pss_mib  # noqa: E402

MENU = "Tables at this host"


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


async def arrive(port: int, names: list[str], keys: dict) -> tuple[list[float], list[Player]]:
    async def one(name: str) -> tuple[float, Player]:
        start = time.monotonic()
        player = await Player.connect(port, name, keys[name], size=(80, 24))
        await player.wait_for(MENU, timeout=120.0)
        return time.monotonic() - start, player

    done = await asyncio.gather(*(one(n) for n in names))
    return [t for t, _ in done], [p for _, p in done]


async def one_way(warm: bool, counts: list[int], keys: dict) -> dict:
    data = Path(tempfile.mkdtemp(prefix="ml-scale-"))
    args = ["--max-sessions", str(max(counts) + 4)]
    if not warm:
        args.append("--cold")
    serve = await ServeProcess.start(data, *args, timeout=60.0)
    figures: dict = {}
    try:
        if warm:
            await serve.wait_for_line("forked from a warm parent", 60.0)
        await asyncio.sleep(1.0)  # the server settles
        for count in counts:
            names = [f"p{count}x{i}" for i in range(count)]
            times, players = await arrive(serve.ssh_port, names, keys)
            figures[count] = {"median": statistics.median(times), "max": max(times)}
            if count == max(counts):
                await asyncio.sleep(2.0)  # past the start-up burst
                total = sum(pss_mib(p) for p in descendants(serve.proc.pid))
                serve_own = pss_mib(serve.proc.pid)
                figures["pss"] = total / count  # apps (+ the parent) per player
                figures["serve_pss"] = serve_own
            for player in players:
                await player.close()
            await asyncio.sleep(1.5)  # the apps end
    finally:
        await serve.stop()
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arrivals", default="1,8,32")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    counts = [int(c) for c in args.arrivals.split(",")]
    names = [f"p{c}x{i}" for c in counts for i in range(c)]
    keys = {n: asyncssh.generate_private_key("ssh-ed25519") for n in names}
    results: dict[str, list[dict]] = {"warm": [], "cold": []}
    for round_ in range(args.rounds):
        order = ["warm", "cold"] if round_ % 2 == 0 else ["cold", "warm"]
        for way in order:
            results[way].append(await one_way(way == "warm", counts, keys))
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    for count in counts:
        for way in ("warm", "cold"):
            medians = [r[count]["median"] for r in results[way]]
            maxes = [r[count]["max"] for r in results[way]]
            print(f"{count:3} arriving, {way}: first screen median "
                  f"{' / '.join(f'{m:.2f}' for m in medians)} s, max "
                  f"{' / '.join(f'{m:.2f}' for m in maxes)} s")  # fmt: skip
    for way in ("warm", "cold"):
        pss = [r["pss"] for r in results[way]]
        print(f"PSS per player ({max(counts)} players), {way}: "
              f"{' / '.join(f'{p:.1f}' for p in pss)} MiB (serve itself "
              f"{statistics.median(r['serve_pss'] for r in results[way]):.1f} MiB)")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
