"""Action to every client's view: 8 clients at one Fool's Gold table, against a bare
asyncio NDJSON broadcast server measured in the same run.

The server under test runs in its own process (the Motherlode host, or the bare
server); the 8 clients share this process and one clock, and run the same code on both
sides: each reads and decodes its `state` (``net.protocol.Connection``). Each sample:
one client sends an action; the sample ends when all 8 clients have read and decoded
the `state` it caused (for the host: each seat's own; for the bare server: a real
`state` line of the host's, which the bare server writes to all 8 for every line it
reads, without parsing). One action at a time, so the figure is latency, not
throughput. Blocks of host and bare samples alternate (ABAB), so both see the same
machine; the run is cut into ``--rounds`` parts, and the p99 ratio is given per part
(median and range) beside the whole run's. Each server's CPU time per action
(``/proc/<pid>/stat``, user + system) is the other figure.

With ``--saves`` the host saves every change into a saves database in a temporary
directory, as ``motherlode host`` does; either way it settles its collector
(``net.gctune``) once the table is set, as ``motherlode host`` does.

    .venv/bin/python bench/net_latency.py [--samples 2000] [--rounds 5] [--saves]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from net.games.foolsgold import moves as fm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = 8


# -- the servers (run in a child process) ----------------------------------------------


async def serve_host(port_file: str, saves: bool) -> None:
    import tempfile

    from net import gctune
    from net.host import Host, HostConfig
    from net.saves import Store

    directory = tempfile.TemporaryDirectory() if saves else None
    store = Store(directory.name, "tables") if directory is not None else None
    host = Host(config=HostConfig(rate=10_000, burst=10_000), store=store)
    host.create_table("Bench", "foolsgold", seats=PLAYERS, seed="bench", first_player=0)
    await host.start("127.0.0.1", 0)
    gctune.settle()
    Path(port_file).write_text(str(host.port))
    await asyncio.Event().wait()


async def serve_bare(port_file: str, saves: bool) -> None:
    """The bare baseline: read a line, write a `state` line to every connection. No
    parsing. The first line it reads is that `state` line (the bench sends it)."""
    writers: list[asyncio.StreamWriter] = []
    template: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        while line := await reader.readline():
            if not template:
                template.append(line)
                continue
            for w in writers:
                w.write(template[0])
        writers.remove(writer)

    server = await asyncio.start_server(handle, "127.0.0.1", 0, limit=1 << 16)
    Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
    await asyncio.Event().wait()


def start_server(kind: str, saves: bool = False) -> tuple[subprocess.Popen, int]:
    port_file = Path(f"/tmp/motherlode-bench-{kind}-{time.time_ns()}")
    proc = subprocess.Popen([sys.executable, __file__, "--serve", kind, str(port_file),
                             "saves" if saves else "off"])  # fmt: skip
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

    for i, seat in enumerate(seats):
        view = seat.view
        hand = view.hand
        if len(hand) == 6:
            card = hand[0]
            return i, fm.DISCARD(card=fm.CardRef(name=card.name, variant=card.variant))
        source = view.draw_pile + view.trash_pile if i == view.start else view.incoming_sizes[i]
        if source:
            return i, fm.DRAW()
    raise RuntimeError("nobody can move")


async def host_samples(port: int, count: int, seats: list[Seat] | None) -> tuple[list, list]:
    from net import protocol as p

    if seats is None:
        seats = []
        for i in range(PLAYERS):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 16)
            seat = Seat(reader, writer)
            writer.write(p.encode(p.Hello(protocol=3, name=f"P{i}")))
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


async def bare_samples(port: int, count: int, line: bytes, seats) -> tuple[list, list]:
    """As ``host_samples``, against the bare server: the same clients, the same action
    lines written, the same `state` read and decoded by each."""
    from net import protocol as p

    if seats is None:
        seats = []
        for _ in range(PLAYERS):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 16)
            seats.append(Seat(reader, writer))
        seats[0].writer.write(line)  # the line the bare server sends for every action
        await asyncio.sleep(0.2)
    action = p.encode(fm.DRAW())
    samples = []
    for n in range(count):
        start = time.perf_counter()
        seats[n % PLAYERS].writer.write(action)
        for seat in seats:
            await seat.until(p.State)
        samples.append(time.perf_counter() - start)
    return samples, seats


def cpu_seconds(proc: subprocess.Popen) -> float:
    """A child's user + system CPU time so far."""
    fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(data: list[float], q: float) -> float:
    return statistics.quantiles(data, n=1000)[int(q * 10) - 1] if len(data) > 1 else data[0]


async def measure(samples: int, rounds: int, saves: bool) -> None:
    from net import protocol as p

    load_before = os.getloadavg()
    host_proc, host_port = start_server("host", saves)
    bare_proc, bare_port = start_server("bare")
    cpu = {"host": 0.0, "bare": 0.0}
    try:
        host, bare, sizes = [], [], []
        seats = conns = None
        block = 100
        # warm-up (imports, first allocations), not counted; the bare server's line is
        # a real state line of the host's, as a seat reads it
        _, seats, _ = await host_samples(host_port, block, seats)
        line = p.encode(p.State(seat=0, view=seats[0].view, events=[], at=0.0))
        _, conns = await bare_samples(bare_port, block, line, conns)
        while len(host) < samples:
            began = cpu_seconds(host_proc)
            got, seats, s = await host_samples(host_port, block, seats)
            cpu["host"] += cpu_seconds(host_proc) - began
            host += got
            sizes += s
            began = cpu_seconds(bare_proc)
            got, conns = await bare_samples(bare_port, block, line, conns)
            cpu["bare"] += cpu_seconds(bare_proc) - began
            bare += got
    finally:
        host_proc.kill()
        bare_proc.kill()
    ms = 1000
    print(f"clients: {PLAYERS} at one Fool's Gold table; saves {'on' if saves else 'off'}; "
          f"samples: {len(host)} each, in blocks of {block}, alternating; load average "
          f"before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"state line: mean {statistics.mean(sizes):.0f} bytes (the bare server's: {len(line)})")
    print(f"{'':22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'CPU µs/action':>14}")
    for name, data, key in (("motherlode host", host, "host"),
                            ("bare NDJSON broadcast", bare, "bare")):  # fmt: skip
        print(f"{name:22} {pct(data, 50) * ms:8.3f} {pct(data, 99) * ms:8.3f} "
              f"{max(data) * ms:8.3f} {cpu[key] / len(data) * 1e6:14.0f}")  # fmt: skip
    ratio = pct(host, 99) / pct(bare, 99)
    part = len(host) // rounds
    ratios = sorted(
        pct(host[k * part : (k + 1) * part], 99) / pct(bare[k * part : (k + 1) * part], 99)
        for k in range(rounds)
    )
    p50s = sorted(
        pct(host[k * part : (k + 1) * part], 50) / pct(bare[k * part : (k + 1) * part], 50)
        for k in range(rounds)
    )
    print(
        f"p99 ratio host/bare: {ratio:.2f} over the run; per part (n={rounds}): median "
        f"{statistics.median(ratios):.2f}, range {ratios[0]:.2f}-{ratios[-1]:.2f} (goal "
        f"<= 1.3: {'met' if ratio <= 1.3 else 'missed'}); p50 ratio median "
        f"{statistics.median(p50s):.2f} ({p50s[0]:.2f}-{p50s[-1]:.2f})"
    )
    print(
        f"CPU per action host/bare: {cpu['host'] / max(cpu['bare'], 1e-9):.2f} "
        f"(goal <= 1.5; /proc ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms)"
    )


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        serve = serve_host if sys.argv[2] == "host" else serve_bare
        asyncio.run(serve(sys.argv[3], sys.argv[4] == "saves"))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--saves", action="store_true", help="the host saves every change")
    args = parser.parse_args()
    asyncio.run(measure(args.samples, args.rounds, args.saves))


if __name__ == "__main__":
    main()
