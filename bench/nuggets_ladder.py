"""The Gold Nuggets ladder: difficulties head to head, at mixed tables, and the
win-aware bot against the EV-optimal one, with 95% Wilson intervals.

    nice python bench/nuggets_ladder.py [--games 2000] [--duel 20000] [--seed 1]

Prints Markdown for docs/BENCHMARKS.md. Seats rotate from game to game, so every
bot starts equally often; the seat-order edge is printed for each run.
"""

from __future__ import annotations

import argparse
import math
import time

from nuggets.bots import DIFFICULTIES
from nuggets.sim import report, simulate


def paired_gain(results) -> tuple[float, float, float]:
    """Win-rate gain of bot 0 over bot 1 (2 players), with a 95% interval: the
    difference of two shares of the same games, so its variance is that of 2p-1."""
    n = results.games
    p = results.bots[0].wins / n
    gain = 2 * p - 1
    half = 1.96 * 2 * math.sqrt(p * (1 - p) / n)
    return gain, gain - half, gain + half


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--duel", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-duel", action="store_true")
    args = parser.parse_args()
    began = time.perf_counter()
    print("Difficulties: " + ", ".join(f"{d} = {p}" for d, p in DIFFICULTIES.items()))
    runs = [
        ["easy", "normal"],
        ["normal", "hard"],
        ["easy", "hard"],
        ["optimal", "thief"],
        ["easy", "normal", "hard"],
        ["easy", "normal", "hard", "normal"],
        ["hard", "normal", "normal"],
        ["hard", "normal", "normal", "normal"],
        ["hard", "optimal", "optimal", "optimal"],
    ]
    for names in runs:
        r = simulate(names, args.games, args.seed)
        print(f"\n{', '.join(names)}; {args.games} games, seed {args.seed}")
        print("```")
        print(report(r))
        print("```")
    if not args.skip_duel:
        r = simulate(["shrewd", "optimal"], args.duel, args.seed)
        gain, low, high = paired_gain(r)
        print(f"\nshrewd v optimal, {args.duel} games, seed {args.seed}")
        print("```")
        print(report(r))
        print("```")
        print(f"gain of shrewd over optimal: {gain:+.2%} (95% interval {low:+.2%} to {high:+.2%})")
    print(f"\n({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
