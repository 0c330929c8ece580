"""Fool's Gold: the farming ladder of issue 34. Can a simple strategy farm the bots?

    python bench/foolsgold_farming.py [--seed 34] [--jobs 2] [--seats 2,4,8]
        [--matches 2:300,4:150,8:60] [--tables easy,normal,hard] [--only ladder,bots,person]

One seat plays a strategy of `foolsgold.exploits` (a bot of the table's difficulty,
honest but for one trait), the other seats bots of that difficulty; whole matches
(first to 3 points) through the real rules on the virtual clock of `foolsgold.sim`.
The figures are simulation shares: they do not depend on the machine. Prints
Markdown for docs/BENCHMARKS.md.

- share: the strategy's share of matches won, with its 95% Wilson interval; a
  strategy **farms** when the interval's low end is above fair share + 5 points;
- called: of the strategy's bluffs (first grabs without a set), the share called;
- unended (2 seats): the share of matches with no winner within 40 rounds;
- bots: bot against bot at 2 seats, the share unended within 40 rounds;
- person: an honest modelled person (reaction lognormal, median 0.7/0.9/1.2 s,
  sigma 0.4) against three bots of each level at 4 seats.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from foolsgold.cards import is_set
from foolsgold.sim import play_match
from nuggets.sim import wilson

LADDER = ("instant", "natural", "far", "natural_all", "fast", "always_call", "never_call")
TABLES = ("easy", "normal", "hard")
WITHIN = 40
#: a match still running after this many rounds counts as not won by anyone
LIMIT = 100
MARGIN = 0.05
MEDIANS = (0.7, 0.9, 1.2)


def _cell(job: tuple) -> tuple:
    """Play one cell: (players, who, matches, seed) -> job, winners, rounds, bluffs, called."""
    players, who, matches, seed = job
    rng = random.Random(seed)
    bluffs = called = 0
    winners, rounds = [], []

    def on_round(rnd, _length: float) -> None:
        nonlocal bluffs, called
        first = rnd.grabbed[0]
        if first == 0 and not is_set(rnd.hands[0]):
            bluffs += 1
            called += rnd.caller is not None

    for _ in range(matches):
        result = play_match(players, list(who), rng, limit=LIMIT, on_round=on_round)
        winners.append(result.winner)
        rounds.append(result.rounds if result.winner is not None else LIMIT + 1)
    return job, winners, rounds, bluffs, called


def run(jobs: list, workers: int) -> dict:
    if workers <= 1:
        return {r[0]: r[1:] for r in map(_cell, jobs)}
    with ProcessPoolExecutor(workers) as pool:
        return {r[0]: r[1:] for r in pool.map(_cell, jobs)}


def share(winners: list) -> tuple[float, float, float]:
    n = len(winners)
    won = sum(w == 0 for w in winners)
    low, high = wilson(won, n)
    return won / n, low, high


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def unended(rounds: list) -> tuple[float, float, float]:
    n = len(rounds)
    k = sum(r > WITHIN for r in rounds)
    low, high = wilson(k, n)
    return k / n, low, high


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seats", default="2,4,8")
    parser.add_argument("--matches", default="2:300,4:150,8:60",
                        help="matches per cell by seats")
    parser.add_argument("--tables", default="easy,normal,hard")
    parser.add_argument("--easy-seats", default="4", help="seats at which easy is laddered")
    parser.add_argument("--strategies", default=",".join(LADDER))
    parser.add_argument("--only", default="ladder,bots,person")
    parser.add_argument("--bot-matches", type=int, default=600)
    parser.add_argument("--person-matches", type=int, default=200)
    args = parser.parse_args()
    only = set(args.only.split(","))
    seats = [int(s) for s in args.seats.split(",")]
    per = {int(k): int(v) for k, v in (x.split(":") for x in args.matches.split(","))}
    tables = args.tables.split(",")
    easy_seats = {int(s) for s in args.easy_seats.split(",")}
    strategies = args.strategies.split(",")
    began = time.perf_counter()
    print(f"(started at {load()}; seed {args.seed})", flush=True)

    jobs = []
    if "ladder" in only:
        cells = [(p, t, s) for p in seats for t in tables for s in strategies
                 if t != "easy" or p in easy_seats]
        jobs += [(p, (f"{s}@{t}",) + (t,) * (p - 1), per[p], args.seed * 1000 + p)
                 for p, t, s in cells]
    if "bots" in only:
        jobs += [(2, (t, t), args.bot_matches, args.seed * 1000 + 2) for t in tables]
    if "person" in only:
        jobs += [(4, (f"person{m}", t, t, t), args.person_matches, args.seed * 1000 + 4)
                 for m in MEDIANS for t in tables]
    results = run(jobs, args.jobs)

    if "ladder" in only:
        print("\n| seats | table | fair | strategy | n | share (95% interval) | farms "
              "| bluffs called | unended within 40 |")
        print("|---|---|---|---|---|---|---|---|---|")
        for p, t, s in cells:
            job = (p, (f"{s}@{t}",) + (t,) * (p - 1), per[p], args.seed * 1000 + p)
            winners, rounds, bluffs, called = results[job]
            rate, low, high = share(winners)
            farms = low > 1 / p + MARGIN
            calls = f"{pct(called / bluffs)}% of {bluffs}" if bluffs else "-"
            end = ""
            if p == 2:
                u, ul, uh = unended(rounds)
                end = f"{pct(u)}% ({pct(ul)}-{pct(uh)})"
            print(f"| {p} | {t} | {pct(1 / p)} | {s} | {len(winners)} | {pct(rate)} "
                  f"({pct(low)}-{pct(high)}) | {'**FARMS**' if farms else 'no'} | {calls} "
                  f"| {end} |")
    if "bots" in only:
        print("\n| 2 seats, bot v bot | n | unended within 40 (95% interval) |")
        print("|---|---|---|")
        for t in tables:
            job = (2, (t, t), args.bot_matches, args.seed * 1000 + 2)
            _, rounds, _, _ = results[job]
            u, ul, uh = unended(rounds)
            print(f"| {t} | {len(rounds)} | {pct(u)}% ({pct(ul)}-{pct(uh)}) |")
    if "person" in only:
        print("\n| person's median reaction | table | n | person's share (95% interval) |")
        print("|---|---|---|---|")
        for m in MEDIANS:
            for t in tables:
                job = (4, (f"person{m}", t, t, t), args.person_matches, args.seed * 1000 + 4)
                winners = results[job][0]
                rate, low, high = share(winners)
                print(f"| {m} s | {t} | {len(winners)} | {pct(rate)} ({pct(low)}-{pct(high)}) |")
    print(f"\n({time.perf_counter() - began:.0f} s wall, {args.jobs} processes, {load()})")


if __name__ == "__main__":
    main()
