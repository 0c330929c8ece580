"""The garbage collector under N in-host tables of bots: late p99 and the collector's
pauses, with the interpreter's defaults and with ``net.gctune.settle`` (freeze + the
thresholds), run interleaved (ABAB...) in one run, each configuration in a fresh child
process (the collector's settings are the process's).

Per run: actions a second, how late bot actions are applied (p50, p99; see
bench/net_capacity.py --inhost), the host's CPU time per action (``process_time``, less
sensitive to other load than wall time), and every collection's pause from
``gc.callbacks`` (count, p99 and max, per generation; wall time and CPU time), and
then what one full collection costs at that size (what ``net.gctune.sweeper`` does every
few minutes). At the end, per table count and mode: medians over the rounds and their
range.

    .venv/bin/python bench/net_gc.py [--steps 200,400,600] [--seconds 15] [--rounds 2]
        [--modes default,settle,settle=5000/5/10,settle@0.02,off] [--stagger S --warmup W]

``top1s`` is the busiest second's CPU share: tables that start at once play in step and
their load comes in waves, so a run's mean share hides seconds at a full core
(``--stagger`` starts them apart, as a night's tables are).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEATS = 6


def pct(data: list[float], q: float) -> float:
    if not data:
        return float("nan")
    if len(data) == 1:
        return data[0]
    return statistics.quantiles(data, n=1000)[int(q * 10) - 1]


async def child(tables: int, seconds: float, mode: str, thresholds: tuple[int, int, int],
                stagger: float, warmup: float):  # fmt: skip
    from inhost import BotTables

    from net import gctune
    from net.host import Host

    pauses: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
    started: list[float] = [0.0, 0.0]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.process_time()
        else:
            pauses[info["generation"]].append(
                (time.perf_counter() - started[0], time.process_time() - started[1])
            )

    host = Host()
    bots = BotTables(host, tables, SEATS, stagger=stagger)
    made, late = bots.tables, bots.late
    young_every = gctune.YOUNG_EVERY
    if "@" in mode:  # settle@0.02: young collections every 20 ms of the loop
        mode, every = mode.split("@")
        young_every = float(every)
    if "=" in mode:  # settle=5000/20/10: settle with these thresholds
        mode, given = mode.split("=")
        thresholds = tuple(int(x) for x in given.split("/"))  # type: ignore[assignment]
    if mode == "settle":
        gctune.settle(thresholds, young_every)
    elif mode == "freeze":
        gctune.settle(None)
    elif mode == "off":  # freeze, then no collection at all: what the collector costs
        gctune.settle(None, None)
        gc.disable()
    elif mode == "thresholds":
        gc.set_threshold(*thresholds)
    await asyncio.sleep(warmup)
    gc.callbacks.append(on_gc)
    late.clear()
    for v in pauses.values():
        v.clear()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    actions0 = sum(t.moves for t in made)
    end = wall0 + seconds
    shares: list[float] = []  # the CPU share of each second: the load comes in waves
    second = (wall0, cpu0)
    while time.perf_counter() < end:
        await asyncio.sleep(0.5)
        bots.restart_finished()  # matches back to back
        if time.perf_counter() - second[0] >= 1.0:
            now = (time.perf_counter(), time.process_time())
            shares.append((now[1] - second[1]) / (now[0] - second[0]))
            second = now
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    actions = sum(t.moves for t in made) - actions0
    gc.callbacks.remove(on_gc)
    # what one sweep (``net.gctune.sweeper``, a full collection) costs at this size
    sweep_wall, sweep_cpu = time.perf_counter(), time.process_time()
    gc.collect()
    sweep = (time.perf_counter() - sweep_wall, time.process_time() - sweep_cpu)
    bots.close()
    out = {
        "actions": max(actions, len(late)),
        "wall": wall,
        "cpu": cpu,
        "late_p50": pct(late, 50),
        "late_p99": pct(late, 99),
        "gc": {g: [list(x) for x in v] for g, v in pauses.items()},
        "sweep": sweep,
        "busiest": max(shares, default=0.0),
    }
    print(json.dumps(out))


def summary(mode: str, tables: int, r: dict) -> str:
    acts = r["actions"]
    parts = [
        f"{tables:6} {mode:>18} {acts / r['wall']:8.0f} {r['late_p50'] * 1e3:8.2f} "
        f"{r['late_p99'] * 1e3:8.2f} {r['cpu'] / r['wall']:5.0%} {r['busiest']:5.0%} "
        f"{r['cpu'] / max(acts, 1) * 1e6:8.0f}"
    ]
    for g in ("0", "1", "2"):
        walls = [w for w, _ in r["gc"][g]]
        cpus = [c for _, c in r["gc"][g]]
        parts.append(
            f"{len(walls):5} {max(walls, default=0) * 1e3:7.1f} "
            f"{max(cpus, default=0) * 1e3:7.1f} {sum(cpus) * 1e3:7.0f}"
        )
    parts.append(f"{r['sweep'][0] * 1e3:6.1f} {r['sweep'][1] * 1e3:6.1f}")
    return " |".join(parts)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        tables, seconds, mode = int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
        thresholds = tuple(int(x) for x in sys.argv[5].split(","))
        stagger, warmup = float(sys.argv[6]), float(sys.argv[7])
        asyncio.run(child(tables, seconds, mode, thresholds, stagger, warmup))  # type: ignore[arg-type]
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="200,400,600")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--modes",
        default="default,settle",
        help="default, settle (freeze + young collections only), freeze, "
        "thresholds; settle=5000/5/10 settles with those thresholds "
        "(the issue-22 first cut); settle@0.02 runs the young collections every 20 ms; "
        "off freezes and then never collects (what the collector costs at all)",
    )
    parser.add_argument(
        "--stagger", type=float, default=0.0,
        help="start each table at a random time in the first S seconds (default: all at "
        "once, so their matches play in step and the load comes in waves)",
    )  # fmt: skip
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds before measuring (more than --stagger)")  # fmt: skip
    parser.add_argument("--thresholds", default=",".join(map(str, _default_thresholds())))
    args = parser.parse_args()
    modes = args.modes.split(",")
    print(
        f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"thresholds for settle: {args.thresholds}"
    )
    print(
        f"{'tables':>6} {'mode':>18} {'acts/s':>8} {'late p50':>8} {'late p99':>8} "
        f"{'CPU':>5} {'top1s':>5} {'µs/act':>8} |{'gen0: n  max ms  cpu max  cpu sum':>32}"
        f" |{'gen1 (same)':>30} |{'gen2 (same)':>30} |{'full ms, cpu':>13}"
    )
    results: dict[tuple[int, str], list[dict]] = {}
    for tables in (int(s) for s in args.steps.split(",")):
        for _ in range(args.rounds):
            for mode in modes:  # interleaved: A B A B
                done = subprocess.run(
                    [sys.executable, __file__, "--child", str(tables), str(args.seconds), mode,
                     args.thresholds, str(args.stagger), str(args.warmup)],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                r = json.loads(done.stdout.strip().splitlines()[-1])
                results.setdefault((tables, mode), []).append(r)
                print(summary(mode, tables, r), f"(load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("medians over the rounds (range), n = rounds:")
    print(
        f"{'tables':>6} {'mode':>18} {'n':>3} {'CPU share':>16} {'busiest second':>16} "
        f"{'late p99 ms':>22} "
        f"{'longest pause ms (CPU)':>24} {'full collection ms':>22}"
    )
    for (tables, mode), rows in results.items():

        def spread(values: list[float], scale: float = 1.0, fmt: str = ".1f") -> str:
            values = sorted(v * scale for v in values)
            return f"{statistics.median(values):{fmt}} ({values[0]:{fmt}}-{values[-1]:{fmt}})"

        longest = [max((w for g in r["gc"].values() for w, _ in g), default=0.0) for r in rows]
        longest_cpu = [max((c for g in r["gc"].values() for _, c in g), default=0.0)
                       for r in rows]  # fmt: skip
        print(
            f"{tables:6} {mode:>18} {len(rows):3} "
            f"{spread([r['cpu'] / r['wall'] for r in rows], 100, '.0f'):>16} "
            f"{spread([r['busiest'] for r in rows], 100, '.0f'):>16} "
            f"{spread([r['late_p99'] for r in rows], 1e3):>22} "
            f"{spread(longest, 1e3) + ' (' + spread(longest_cpu, 1e3) + ')':>24} "
            f"{spread([r['sweep'][0] for r in rows], 1e3):>22}"
        )


def _default_thresholds() -> tuple[int, int, int]:
    from net.gctune import THRESHOLDS

    return THRESHOLDS


if __name__ == "__main__":
    main()
