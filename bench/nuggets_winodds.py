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

from nuggets import Game, Roll, duel, roll_dice
from nuggets.bots import thief
from nuggets.duel import best_action, chances, table


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


def timed(fn, views) -> list[float]:
    out = []
    for view in views:
        began = time.perf_counter()
        fn(view)
        out.append(time.perf_counter() - began)
    return out


def cold() -> None:
    """Empty the caches of the 3-5 player estimate, so the next query solves afresh:
    the solved turns and the start-of-turn estimates."""
    duel._multi_turn.cache_clear()
    duel._shares.cache_clear()


def timed_cold(fn, views) -> list[float]:
    """Like `timed`, with both caches emptied before every query (not timed)."""
    out = []
    for view in views:
        cold()
        began = time.perf_counter()
        fn(view)
        out.append(time.perf_counter() - began)
    return out


def quantiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(0.99 * (len(times) - 1))]


def us(x: float) -> str:
    return f"{x * 1e6:,.0f}"


def show(label: str, runs: list[tuple[float, float]]) -> None:
    meds = [m for m, _ in runs]
    p99s = [p for _, p in runs]
    print(f"| {label} | {us(statistics.median(meds))} us ({us(min(meds))}-{us(max(meds))}) "
          f"| {us(statistics.median(p99s))} us ({us(min(p99s))}-{us(max(p99s))}) |")


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
    print(f"| query ({args.positions} distinct positions, {args.runs} runs) "
          "| median (range over runs) | p99 (range over runs) |")
    print("|---|---|---|")
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
