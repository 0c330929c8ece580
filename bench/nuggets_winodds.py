"""Timings of the chance-to-win advisor (nuggets.duel): loading the table, queries
for 2 players (table look-ups) and for 3-5 players (the estimate, a turn solved on
first use at a position, then cached), and the bot's choice of action.

    python bench/nuggets_winodds.py

Prints figures for docs/BENCHMARKS.md. A query must answer in under 1 ms.
"""

from __future__ import annotations

import random
import statistics
import time

from nuggets import Game, Roll, roll_dice
from nuggets.bots import thief
from nuggets.duel import best_action, chances, table


def positions(players: int, count: int, seed: int) -> list[dict]:
    """Views of the seat to act in 'choose' or 'keep', from games of thief bots."""
    rng = random.Random(seed)
    views: list[dict] = []
    while len(views) < count:
        g = Game([f"p{i}" for i in range(players)])
        while not g.over and len(views) < count:
            view = g.view(g.current)
            if view["phase"] in ("choose", "keep") and rng.random() < 0.2:
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


def show(label: str, times: list[float]) -> None:
    times = sorted(times)
    print(f"| {label} | {statistics.median(times) * 1e6:,.0f} us "
          f"| {times[int(0.99 * (len(times) - 1))] * 1e6:,.0f} us | {times[-1] * 1e6:,.0f} us |")


def main() -> None:
    began = time.perf_counter()
    table()
    print(f"table load (first use): {(time.perf_counter() - began) * 1e3:.0f} ms\n")
    print("| query | median | p99 | max |")
    print("|---|---|---|---|")
    for players in (2, 3, 4, 5):
        views = positions(players, 400, players)
        choose = [v for v in views if v["phase"] == "choose"]
        keep = [v for v in views if v["phase"] == "keep"]
        first = timed(chances, choose)
        show(f"{players} players: `chances(view)`, first time at a position", first)
        show(f"{players} players: `chances(view)`, again", timed(chances, choose))
        show(f"{players} players: `best_action(view)` on a roll", timed(best_action, keep))
    print(f"\n({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
