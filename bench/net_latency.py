"""Action to every client's view: 8 clients at one Fool's Gold table, against a bare
asyncio NDJSON broadcast server measured in the same run.

The server under test runs in its own process (the Motherlode host, or the bare
server); the 8 clients share this process and one clock. Each sample: one client sends
an action; the sample ends when all 8 clients have read the line it caused (for the
host: each seat's `state` after the action; for the bare server: the line itself,
padded to the size of a typical `state`, written to all 8). One action at a time, so
the figure is latency, not throughput. Blocks of host and bare samples alternate, so
both see the same machine.

    .venv/bin/python bench/net_latency.py [--samples 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = 8


# -- the servers (run in a child process) ----------------------------------------------


async def serve_host(port_file: str) -> None:
    from net.host import Host, HostConfig

    host = Host(config=HostConfig(rate=10_000, burst=10_000))
    host.create_table("Bench", "foolsgold", seats=PLAYERS, seed="bench", first_player=0)
    await host.start("127.0.0.1", 0)
    Path(port_file).write_text(str(host.port))
    await asyncio.Event().wait()


async def serve_bare(port_file: str) -> None:
    """The bare baseline: read a line, write it to every connection. No parsing."""
    writers: list[asyncio.StreamWriter] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        while line := await reader.readline():
            for w in writers:
                w.write(line)
        writers.remove(writer)

    server = await asyncio.start_server(handle, "127.0.0.1", 0, limit=1 << 16)
    Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
    await asyncio.Event().wait()


def start_server(kind: str) -> tuple[subprocess.Popen, int]:
    port_file = Path(f"/tmp/motherlode-bench-{kind}-{time.time_ns()}")
    proc = subprocess.Popen([sys.executable, __file__, "--serve", kind, str(port_file)])
    for _ in range(200):
        if port_file.exists() and port_file.read_text():
            port = int(port_file.read_text())
            port_file.unlink()
            return proc, port
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"the {kind} server did not start")


# -- the clients -----------------------------------------------------------------------


class Seat:
    def __init__(self, reader, writer) -> None:
        from net import protocol as p

        self.reader, self.writer = reader, writer
        self.conn = p.Connection(p.CLIENT)
        self.view = None  # a net.views.FoolsGoldView

    async def next(self):
        from net import protocol as p

        while (message := self.conn.next_message()) is p.NEED_DATA:
            self.conn.receive_data(await self.reader.read(65536))
        return message

    async def until(self, kind):
        while not isinstance(message := await self.next(), kind):
            pass
        return message


def next_action(seats: list[Seat]):
    """The lowest seat that can pass a card on: discard at six, draw at five."""
    from net import protocol as p

    for i, seat in enumerate(seats):
        view = seat.view
        hand = view.hand
        if len(hand) == 6:
            card = hand[0]
            return i, p.Discard(card=p.CardRef(name=card.name, variant=card.variant))
        source = (
            view.draw_pile + view.trash_pile
            if i == view.start
            else view.incoming_sizes[i]
        )
        if source:
            return i, p.Draw()
    raise RuntimeError("nobody can move")


async def host_samples(port: int, count: int, seats: list[Seat] | None) -> tuple[list, list]:
    from net import protocol as p

    if seats is None:
        seats = []
        for i in range(PLAYERS):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 16)
            seat = Seat(reader, writer)
            writer.write(p.encode(p.Hello(protocol=1, name=f"P{i}")))
            await seat.until(p.Welcome)
            seats.append(seat)
        for seat in seats:
            seat.writer.write(p.encode(p.Ready()))
        for seat in seats:
            seat.view = (await seat.until(p.State)).view
    samples, sizes = [], []
    for _ in range(count):
        i, action = next_action(seats)
        start = time.perf_counter()
        seats[i].writer.write(p.encode(action))
        for seat in seats:
            state = await seat.until(p.State)
            seat.view = state.view
        samples.append(time.perf_counter() - start)
        sizes.append(len(p.encode(state)))
    return samples, seats, sizes


async def bare_samples(port: int, count: int, size: int, conns) -> tuple[list, list]:
    if conns is None:
        conns = [
            await asyncio.open_connection("127.0.0.1", port, limit=1 << 16) for _ in range(PLAYERS)
        ]
        await asyncio.sleep(0.2)
    line = json.dumps({"type": "draw", "pad": "x" * max(0, size - 30)}).encode() + b"\n"
    samples = []
    for n in range(count):
        start = time.perf_counter()
        conns[n % PLAYERS][1].write(line)
        for reader, _ in conns:
            await reader.readline()
        samples.append(time.perf_counter() - start)
    return samples, conns


def pct(data: list[float], q: float) -> float:
    return statistics.quantiles(data, n=1000)[int(q * 10) - 1] if len(data) > 1 else data[0]


async def measure(samples: int) -> None:
    host_proc, host_port = start_server("host")
    bare_proc, bare_port = start_server("bare")
    try:
        host, bare, sizes = [], [], []
        seats = conns = None
        block = 100
        # warm-up (imports, first allocations), not counted
        _, seats, warm_sizes = await host_samples(host_port, block, seats)
        _, conns = await bare_samples(bare_port, block, int(statistics.mean(warm_sizes)), conns)
        size = int(statistics.mean(warm_sizes))
        while len(host) < samples:
            got, seats, s = await host_samples(host_port, block, seats)
            host += got
            sizes += s
            got, conns = await bare_samples(bare_port, block, size, conns)
            bare += got
    finally:
        host_proc.kill()
        bare_proc.kill()
    ms = 1000
    print(f"clients: {PLAYERS} at one Fool's Gold table; samples: {len(host)} each; "
          f"load average: {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"state line: mean {statistics.mean(sizes):.0f} bytes (bare lines padded to {size})")
    print(f"{'':22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, data in (("motherlode host", host), ("bare NDJSON broadcast", bare)):
        print(f"{name:22} {pct(data, 50) * ms:8.3f} {pct(data, 99) * ms:8.3f} "
              f"{max(data) * ms:8.3f}")  # fmt: skip
    ratio = pct(host, 99) / pct(bare, 99)
    print(f"p99 ratio host/bare: {ratio:.2f} (goal <= 1.3: {'met' if ratio <= 1.3 else 'missed'})")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve = serve_host if sys.argv[2] == "host" else serve_bare
        asyncio.run(serve(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(measure(args.samples))


if __name__ == "__main__":
    main()
