"""The Fool's Gold ladder: per-difficulty figures at a mixed table, head to head,
and a scripted person (reaction 1.2-1.8 s) at tables of each difficulty.

    python bench/foolsgold_ladder.py [--rounds 3000] [--seed 1]

Prints Markdown for docs/BENCHMARKS.md. Match wins carry 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time

from foolsgold.levels import HUMAN, PLAYERS
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


def rounds_won(report, name: str) -> str:
    """Share of rounds in which a seat of this difficulty gained the round's point,
    per seat, with a 95% interval over the rounds."""
    seats = {s for s, b in enumerate(report.bots) if b == name}
    n = len(report.rounds)
    won = sum(1 for r in report.rounds for s in seats if r.deltas[s] > 0) / len(seats)
    low, high = wilson(won, n)
    return f"{won / n:.1%} ({low:.1%} - {high:.1%})"


def points(report, name: str) -> str:
    """Points per seat per round of this difficulty, with a 95% interval (normal
    approximation over the rounds)."""
    seats = [s for s, b in enumerate(report.bots) if b == name]
    per_round = [sum(r.deltas[s] for s in seats) / len(seats) for r in report.rounds]
    n = len(per_round)
    mean = sum(per_round) / n
    var = sum((x - mean) ** 2 for x in per_round) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return f"{mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()

    print("## Mixed table: easy, normal, hard, normal\n")
    print("```")
    mixed = simulate(4, ["easy", "normal", "hard", "normal"], args.rounds, args.seed)
    print(describe(mixed))
    print("```\n")
    print("| difficulty | points per seat per round (95% interval) "
          "| rounds won per seat | matches won per seat |")
    print("|---|---|---|---|")
    for name in ("easy", "normal", "hard"):
        print(f"| {name} | {points(mixed, name)} | {rounds_won(mixed, name)} "
              f"| {share(mixed, name)} |")
    print()

    print("## Head to head, 2 players: points per round and matches won (95% intervals)\n")
    print("| pairing | first | second |")
    print("|---|---|---|")
    for a, b in (("easy", "normal"), ("normal", "hard"), ("easy", "hard")):
        r = simulate(2, [a, b], args.rounds, args.seed)
        print(f"| {a} v {b} | {a}: points {points(r, a)}, matches {share(r, a)} "
              f"| {b}: points {points(r, b)}, matches {share(r, b)} |")

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
