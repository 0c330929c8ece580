"""Slow readers, long version: clients that stop reading, against a host process on
the real clock, while a talker chats hard and listeners measure delivery latency.

Two phases of equal length: a baseline, then the same traffic with ``--slow`` clients
that say hello and never read again (new ones keep arriving as the host drops them).
Figures: the listeners' p50 and p99 in each phase (goal: p99 within 2x of the
baseline), the slow clients dropped, and the host's RSS (goal: bounded).
The host runs with ``rate=1000`` (the flood limit is not under test here) and a 64 KiB
kernel send buffer, so a silent client fills its buffers within seconds.
The CI version is ``tests/hardening/test_slow_reader.py``.

    .venv/bin/python bench/stress_slow_reader.py [--seconds 15] [--slow 40] [--rate 800]
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
from tests.hardening.harness import Raw, percentile, rss_kib  # noqa: E402
from tests.hardening.hostproc import HostProcess  # noqa: E402

LISTENERS = 6


async def listen(raw: Raw, samples: list, stop: asyncio.Event) -> int:
    got = 0
    while not stop.is_set():
        message = await raw.recv()
        if message is None:
            raise RuntimeError("a listener was dropped")
        if isinstance(message, p.ChatLine):
            got += 1
            samples.append(time.perf_counter() - float(message.text.split()[0]))
    return got


async def talk(raw: Raw, rate: int, seconds: float) -> int:
    sent = 0
    start = time.perf_counter()
    pad = "x" * 150
    while time.perf_counter() - start < seconds:
        batch = max(1, rate // 20)
        now = time.perf_counter()
        await raw.send(b"".join(p.encode(p.Chat(text=f"{now:.6f} {pad}")) for _ in range(batch)))
        sent += batch
        await asyncio.sleep(0.05)
    return sent


async def phase(port: int, host_pid: int, seconds: float, rate: int, slow: int) -> dict:
    stop = asyncio.Event()
    listeners = []
    for i in range(LISTENERS):
        raw = await Raw.open(port)
        await raw.hello(f"L{i}", spectate=True)
        listeners.append(raw)
    talker = await Raw.open(port)
    await talker.hello("Talker", spectate=True)
    drain = asyncio.create_task(talker.closed())
    samples: list[float] = []
    tasks = [asyncio.create_task(listen(raw, samples, stop)) for raw in listeners]
    sleepers: list[Raw] = []
    rss: list[int] = []

    async def keep_sleepers() -> None:
        while not stop.is_set():
            while sum(1 for s in sleepers if not s.writer.transport.is_closing()) < slow:
                raw = await Raw.open(port, rcvbuf=4096)
                await raw.send(p.Hello(protocol=3, name="Zzz", spectate=True))
                sleepers.append(raw)  # ... and never reads
            rss.append(rss_kib(host_pid))
            await asyncio.sleep(0.25)

    keeper = asyncio.create_task(keep_sleepers())
    sent = await talk(talker, rate, seconds)
    await asyncio.sleep(0.5)
    stop.set()
    for raw in listeners:
        await raw.send(p.Ping(id="end"))  # wakes each listener
    got = sum(await asyncio.gather(*tasks))
    keeper.cancel()
    dropped = 0
    for raw in sleepers:
        try:  # read at last: was it closed by the host?
            await asyncio.wait_for(raw.closed(), 2)
            dropped += 1
        except TimeoutError:
            pass  # still connected (it joined near the end)
    for raw in [*listeners, talker, *sleepers]:
        raw.close()
    drain.cancel()
    return {
        "sent": sent,
        "got": got,
        "p50": percentile(samples, 0.5) * 1000,
        "p99": percentile(samples, 0.99) * 1000,
        "sleepers": len(sleepers),
        "dropped": dropped,
        "rss_max": max(rss) / 1024 if rss else rss_kib(host_pid) / 1024,
    }


async def run(args) -> int:
    host = HostProcess(
        {
            "config": {"rate": 1000, "burst": 2000, "sndbuf": 65536, "max_connections": 4096,
                       "budgets": {"chat_rate": 1e9, "chat_burst": 1e9,
                                   "spectator_chat_rate": 1e9, "spectator_chat_burst": 1e9,
                                   "spectator_chat_every": 0}},
            "tables": [{"name": "Saloon", "game": "foolsgold", "seats": 8}],
        }
    )
    print(f"host RSS at start {rss_kib(host.pid) / 1024:.1f} MiB; limit per client "
          f"1 MiB queue + 64 KiB kernel buffer")  # fmt: skip
    base = await phase(host.port, host.pid, args.seconds, args.rate, 0)
    slow = await phase(host.port, host.pid, args.seconds, args.rate, args.slow)
    alive = host.alive
    end_rss = rss_kib(host.pid) / 1024
    host.stop()
    for name, r in (("baseline", base), (f"{args.slow} slow readers", slow)):
        print(f"{name:>16}: {r['sent']} lines sent, {r['got']} received by {LISTENERS} "
              f"listeners; latency p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms; "
              f"host RSS max {r['rss_max']:.1f} MiB")  # fmt: skip
    print(
        f"slow readers opened: {slow['sleepers']}, dropped by the host: {slow['dropped']} "
        f"(the rest joined near the end); host alive {alive}, RSS at the end "
        f"{end_rss:.1f} MiB"
    )
    ratio = slow["p99"] / base["p99"]
    print(f"p99 ratio slow/baseline: {ratio:.2f} (goal <= 2)")
    lost = base["sent"] * LISTENERS - base["got"] + slow["sent"] * LISTENERS - slow["got"]
    print(f"chat lines lost by listeners: {lost}")
    ok = alive and lost == 0 and ratio <= 2
    print("RESULT:", "nothing lost" if ok else "FAILURES")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--slow", type=int, default=40)
    parser.add_argument("--rate", type=int, default=800)
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
