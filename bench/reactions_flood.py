"""A flood of reactions against the others' round trips (issue 61): one host (a process of
its own, on its real clock), Ann (a process of her own, as her machine would be), Bob and
Cy (this process) over TCP. Bob and Cy ping the host one at
a time, ``--samples`` times, while the table is quiet, then as many
while Ann writes reactions as fast as her socket takes them, or ``--rate`` a second (the
host drops all but one every 2 s: ``net.table.reactions``; her connection's own limit,
20 messages a second, drops the most). Prints
each one's median and p95 round trip, quiet and flooded, and their ratio. The tests
bound the same thing by counts (``tests/net/test_reactions_flood.py``); this is the
speed, for docs/BENCHMARKS.md, run alone on a quiet machine.

    .venv/bin/python bench/reactions_flood.py [--samples 200] [--rate 0]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402


async def hello(port: int, name: str, **kw):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = p.Connection(p.CLIENT)
    writer.write(p.encode(p.Hello(protocol=4, name=name, **kw)))
    return reader, writer, conn


async def pong(reader, conn, ping: int) -> None:
    while True:
        message = conn.next_message()
        if message is p.NEED_DATA:
            conn.receive_data(await reader.read(65536))
            continue
        if isinstance(message, p.Pong) and message.id == ping:
            return


async def rtts(peer, samples: int, start: int) -> list[float]:
    reader, writer, conn = peer
    out = []
    for i in range(start, start + samples):
        t = time.perf_counter()
        writer.write(p.encode(p.Ping(id=i)))
        await pong(reader, conn, i)
        out.append(time.perf_counter() - t)
        await asyncio.sleep(0.06)  # under the connection's 20 messages a second
    return out


HOST = """
import asyncio, sys
from net.host import Host
async def main():
    host = Host()
    await host.start("127.0.0.1", 0)
    host.create_table("Saloon", "nuggets", seats=3)
    print(host.port, flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""

FLOOD = """
import socket, sys, time
from net import protocol as p
sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
sock.sendall(p.encode(p.Hello(protocol=4, name="Ann")))
rate = float(sys.argv[3])  # lines a second; 0: as fast as the socket takes them
batch = 50 if rate == 0 else max(1, int(rate / 100))
line = p.encode(p.React(reaction="nice")) * batch
start = time.monotonic()
sent, end = 0, start + float(sys.argv[2])
sock.setblocking(False)
while time.monotonic() < end:
    try:
        sock.recv(65536)
    except BlockingIOError:
        pass
    if rate and sent >= rate * (time.monotonic() - start):
        time.sleep(0.005)
        continue
    try:
        sock.sendall(line)
        sent += batch
    except BlockingIOError:
        time.sleep(0.0005)
print(sent, flush=True)
"""


async def main(samples: int, rate: float) -> None:
    env = {"PYTHONPATH": str(ROOT)}
    host = await asyncio.create_subprocess_exec(sys.executable, "-c", HOST, env=env,
                                                stdout=asyncio.subprocess.PIPE)
    port = int(await host.stdout.readline())
    try:
        bob = await hello(port, "Bob")
        cy = await hello(port, "Cy")
        await rtts(bob, 5, 0)
        await rtts(cy, 5, 0)
        quiet = await asyncio.gather(rtts(bob, samples, 10), rtts(cy, samples, 10))
        seconds = samples * 0.07 + 2
        flooder = await asyncio.create_subprocess_exec(
            sys.executable, "-c", FLOOD, str(port), str(seconds), str(rate), env=env,
            stdout=asyncio.subprocess.PIPE)
        await asyncio.sleep(0.5)  # the flood under way
        flooded = await asyncio.gather(rtts(bob, samples, 10_000), rtts(cy, samples, 10_000))
        sent = int(await flooder.stdout.readline())
        await flooder.wait()
        print(f"Ann wrote {sent} reactions in {seconds:.0f} s ({sent / seconds:,.0f} a second)")
        for who, q, f in (("Bob", quiet[0], flooded[0]), ("Cy", quiet[1], flooded[1])):
            qm, fm = statistics.median(q), statistics.median(f)
            q95 = statistics.quantiles(q, n=20)[-1]
            f95 = statistics.quantiles(f, n=20)[-1]
            print(f"{who}: quiet median {qm * 1e3:.2f} ms p95 {q95 * 1e3:.2f} ms; flooded "
                  f"median {fm * 1e3:.2f} ms p95 {f95 * 1e3:.2f} ms; ratio median "
                  f"{fm / qm:.2f}x p95 {f95 / q95:.2f}x")
    finally:
        host.kill()
        await host.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--rate", type=float, default=0.0,
                        help="Ann's reactions a second (0: as fast as her socket takes them)")
    args = parser.parse_args()
    asyncio.run(main(args.samples, args.rate))
