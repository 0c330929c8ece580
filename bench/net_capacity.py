"""Capacity: N Fool's Gold tables x 6 bot clients in one host process, stepped up to
200 tables. Reports action-to-view latency (p50, p99), the host's event-loop lag,
its CPU and its memory per connection.

The host runs in its own process with N tables of six seats. The bot clients (real
`net.client.Client` connections over TCP, playing with `foolsgold.bots` at normal
difficulty, matches back to back) run in this process. A latency sample is the time
from a bot sending an action to that bot reading the `state` that shows it. The host's
"work" is how long it spends on one message, from its arrival to every resulting view
handed to the transports; its loop lag is how late a 10 ms timer fires in it (time
spent waiting for the CPU shows here). CPU is the host process's user +
system time over the measuring window; memory per connection is the growth of the
host's resident set from before the clients joined, divided by the connections.

    .venv/bin/python bench/net_capacity.py [--steps 25,50,100,200] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEATS = 6
TICKS = os.sysconf("SC_CLK_TCK")


# -- the host (a child process) --------------------------------------------------------


async def serve(tables: int, port_file: str, stats_file: str) -> None:
    from net.host import Host, HostConfig

    if os.environ.get("PIN") and os.cpu_count() and os.cpu_count() > 1:
        os.sched_setaffinity(0, {0})  # the host on one core, the bots on the others

    if os.environ.get("NOGC"):
        import gc

        gc.disable()

    from net.table import Table

    # service time: how long the host works on one message, from its arrival to every
    # view handed to the transports (no waiting in it: the handling is synchronous)
    service: list[float] = []
    handle = Table.handle

    def timed(self, member, message, now):
        start = time.perf_counter()
        handle(self, member, message, now)
        service.append(time.perf_counter() - start)

    Table.handle = timed
    host = Host(config=HostConfig(max_connections=tables * SEATS + 100))
    for n in range(tables):
        host.create_table(f"T{n}", "foolsgold", seats=SEATS)
    await host.start("127.0.0.1", 0)
    lags: list[float] = []
    loop = asyncio.get_running_loop()

    def reset() -> None:
        lags.clear()
        service.clear()

    loop.add_signal_handler(signal.SIGUSR1, reset)
    profile = None
    if os.environ.get("PROFILE"):
        import cProfile

        profile = cProfile.Profile()
        profile.enable()

    def dump() -> None:
        Path(stats_file).write_text(json.dumps({"lags": lags, "service": service}))
        if profile is not None:
            profile.disable()
            profile.dump_stats(os.environ["PROFILE"])

    loop.add_signal_handler(signal.SIGUSR2, dump)
    Path(port_file).write_text(str(host.port))
    while True:
        start = loop.time()
        await asyncio.sleep(0.01)
        lags.append(loop.time() - start - 0.01)


# -- the bots --------------------------------------------------------------------------


async def bot(port: int, table: str, n: int, samples: list[float], running: asyncio.Event):
    from net import protocol as p
    from net.botclient import BotSeat
    from net.client import Client

    client = await Client.connect("127.0.0.1", port, f"B{n}", table=table)
    seat = BotSeat("normal", random.Random(n))
    sent_at: float | None = None
    timer: asyncio.Task | None = None

    async def act(action, at):
        nonlocal sent_at
        await asyncio.sleep(max(0.0, at - client.offset - client.clock.now()))
        if seat.plan == (action, at):
            seat.plan = None
        sent_at = time.perf_counter()
        await client.send(action)

    async for message in client:
        if isinstance(message, p.Error):
            sent_at = None  # refused (a stale plan): no state will show it
        if isinstance(message, p.State) and sent_at is not None:
            if any(e.get("seat") == client.seat for e in message.events):
                if running.is_set():
                    samples.append(time.perf_counter() - sent_at)
                sent_at = None
        before = seat.plan
        for reply in seat.receive(message):
            await client.send(reply)
        if seat.plan != before:
            if timer is not None:
                timer.cancel()
            timer = asyncio.create_task(act(*seat.plan)) if seat.plan else None


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def pct(data: list[float], q: float) -> float:
    return statistics.quantiles(data, n=1000)[int(q * 10) - 1] if len(data) > 1 else data[0]


async def load(port: int, first: int, count: int, begin: float, end: float, out: str):
    """A load process: the bots of tables first..first+count-1, measured from the wall
    clock time ``begin`` to ``end``; writes its samples, loop lags and CPU to ``out``."""
    if os.environ.get("PIN") and os.cpu_count() and os.cpu_count() > 1:
        os.sched_setaffinity(0, set(range(1, os.cpu_count())))
    samples: list[float] = []
    lags: list[float] = []
    running = asyncio.Event()
    tasks = []
    for t in range(first, first + count):
        for s in range(SEATS):
            tasks.append(asyncio.create_task(bot(port, f"T{t}", t * SEATS + s, samples, running)))
        await asyncio.sleep(0.01)  # do not stampede the accept queue
    await asyncio.sleep(max(0.0, begin - time.time()))
    running.set()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    loop = asyncio.get_running_loop()
    while time.time() < end:
        tick = loop.time()
        await asyncio.sleep(0.01)
        lags.append(loop.time() - tick - 0.01)
    cpu = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    running.clear()
    Path(out).write_text(json.dumps({"samples": samples, "lags": lags, "cpu": cpu}))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def step(tables: int, seconds: float, loaders: int) -> dict:
    stamp = time.time_ns()
    port_file, stats_file = f"/tmp/ml-cap-port-{stamp}", f"/tmp/ml-cap-stats-{stamp}"
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(tables), port_file, stats_file]
    )
    outs = [f"/tmp/ml-cap-load-{stamp}-{i}" for i in range(loaders)]
    procs = []
    try:
        for _ in range(400):
            if Path(port_file).exists() and Path(port_file).read_text():
                break
            await asyncio.sleep(0.05)
        port = int(Path(port_file).read_text())
        await asyncio.sleep(0.5)
        base_rss = rss_bytes(proc.pid)
        # joining takes about 10 ms a table; then 5 s to warm up
        begin = time.time() + tables * 0.012 + 5.0
        end = begin + seconds
        share = -(-tables // loaders)
        for i in range(loaders):
            first, count = i * share, min(share, tables - i * share)
            procs.append(subprocess.Popen([
                sys.executable, __file__, "--load", str(port), str(first), str(count),
                str(begin), str(end), outs[i],
            ]))  # fmt: skip
        await asyncio.sleep(max(0.0, begin - time.time()))
        os.kill(proc.pid, signal.SIGUSR1)
        cpu0, wall0 = cpu_seconds(proc.pid), time.perf_counter()
        await asyncio.sleep(max(0.0, end - time.time()))
        cpu = (cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - wall0)
        os.kill(proc.pid, signal.SIGUSR2)
        rss = rss_bytes(proc.pid)
        for load_proc in procs:
            load_proc.wait(timeout=60)
        await asyncio.sleep(0.3)
        host_stats = json.loads(Path(stats_file).read_text())
        lags, service = host_stats["lags"], host_stats["service"]
        results = [json.loads(Path(out).read_text()) for out in outs]
    finally:
        for child in (proc, *procs):
            child.kill()
            child.wait()
        for name in (port_file, stats_file, *outs):
            Path(name).unlink(missing_ok=True)
    samples = [x for r in results for x in r["samples"]]
    load_lags = [x for r in results for x in r["lags"]]
    connections = tables * SEATS
    return {
        "tables": tables,
        "connections": connections,
        "actions_per_s": len(samples) / seconds,
        "p50_ms": pct(samples, 50) * 1000 if samples else float("nan"),
        "p99_ms": pct(samples, 99) * 1000 if samples else float("nan"),
        "lag_p99_ms": pct(lags, 99) * 1000 if lags else float("nan"),
        "service_p99_ms": pct(service, 99) * 1000 if service else float("nan"),
        "bots_lag_p99_ms": pct(load_lags, 99) * 1000 if load_lags else float("nan"),
        "host_cpu": cpu,
        "load_cpu": sum(r["cpu"] for r in results),
        "kib_per_conn": (rss - base_rss) / connections / 1024,
        "rss_mib": rss / 2**20,
    }


async def inhost(tables: int, seconds: float) -> dict:
    """N tables of six bots seated in the host itself: no connections, no clients.
    Lateness: how long after its planned time each bot action is applied."""
    from inhost import BotTables

    from net.host import Host

    host = Host()
    bots = BotTables(host, tables, SEATS)
    made, late = bots.tables, bots.late
    try:
        await asyncio.sleep(3.0)
        late.clear()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        end = time.perf_counter() + seconds
        actions0 = sum(t.moves for t in made)
        while time.perf_counter() < end:
            await asyncio.sleep(0.5)
            bots.restart_finished()  # matches back to back
        cpu = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
        actions = sum(t.moves for t in made) - actions0
    finally:
        bots.close()
        await host.close()
    return {
        "tables": tables,
        "actions_per_s": max(actions, len(late)) / seconds,
        "late_p50_ms": pct(late, 50) * 1000 if late else float("nan"),
        "late_p99_ms": pct(late, 99) * 1000 if late else float("nan"),
        "cpu": cpu,
    }


async def measure_inhost(steps: list[int], seconds: float) -> None:
    print(f"bots in the host; load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'tables':>6} {'bots':>5} {'actions/s':>9} {'late p50':>9} {'late p99':>9} {'CPU':>5}")
    for tables in steps:
        r = await inhost(tables, seconds)
        print(f"{tables:6} {tables * SEATS:5} {r['actions_per_s']:9.0f} "
              f"{r['late_p50_ms']:7.2f}ms {r['late_p99_ms']:7.2f}ms {r['cpu']:5.0%}",
              flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")


async def measure(steps: list[int], seconds: float, loaders: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}; bot load processes: {loaders}; "
          f"pinned: {bool(os.environ.get('PIN'))}")  # fmt: skip
    print(f"{'tables':>6} {'conns':>6} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'work p99':>8} {'lag p99':>7} {'bots lag':>8} {'host CPU':>8} {'bots CPU':>8} "
          f"{'KiB/conn':>8} {'RSS MiB':>7}")  # fmt: skip
    for tables in steps:
        r = await step(tables, seconds, loaders)
        print(f"{r['tables']:6} {r['connections']:6} {r['actions_per_s']:9.0f} "
              f"{r['p50_ms']:7.2f} {r['p99_ms']:7.2f} {r['service_p99_ms']:8.3f} "
              f"{r['lag_p99_ms']:7.2f} "
              f"{r['bots_lag_p99_ms']:8.2f} "
              f"{r['host_cpu']:8.0%} {r['load_cpu']:8.0%} {r['kib_per_conn']:8.1f} "
              f"{r['rss_mib']:7.1f}", flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        asyncio.run(serve(int(sys.argv[2]), sys.argv[3], sys.argv[4]))
        return
    if len(sys.argv) == 8 and sys.argv[1] == "--load":
        port, first, count = (int(a) for a in sys.argv[2:5])
        asyncio.run(load(port, first, count, float(sys.argv[5]), float(sys.argv[6]), sys.argv[7]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="25,50,100,200")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--loaders", type=int, default=2, help="bot load processes")
    parser.add_argument(
        "--pin", action="store_true", help="the host on core 0, the bots on the other cores"
    )
    parser.add_argument(
        "--inhost", action="store_true", help="seat the bots in the host instead (no connections)"
    )
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    if args.inhost:
        asyncio.run(measure_inhost(steps, args.seconds))
        return
    if args.pin:
        os.environ["PIN"] = "1"  # the child processes pin themselves
    asyncio.run(measure(steps, args.seconds, args.loaders))


if __name__ == "__main__":
    main()
