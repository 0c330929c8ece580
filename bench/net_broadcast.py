"""The host's cost of one action at a table with people and spectators, without
sockets: one Fool's Gold table of six seated members (bots play for them, so their
actions take the path of a person's) and K spectators, each delivery encoded as the
host does (``Host.encode``, which encodes one message object once however many
members it goes to). The table runs on a fake clock (``tick`` at each wakeup), so the
run is deterministic and the CPU per action is ``process_time``, not wall time.

Per K: CPU per action, and two counts that do not depend on the machine's load: the
garbage collector's young collections per 1,000 actions (at the default thresholds),
and the tracked objects allocated per action (the count that triggers them).

    .venv/bin/python bench/net_broadcast.py [--spectators 0,10,50] [--actions 20000]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run(spectators: int, actions: int, seed: str) -> dict:
    from net.games import make_brain
    from net.host import Host
    from net.table import Member, Settings, Table

    host = Host()
    encoded = [0]

    def deliver(message) -> None:
        encoded[0] += len(host.encode(message))

    settings = Settings.default("foolsgold")
    settings.seats = 6
    settings.seed = seed
    table = Table("T", "foolsgold", settings)
    now = 0.0
    for i in range(6):
        table.join(Member(f"P{i}", deliver), now)
    for i in range(spectators):
        table.join(Member(f"S{i}", deliver, spectator=True), now)

    def start(now: float) -> None:
        table.start(now)
        for i, seat in enumerate(table.seats):  # bots play for the six people
            seat.brain = make_brain("foolsgold", i, "normal", random.Random(i), 1.0)
        table.play.changed([], now)  # the bots plan

    start(now)
    young = [0]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 0:
            young[0] += 1

    gc.collect()
    gc.callbacks.append(on_gc)
    cpu0 = time.process_time()
    done = 0
    while done < actions:
        when = table.next_wakeup()
        if when is None:
            start(now)
            continue
        now = max(now, when)
        before = table.moves
        table.tick(now)
        done += table.moves - before
        if table.phase == "over":
            start(now)
    cpu = time.process_time() - cpu0
    gc.callbacks.remove(on_gc)
    # tracked objects allocated per action: the young count with the collector off
    gc.collect()
    gc.disable()
    allocated, counted = 0, 0
    for _ in range(200):
        when = table.next_wakeup()
        if when is None or table.phase == "over":
            start(now)
            continue
        now = max(now, when)
        before, count = table.moves, gc.get_count()[0]
        table.tick(now)
        if table.moves > before:
            allocated += gc.get_count()[0] - count
            counted += table.moves - before
    gc.enable()
    return {"cpu_us": cpu / done * 1e6, "young_per_1000": young[0] / done * 1000,
            "tracked_per_action": allocated / max(counted, 1), "actions": done,
            "bytes_per_action": encoded[0] / max(done, 1)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", default="0,10,50")
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'spectators':>10} {'CPU µs/action':>13} {'gen0 per 1000':>13} "
          f"{'tracked/action':>14} {'bytes/action':>12}")
    for k in (int(s) for s in args.spectators.split(",")):
        rows = [run(k, args.actions, "bench") for _ in range(args.rounds)]
        cpu = sorted(r["cpu_us"] for r in rows)
        r = rows[0]
        print(f"{k:10} {cpu[len(cpu) // 2]:8.0f} ({cpu[0]:.0f}-{cpu[-1]:.0f}) "
              f"{r['young_per_1000']:13.1f} {r['tracked_per_action']:14.1f} "
              f"{r['bytes_per_action']:12.0f}", flush=True)
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
