"""The Fool's Gold ladder: per-difficulty figures at a mixed table, head to head,
and a scripted person (reaction 1.2-1.8 s) at tables of each difficulty.

    python bench/foolsgold_ladder.py [--rounds 3000] [--seed 1]

Prints Markdown for docs/BENCHMARKS.md. Match wins carry 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from foolsgold.bots import HUMAN, PLAYERS
from foolsgold.sim import describe, simulate
from nuggets.sim import wilson


def share(report, name: str) -> str:
    won = report.wins.get(name, 0)
    seats = report.bots.count(name)
    n = report.matches
    if not n:
        return "no match finished"
    low, high = wilson(won / seats, n)
    return f"{won / seats / n:.1%} ({low:.1%} - {high:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()

    print("## Mixed table: easy, normal, hard, normal\n")
    print("```")
    print(describe(simulate(4, ["easy", "normal", "hard", "normal"], args.rounds, args.seed)))
    print("```\n")

    print("## Head to head, 2 players: matches won (95% interval), points per round\n")
    print("| pairing | first | second |")
    print("|---|---|---|")
    for a, b in (("easy", "normal"), ("normal", "hard"), ("easy", "hard")):
        r = simulate(2, [a, b], args.rounds, args.seed)
        pts = r.points()
        print(f"| {a} v {b} | {a} {share(r, a)}, {pts[a]:+.3f} | {b} {share(r, b)}, "
              f"{pts[b]:+.3f} |")

    # The scripted person of foolsgold.bots (1.2-1.8 s), and a quick one (1.2 s flat).
    PLAYERS["quick"] = dataclasses.replace(HUMAN, name="quick", reaction=1.2, jitter=0.0)
    print("\n## A scripted person against three bots (fair share of matches: 25%)\n")
    print("| person | table | person: matches won (95% interval) | person: points per round "
          "| bots: points per round |")
    print("|---|---|---|---|---|")
    for who, label in (("human", "1.2-1.8 s"), ("quick", "quick, 1.2 s")):
        for d in ("easy", "normal", "hard"):
            r = simulate(4, [who, d, d, d], args.rounds, args.seed)
            pts = r.points()
            print(f"| {label} | {d} | {share(r, who)} | {pts[who]:+.3f} | {pts[d]:+.3f} |")
    print(f"\n({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
