"""Soak: 200 tables playing back to back for 10 minutes; the host's RSS over time and
the action-to-view p99, per interval. The goal: memory does not grow.

The host runs in its own process (``tests.hardening.hostproc``). This process runs
the bot clients: real ``net.client.Client`` connections over TCP, each seat played by
``net.botclient.run_bot``, games back to back. Three quarters of the tables play Gold
Nuggets (2 bots, pace 0.5 s), the rest Fool's Gold (3 bots, normal difficulty). A
latency sample is the time from a bot sending an action to that bot reading the next
``state`` for its seat.

The host saves every table after every change, as ``motherlode host`` does (into a
temporary directory on disk; ``--tmpfs`` for /dev/shm, ``--no-save`` for none).

    .venv/bin/python bench/stress_soak.py [--tables 200] [--minutes 10] [--foolsgold 0.25]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402
from net.botclient import run_bot  # noqa: E402
from net.client import Client  # noqa: E402
from tests.hardening.harness import percentile, rss_kib  # noqa: E402
from tests.hardening.hostproc import HostProcess  # noqa: E402


class Probe:
    """Latency samples and game counts from every client."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.games = 0
        self.errors = 0
        self.codes: Counter[str] = Counter()
        self.drops = 0


def instrument(client: Client, probe: Probe) -> None:
    sent_at: list[float] = []
    send, recv = client.send, client.recv

    async def timed_send(message):
        if isinstance(message, p.Move):
            sent_at[:] = [time.perf_counter()]
        await send(message)

    async def timed_recv():
        item = await recv()
        if isinstance(item, p.State) and item.seat == client.seat and sent_at:
            probe.samples.append(time.perf_counter() - sent_at.pop())
        elif isinstance(item, p.Over) and client.seat == 0:
            probe.games += 1
        elif isinstance(item, p.Error):
            probe.errors += 1
            probe.codes[item.code] += 1
        return item

    client.send, client.recv = timed_send, timed_recv


async def run(args) -> int:
    nuggets_tables = args.tables - round(args.tables * args.foolsgold)
    tables = [{"name": f"N{i}", "game": "nuggets", "seats": 2} for i in range(nuggets_tables)] + [
        {"name": f"F{i}", "game": "foolsgold", "seats": 3}
        for i in range(args.tables - nuggets_tables)
    ]
    saves = None
    if not args.no_save:
        saves = Path(tempfile.mkdtemp(prefix="soak-", dir="/dev/shm" if args.tmpfs else None))
    spec = {"config": {"max_connections": 2048}, "tables": tables, "store": str(saves or "")}
    host = HostProcess(spec)
    base = rss_kib(host.pid)
    probe = Probe()
    clients: list[Client] = []
    tasks = []
    for table in tables:
        for seat in range(table["seats"]):
            client = await Client.connect("127.0.0.1", host.port, f"B{seat}", table=table["name"])
            instrument(client, probe)
            clients.append(client)
            pace = 0.5 if table["game"] == "nuggets" else 0.9
            rng = random.Random(f"{table['name']}/{seat}")
            tasks.append(asyncio.create_task(run_bot(client, "normal", rng=rng, pace=pace)))
    joined = rss_kib(host.pid)
    print(f"{args.tables} tables ({nuggets_tables} Gold Nuggets, "
          f"{args.tables - nuggets_tables} Fool's Gold), {len(clients)} connections, saves "
          f"{'in ' + str(saves) if saves else 'off'}; host RSS {base / 1024:.1f} MiB "
          f"before, {joined / 1024:.1f} MiB with everyone joined")  # fmt: skip
    print(f"{'t (s)':>6} {'RSS MiB':>8} {'p50 ms':>7} {'p99 ms':>7} {'games':>6} {'errors':>6}")
    start = time.perf_counter()
    rows = []
    end = start + args.minutes * 60
    while time.perf_counter() < end:
        await asyncio.sleep(args.every)
        window, probe.samples = probe.samples, []
        rss = rss_kib(host.pid)
        row = (
            time.perf_counter() - start,
            rss / 1024,
            percentile(window, 0.5) * 1000,
            percentile(window, 0.99) * 1000,
            probe.games,
            probe.errors,
        )
        rows.append(row)
        print(f"{row[0]:6.0f} {row[1]:8.1f} {row[2]:7.1f} {row[3]:7.1f} {row[4]:6d} {row[5]:6d}")
        if not host.alive:
            print("THE HOST DIED")
            return 1
    alive_tasks = sum(1 for t in tasks if not t.done())
    for t in tasks:
        t.cancel()
    for client in clients:
        await client.close()
    host.stop()
    if saves is not None:
        archived = list((saves / "games").glob("*.json"))
        live = list((saves / "tables").iterdir())
        size = sum(f.stat().st_size for f in archived)
        # every change is one save: count the moves in every game, finished or not
        files = archived + [f for f in live if f.suffix == ".json"]
        moves = sum(json.loads(f.read_bytes())["snapshot"]["entries"] for f in files)
        print(f"saves: {len(archived)} games archived ({size / 2**20:.1f} MiB), "
              f"{len(live)} live files at the end; {moves} moves saved, "
              f"{moves / (args.minutes * 60):.0f} a second")  # fmt: skip
        shutil.rmtree(saves)
    settled = rows[len(rows) // 5 :] or rows  # after the first fifth: warm
    growth = settled[-1][1] - settled[0][1]
    print(
        f"\nsummary: {args.minutes:g} min, {probe.games} games finished, host alive, "
        f"{alive_tasks}/{len(tasks)} bots still playing at the end; RSS from "
        f"{settled[0][1]:.1f} to {settled[-1][1]:.1f} MiB after warm-up (growth {growth:+.1f} "
        f"MiB), max {max(r[1] for r in rows):.1f}; p99 per interval "
        f"{min(r[3] for r in rows):.1f}-{max(r[3] for r in rows):.1f} ms"
    )
    print(f"errors sent to the bots, by code: {dict(probe.codes.most_common())}")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--every", type=float, default=30)
    parser.add_argument("--foolsgold", type=float, default=0.25, help="share of tables")
    parser.add_argument("--no-save", action="store_true", help="a host without saves")
    parser.add_argument("--tmpfs", action="store_true", help="save to /dev/shm, not disk")
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
