"""Secrets, long version: 10k random games at the sans-I/O table core, every message
checked at the moment of delivery: no card of another seat (the revealed hand aside),
no deck order, no seed before the reveal.

Fool's Gold matches mix remote players, host bots, spectators (one arriving mid-game)
and a player who drops, is played by a stand-in and comes back with the token; Gold
Nuggets games mix scripted players and bots. The games are split over worker
processes. The CI version is ``tests/hardening/test_secrets.py``.

    .venv/bin/python bench/stress_secrets.py [--games 10000] [--foolsgold 0.2] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def work(job: tuple[str, int, int]) -> tuple[str, int, int, int, list]:
    """(game, games, rounds or turns, messages checked, problems) for a slice of games."""
    from tests.hardening.test_secrets import play_foolsgold, play_nuggets_game

    game, first, count = job
    rounds = checked = 0
    problems: list = []
    for n in range(first, first + count):
        if game == "foolsgold":
            seed = f"bench-{n}-{random.Random(n).getrandbits(64):x}"
            table, found, seen = play_foolsgold(seed, random.Random(f"bench/{n}"))
            rounds += table.driver.match.round_no
        else:
            found, seen = play_nuggets_game(100_000 + n)
            rounds += 1
        checked += seen
        problems += [(game, n, *f) for f in found[:2]]
    return game, count, rounds, checked, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--foolsgold", type=float, default=0.2, help="share of matches")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    matches = int(args.games * args.foolsgold)
    dice = args.games - matches
    jobs = [("foolsgold", i, min(25, matches - i)) for i in range(0, matches, 25)]
    jobs += [("nuggets", i, min(250, dice - i)) for i in range(0, dice, 250)]
    totals: dict[str, list[int]] = {"foolsgold": [0, 0, 0], "nuggets": [0, 0, 0]}
    problems: list = []
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for game, count, rounds, checked, found in pool.map(work, jobs):
            total = totals[game]
            total[0] += count
            total[1] += rounds
            total[2] += checked
            problems += found
    elapsed = time.perf_counter() - start
    fg, ng = totals["foolsgold"], totals["nuggets"]
    print(f"{fg[0] + ng[0]} games in {elapsed:.0f} s on {args.workers} workers")
    print(f"Fool's Gold: {fg[0]} matches ({fg[1]} rounds), {fg[2]} messages checked")
    print(f"Gold Nuggets: {ng[0]} games, {ng[2]} messages checked")
    print(f"messages with a card of another seat, the deck or the seed: {len(problems)}")
    for problem in problems[:5]:
        print("   ", repr(problem)[:300])
    print("RESULT:", "nothing lost" if not problems else "FAILURES")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
