"""Fool's Gold simulator speed: simulated rounds per second, 4 normal bots.

Prints the figure for docs/BENCHMARKS.md, with the cProfile top entries when it is
under 200 rounds/s.

    .venv/bin/python bench/foolsgold_sim.py [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time

from foolsgold.sim import simulate

GOAL = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rates = []
    for i in range(args.repeats):
        began = time.perf_counter()
        report = simulate(4, ["normal"], args.rounds, args.seed + i)
        wall = time.perf_counter() - began
        rates.append(args.rounds / wall)
        actions = report.rounds and sum(r.length for r in report.rounds) / len(report.rounds)
        print(
            f"run {i + 1}: {args.rounds} rounds in {wall:.2f} s = {rates[-1]:.0f} rounds/s "
            f"(median round {report.median:.1f} simulated s, mean {actions:.1f})"
        )
    best = max(rates)
    print(f"rounds/s, 4 normal bots: median {statistics.median(rates):.0f}, best {best:.0f}")
    if best < GOAL:
        profile = cProfile.Profile()
        profile.enable()
        simulate(4, ["normal"], max(50, args.rounds // 10), args.seed)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(12)
        print(f"under {GOAL} rounds/s: cProfile top entries by own time")
        text = out.getvalue()
        print(text[text.index("   ncalls") :].rstrip())


if __name__ == "__main__":
    main()
