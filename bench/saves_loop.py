"""Do saves cost the event loop anything? Two hosts run side by side, each in its own
process and started together: 200 tables of six in-host bots (Fool's Gold, each table
dealt a new match when one ends), one host saving every change into the SQLite saves
database on this machine's disk (as ``motherlode host`` does), the other with saves off.

For each host, "late" is how late the event loop runs the tables' timers (the bots'
planned moves, the time-outs): the time between a timer's due time and its callback,
every timer of the run. The figure is the late p99 after a warm-up (the first
quarter), saves on against saves off in the same run; the goal is on within 1.25x of
off. The saving host also times the loop's cost of each committed change and counts the
changes a second: ``Store.touched`` (which queues the change) plus its share of the
loop's work for the commit that holds it, divided evenly among the changes there, as
wall time and as the loop thread's CPU time (``thread_time``), which other processes'
load does not inflate; and the size and time of each group commit. With a writer
thread (``GroupCommit._landed``, issue 22) the loop's work for a commit is handing the
batch over (``GroupCommit._tick``) and its landing (``GroupCommit._landed``: the done
callbacks and the release of held bytes); the statements and ``COMMIT`` run on the
writer thread and are not the loop's (the GIL they hold while in Python shows in the
loop's wall time, not its CPU). The time from a batch's handing over to its landing
(its bytes held meanwhile) is printed too. Before the writer thread, the loop's work was the tick's
whole group commit (``Store.flush``); a store that commits in ``touched`` is timed
there alone. Both hosts settle their collector
(``net.gctune``) once their tables are dealt, as ``motherlode host`` does. ``--rounds``
repeats the pair and prints medians and ranges.

    .venv/bin/python bench/saves_loop.py [--tables 200] [--seats 6] [--seconds 120] [--tmpfs]
        [--rounds 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def child(args: argparse.Namespace) -> None:
    from net.clock import RealClock
    from net.host import Host
    from net.saves import Store
    from net.saves.db import Checkpointer

    late: list[tuple[float, float]] = []  # (when, seconds late)

    class TimedClock(RealClock):
        def call_at(self, when, callback, *args):
            def run() -> None:
                late.append((when, self.now() - when))
                callback(*args)

            return super().call_at(when, run)

    clock = TimedClock()
    store = Store(args.dir, "tables", report=lambda text: print(text, file=sys.stderr)) \
        if args.child == "on" else None  # fmt: skip
    touched: list[float] = []
    touched_cpu: list[float] = []
    flushes: list[tuple[int, float]] = []  # (changes, seconds) of each group commit
    in_flight: list[float] = []  # seconds from a batch's handing over to its landing
    if store is not None:
        real = store.touched
        # the store's group commit (``net.saves.writer``; the store itself before it
        # was a part of its own)
        commits = getattr(store, "_commits", store)
        waiting: list[tuple[float, float]] = []  # the queued changes' own times

        def timed(table, now) -> None:
            queued, saves = len(getattr(commits, "_pending", ())), store.saves
            began, began_cpu = time.perf_counter(), time.thread_time()
            real(table, now)
            spent, spent_cpu = time.perf_counter() - began, time.thread_time() - began_cpu
            if store.saves != saves:  # committed at once (a store before group commits)
                touched.append(spent)
                touched_cpu.append(spent_cpu)
            elif len(getattr(commits, "_pending", ())) != queued:  # queued for the tick's commit
                waiting.append((spent, spent_cpu))

        store.touched = timed  # type: ignore[method-assign]
        if hasattr(commits, "_landed"):
            # a writer thread commits: the loop's share of a change is its queueing,
            # its share of handing the batch over (``_tick``) and of the landing
            # (``_landed``: the done callbacks, the release of held bytes), never the
            # statements, which run on the writer thread
            real_tick, real_landed = commits._tick, commits._landed
            batches: dict[int, list[tuple[float, float]]] = {}  # id(batch): the changes'
            nested = [0.0, 0.0]  # a tick run inside a landing: counted as the tick's
            handed: dict[int, float] = {}  # id(batch): when it was handed over

            def timed_tick() -> None:
                changes = list(waiting)
                began, began_cpu = time.perf_counter(), time.thread_time()
                before = commits._inflight
                real_tick()
                spent, spent_cpu = time.perf_counter() - began, time.thread_time() - began_cpu
                nested[0] += spent
                nested[1] += spent_cpu
                batch = commits._inflight
                if batch is None or batch is before:
                    return  # nothing handed over (the writer still busy): later
                waiting.clear()
                handed[id(batch)] = time.perf_counter()
                if changes:
                    batches[id(batch)] = [(own + spent / len(changes),
                                           cpu + spent_cpu / len(changes))
                                          for own, cpu in changes]  # fmt: skip

            def timed_landed(batch) -> None:
                nested[0] = nested[1] = 0.0
                began, began_cpu = time.perf_counter(), time.thread_time()
                real_landed(batch)
                spent = time.perf_counter() - began - nested[0]
                spent_cpu = time.thread_time() - began_cpu - nested[1]
                changes = batches.pop(id(batch), None)
                at = handed.pop(id(batch), None)
                if changes:
                    flushes.append((len(changes), spent))
                    if at is not None:
                        in_flight.append(began - at)
                    for own, own_cpu in changes:
                        touched.append(own + spent / len(changes))
                        touched_cpu.append(own_cpu + spent_cpu / len(changes))

            commits._tick = timed_tick  # type: ignore[method-assign]
            commits._landed = timed_landed  # type: ignore[method-assign]
        elif hasattr(commits, "flush"):
            real_flush = commits.flush

            def timed_flush() -> None:
                # each change's loop time: its own queueing, and its share of the
                # tick's group commit
                changes = list(waiting)
                waiting.clear()
                began, began_cpu = time.perf_counter(), time.thread_time()
                real_flush()
                spent, spent_cpu = time.perf_counter() - began, time.thread_time() - began_cpu
                if changes:
                    flushes.append((len(changes), spent))
                    for own, own_cpu in changes:
                        touched.append(own + spent / len(changes))
                        touched_cpu.append(own_cpu + spent_cpu / len(changes))

            commits.flush = timed_flush  # type: ignore[method-assign]
    host = Host(clock=clock, store=store)
    tables = [
        host.create_table(f"T{i}", "foolsgold", seats=args.seats, bots=args.seats,
                          seed=f"loop-{i}")  # fmt: skip
        for i in range(args.tables)
    ]
    for table in tables:
        host.start_game(table)
    from net import gctune

    gctune.settle()  # as motherlode host does once its tables are set
    matches = 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
        for table in tables:
            if table.phase != "playing":
                matches += 1
                host.start_game(table)
    moves = store.saves if store is not None else 0
    await host.close()
    print(json.dumps({
        "late": late, "touched": touched, "touched_cpu": touched_cpu, "matches": matches,
        "flushes": flushes, "in_flight": in_flight,
        "commits": moves,
        "checkpoints": Checkpointer.get().checkpoints if store is not None else 0,
        "restarts": Checkpointer.get().restarts if store is not None else 0,
        "restart_ms": [round(t * 1000, 1) for t in Checkpointer.get().restart_seconds],
        "wal": max((f.stat().st_size for f in Path(args.dir).glob("*-wal")), default=0),
    }))  # fmt: skip


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--tmpfs", action="store_true", help="the database on /dev/shm")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--child", choices=("on", "off"), help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args))
        return
    import os
    import statistics

    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    ratios, p99s, cpu99s = [], [], []
    for _ in range(args.rounds):
        ratio, p99, cpu99 = one_round(args)
        ratios.append(ratio)
        p99s.append(p99)
        cpu99s.append(cpu99)
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.rounds > 1:
        for name, values in (("late p99 on/off", ratios),
                             ("loop time per change p99 ms", p99s),
                             ("loop CPU per change p99 ms", cpu99s)):  # fmt: skip
            values = sorted(values)
            print(f"{name}: median {statistics.median(values):.3f}, range {values[0]:.3f}-"
                  f"{values[-1]:.3f}, n={len(values)}")


def one_round(args: argparse.Namespace) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory(dir="/dev/shm" if args.tmpfs else None) as directory:
        common = [sys.executable, __file__, "--tables", str(args.tables), "--seats",
                  str(args.seats), "--seconds", str(args.seconds), "--dir", directory]  # fmt: skip
        procs = {mode: subprocess.Popen([*common, "--child", mode], stdout=subprocess.PIPE)
                 for mode in ("on", "off")}  # fmt: skip
        results = {mode: json.loads(proc.communicate()[0]) for mode, proc in procs.items()}
        size = sum(f.stat().st_size for f in Path(directory).glob("motherlode.db*"))
    print(f"{args.tables} tables of {args.seats} in-host bots (Fool's Gold), {args.seconds:g} s,"
          f" two hosts side by side; the database on {'tmpfs' if args.tmpfs else 'disk'}")
    warm = args.seconds / 4
    lates = {}
    for mode, result in results.items():
        late = [s for when, s in result["late"] if when >= warm]
        lates[mode] = pct(late, 0.99)
        print(f"saves {mode:3}: {len(late)} timers after warm-up, late p50 "
              f"{pct(late, 0.5) * 1000:.2f} ms, p99 {pct(late, 0.99) * 1000:.2f} ms, max "
              f"{max(late) * 1000:.1f} ms; {result['matches']} matches finished")  # fmt: skip
    on = results["on"]
    touched = on["touched"]
    print(f"saves on: {on['commits']} commits, {on['commits'] / args.seconds:.0f} a second, "
          f"loop time per committed change p50 {pct(touched, 0.5) * 1000:.3f} ms, "
          f"p99 {pct(touched, 0.99) * 1000:.3f} ms, max {max(touched) * 1000:.1f} ms; "
          f"{on['checkpoints']} checkpoints on the background thread ({on['restarts']} "
          f"restarting the log, {on['restart_ms']} ms each); log "
          f"{on['wal'] / 2**20:.1f} MiB, database and log "
          f"{size / 2**20:.1f} MiB at the end")  # fmt: skip
    cpu = on["touched_cpu"]
    print(f"saves on: loop thread CPU per committed change p50 {pct(cpu, 0.5) * 1000:.3f} ms, "
          f"p99 {pct(cpu, 0.99) * 1000:.3f} ms, max {max(cpu) * 1000:.1f} ms")
    flushes = on.get("flushes") or []
    if flushes:
        sizes, seconds = [n for n, _ in flushes], [t for _, t in flushes]
        print(f"saves on: {len(flushes)} group commits, changes in one p50 {pct(sizes, 0.5)}, "
              f"p99 {pct(sizes, 0.99)}, max {max(sizes)}; loop time per group commit p50 "
              f"{pct(seconds, 0.5) * 1000:.3f} ms, p99 {pct(seconds, 0.99) * 1000:.3f} ms")
    in_flight = on.get("in_flight") or []
    if in_flight:
        print(f"saves on: a batch with the writer thread (handed over to landed on the loop, "
              f"its bytes held meanwhile) p50 {pct(in_flight, 0.5) * 1000:.3f} ms, p99 "
              f"{pct(in_flight, 0.99) * 1000:.3f} ms, max {max(in_flight) * 1000:.1f} ms")
    print(f"late p99, saves on / off: {lates['on'] / lates['off']:.2f}", flush=True)
    return lates["on"] / lates["off"], pct(touched, 0.99) * 1000, pct(cpu, 0.99) * 1000


if __name__ == "__main__":
    main()
