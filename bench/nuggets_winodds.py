"""Timings of the chance-to-win advisor (nuggets.duel): loading the table, queries
for 2 players (table look-ups) and for 3-5 players (the estimate, a turn solved on
first use at a position, then cached), and the bot's choice of action.

    python bench/nuggets_winodds.py [--positions 400] [--runs 3]

"First" queries are honest: every position is distinct (no two share holdings, supply
and the seat to act, which is what the turn cache is keyed by), and both caches of the
3-5 player estimate (the solved turns and the start-of-turn estimates) are emptied
before each pass, so no first query is a cache hit. Two kinds of first query:

- "first": the caches emptied before the pass, so the start-of-turn estimates warm up
  along it (as they do in a game, whose turns revisit each other's outcomes);
- "first, nothing cached": both caches emptied before every query (the worst case: the
  turn and every estimate it needs computed afresh).

Each figure is given per run (median and p99), with the spread over the runs and the
load average of the machine before and after. Prints figures for docs/BENCHMARKS.md.
Goal (issues 19 and 22): p99 under 1 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from nuggets import Game, Roll, multi, roll_dice
from nuggets.bots import thief
from nuggets.chances import best_action, chances
from nuggets.duel import table


def positions(players: int, count: int, seed: int, phase: str) -> list[dict]:
    """Views of the seat to act in `phase` ('choose' or 'keep') from games of thief
    bots, each at a distinct (holdings, supply, seat to act)."""
    rng = random.Random(seed)
    views: list[dict] = []
    seen: set[tuple] = set()
    while len(views) < count:
        g = Game([f"p{i}" for i in range(players)])
        while not g.over and len(views) < count:
            view = g.view(g.current)
            key = (tuple(view["holdings"]), view["supply"], view["current"])
            if view["phase"] == phase and key not in seen and rng.random() < 0.2:
                seen.add(key)
                views.append(view)
            action = thief(view, rng)
            if isinstance(action, Roll):
                action = Roll(roll_dice(rng, g.dice_left))
            g.apply(action)
    return views


def timed(fn, views, before=None) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of ``fn`` on each view; ``before()`` runs untimed first.
    The CPU time of this thread leaves out the time the thread waited for a core, so
    on a loaded machine it shows the work a query does, which the wall time hides."""
    out = []
    wall, cpu = time.perf_counter, time.thread_time
    for view in views:
        if before is not None:
            before()
        began, began_cpu = wall(), cpu()
        fn(view)
        out.append((wall() - began, cpu() - began_cpu))
    return out


def cold() -> None:
    """Empty the caches of the 3-5 player estimate, so the next query solves afresh:
    the solved turns and the start-of-turn estimates."""
    multi._multi_turn.cache_clear()
    multi._shares.cache_clear()


def timed_cold(fn, views) -> list[tuple[float, float]]:
    """Like `timed`, with both caches emptied before every query (not timed)."""
    return timed(fn, views, cold)


def quantiles(times: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """Median and p99 of the wall times, then of the CPU times."""
    walls = sorted(w for w, _ in times)
    cpus = sorted(c for _, c in times)
    at = int(0.99 * (len(times) - 1))
    return statistics.median(walls), walls[at], statistics.median(cpus), cpus[at]


def us(x: float) -> str:
    return f"{x * 1e6:,.0f}"


def show(label: str, runs: list[tuple[float, ...]]) -> None:
    cells = []
    for i in range(4):
        xs = [r[i] for r in runs]
        cells.append(f"{us(statistics.median(xs))} ({us(min(xs))}-{us(max(xs))})")
    print(f"| {label} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    began = time.perf_counter()
    table()
    print(f"table load (first use, with writing out the turn): "
          f"{(time.perf_counter() - began) * 1e3:.0f} ms\n")
    print(f"| query ({args.positions} distinct positions, {args.runs} runs), us "
          "| wall median (range over runs) | wall p99 (range) "
          "| CPU median (range) | CPU p99 (range) |")
    print("|---|---|---|---|---|")
    for players in (2, 3, 4, 5):
        choose = positions(players, args.positions, players, "choose")
        keep = positions(players, args.positions, players + 10, "keep")
        first, again, action, bare, bare_action = [], [], [], [], []
        for _ in range(args.runs):
            cold()
            first.append(quantiles(timed(chances, choose)))
            again.append(quantiles(timed(chances, choose)))
            cold()
            action.append(quantiles(timed(best_action, keep)))
            if players > 2:
                bare.append(quantiles(timed_cold(chances, choose)))
                bare_action.append(quantiles(timed_cold(best_action, keep)))
        if players == 2:
            show("2 players: `chances(view)`", first)
        else:
            show(f"{players} players: `chances(view)`, first query at a position", first)
            show(f"{players} players: `chances(view)`, first, nothing cached", bare)
            show(f"{players} players: `chances(view)`, again (cached)", again)
        show(f"{players} players: `best_action(view)` on a roll, first", action)
        if players > 2:
            show(f"{players} players: `best_action(view)` on a roll, first, nothing cached",
                 bare_action)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
