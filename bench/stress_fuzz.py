"""Fuzz, long version: 100k hostile frames (mutated, random, oversize, NaN, deep
nesting, bad UTF-8, wrong types and fields) against a live host, while seeded games of
Gold Nuggets run back to back at another table.

Every frame must get the framing error the sans-I/O core gives that line, in order
(or, for an oversize line, ``line_too_long`` and a close); every game must end exactly
as the same seeded game played without any fuzzing; the host must stay up.
The CI version is ``tests/hardening/test_fuzz.py``.

    .venv/bin/python bench/stress_fuzz.py [--frames 100000] [--fuzzers 8] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402
from net.client import Client  # noqa: E402
from net.host import Host, HostConfig  # noqa: E402
from tests.hardening.harness import (  # noqa: E402
    FuzzTally,
    Raw,
    fuzz_over_tcp,
    play_nuggets,
    reference_nuggets,
    rss_kib,
)


async def games(host: Host, stop: asyncio.Event, seed: int) -> tuple[int, int]:
    """Seeded games at "Camp" until ``stop``; (played, matching the reference)."""
    played = correct = 0
    ann = await Client.connect("127.0.0.1", host.port, "Ann", table="Camp")
    bob = await Client.connect("127.0.0.1", host.port, "Bob", table="Camp")
    while not stop.is_set():
        table = host.tables.find("Camp")
        table.settings.seed = f"fuzz-{seed}-{played}"
        await ann.send(p.Ready())
        await bob.send(p.Ready())
        over_a, over_b = await asyncio.gather(play_nuggets(ann), play_nuggets(bob))
        played += 1
        expected = reference_nuggets(table.settings.seed, ["Ann", "Bob"])
        correct += over_a == over_b == expected
    await ann.close()
    await bob.close()
    return played, correct


async def run(args) -> int:
    host = Host(config=HostConfig(rate=1e9, burst=1e9, spectator_rate=1e9, spectator_burst=1e9,
                                  max_connections=1024))
    await host.start("127.0.0.1", 0)
    host.create_table("Camp", "nuggets", seats=2, first_player=0)
    host.create_table("Fuzz", "foolsgold", seats=2)
    rss_before = rss_kib()
    stop = asyncio.Event()
    game_task = asyncio.create_task(games(host, stop, args.seed))
    started = time.perf_counter()
    per = args.frames // args.fuzzers
    tallies = await asyncio.gather(
        *(
            fuzz_over_tcp(
                host.port,
                random.Random(f"{args.seed}/{i}"),
                per,
                max_line=p.DEFAULT_MAX_LINE,
                name=f"F{i}",
                oversize_every=1000,
            )
            for i in range(args.fuzzers)
        )
    )
    elapsed = time.perf_counter() - started
    stop.set()
    played, correct = await game_task
    total = FuzzTally()
    for tally in tallies:
        total.add(tally)
    late = await Raw.open(host.port)
    await late.hello("Late", table="Fuzz")
    await late.send(p.Ping(id="alive"))
    alive = (await late.expect(p.Pong)).id == "alive"
    late.close()
    await host.close()
    print(f"frames sent: {total.frames} in {elapsed:.1f} s ({total.frames / elapsed:.0f}/s), "
          f"{args.fuzzers} connections at a time, {total.connections} in all")  # fmt: skip
    print("by family: " + ", ".join(f"{k} {v}" for k, v in sorted(total.by_kind.items())))
    print("errors received: " + ", ".join(f"{k} {v}" for k, v in sorted(total.errors.items())))
    print(f"lines that decoded as messages: {total.decoded} (answered by the table)")
    print(f"oversize lines: {total.oversize}, each followed by a close: {total.closes}")
    print(f"frames whose answer differed from the core's: {len(total.mismatches)}")
    for mismatch in total.mismatches[:5]:
        print("   ", mismatch)
    print(f"games at the other table: {played}, equal to the unfuzzed reference: {correct}")
    print(f"host up and answering after the run: {alive}; "
          f"process RSS {rss_before / 1024:.1f} -> {rss_kib() / 1024:.1f} MiB")  # fmt: skip
    ok = alive and not total.mismatches and played == correct and played > 0
    print("RESULT:", "nothing lost" if ok else "FAILURES")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--fuzzers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
