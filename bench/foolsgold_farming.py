"""Fool's Gold: the farming ladder (issues 34, 44). Can a bluffer farm the bots?

    python bench/foolsgold_farming.py [--seed 44] [--seats 2,4,8]
        [--matches 2:300,4:100,8:40] [--screen 2:60,4:30,8:10]
        [--only search,ladder,bots,person]

One seat plays a strategy of `foolsgold.exploits` (a bot of the table's difficulty,
honest but for one trait), the other seats bots of that difficulty; whole matches
(first to 3 points) through the real rules on the virtual clock of `foolsgold.sim`,
in one process. The figures are simulation shares: they do not depend on the machine.
Prints Markdown for docs/BENCHMARKS.md.

- search: every bluffer of `GRID` (`bluff-<rate>-<draws>-<delay>-<when>`, see
  `foolsgold.exploits`) plays `--screen` matches against normal at each seat count
  (seed `seed*1000+p+500`); the best of each seat count is then played afresh
  (`--matches`, seed `seed*1000+p`) against normal and hard beside the named
  strategies. Picking the best of a screen favours a lucky one; the fresh run's
  figure is the one reported;
- share: the strategy's share of matches won, with its 95% Wilson interval; a
  strategy **farms** when the interval's high end is above fair share + 5 points;
- called: of the strategy's bluffs (first grabs without a set), the share called;
- unended (2 seats): the share of matches with no winner within 40 rounds;
- bots: bot against bot at 2 seats, the share unended within 40 rounds;
- person: an honest modelled person (reaction lognormal, median 0.7/0.9/1.2 s or
  `--medians`, sigma 0.4) against one bot (2 seats) and three bots (4 seats) of each
  level.

At two seats the search screens `TWO_SEAT_GRID` too, and the unended column weighs
the match's length there (the bots' floor at two, F12, must not make matches endless).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from foolsgold.cards import is_set
from foolsgold.matches import play_match
from nuggets.sim import wilson

LADDER = ("instant", "natural", "far", "natural_all", "fast", "always_call", "never_call")
TABLES = ("easy", "normal", "hard")
#: the bluffers the search screens: rate x draws x when, a reaction after the draw,
#: and a few slower and quicker delays
GRID = tuple(
    f"bluff-{rate}-{draws}-r-{when}"
    for rate in (10, 30, 100) for draws in ("n", "4", "12") for when in ("any", "sunk")
) + ("bluff-100-n-3-any", "bluff-30-n-0.3-any", "bluff-5-n-r-any", "bluff-30-n-r-behind",
     "bluff-30-n-r-far")
#: the bluffers screened at two seats besides (issue 57): under F12 the table's score
#: sum never sinks there, so "sunk" never bluffs; these bluff by the scores instead
#: (behind, ahead, far from winning), quicker than a set, or at every chance
TWO_SEAT_GRID = ("bluff-10-n-r-behind", "bluff-100-n-r-behind", "bluff-30-n-r-ahead",
                 "bluff-100-n-r-ahead", "bluff-10-n-r-far", "bluff-100-n-r-far",
                 "bluff-10-n-0.3-any", "bluff-100-n-0.3-any", "bluff-30-4-0.3-any",
                 "bluff-30-0-r-any")
WITHIN = 40
#: a match still running after this many rounds counts as not won by anyone
LIMIT = 100
MARGIN = 0.05
MEDIANS = "0.7,0.9,1.2"


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


def run(jobs: list) -> dict:
    out = {}
    for job in jobs:
        began = time.perf_counter()
        result = _cell(job)
        out[job] = result[1:]
        winners = result[1]
        print(f"  ({job[1][0]} v {job[1][1]} at {job[0]}: {sum(w == 0 for w in winners)}/"
              f"{len(winners)} won, {time.perf_counter() - began:.0f} s)", flush=True)
    return out


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


def seat(strategy: str, table: str, players: int) -> tuple[str, ...]:
    return (f"{strategy}@{table}",) + (table,) * (players - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--seats", default="2,4,8")
    parser.add_argument("--matches", default="2:300,4:100,8:40",
                        help="matches per ladder cell by seats")
    parser.add_argument("--screen", default="2:60,4:30,8:10",
                        help="matches per search candidate by seats")
    parser.add_argument("--tables", default="normal,hard")
    parser.add_argument("--strategies", default=",".join(LADDER))
    parser.add_argument("--only", default="search,ladder,bots,person")
    parser.add_argument("--bot-matches", type=int, default=1000)
    parser.add_argument("--person-matches", default="2:150,4:100")
    parser.add_argument("--medians", default=MEDIANS,
                        help="the modelled person's median reactions, seconds")
    args = parser.parse_args()
    only = set(args.only.split(","))
    seats = [int(s) for s in args.seats.split(",")]
    per = {int(k): int(v) for k, v in (x.split(":") for x in args.matches.split(","))}
    screen = {int(k): int(v) for k, v in (x.split(":") for x in args.screen.split(","))}
    person_n = {int(k): int(v) for k, v in (x.split(":") for x in args.person_matches.split(","))}
    tables = args.tables.split(",")
    strategies = args.strategies.split(",")
    began = time.perf_counter()
    print(f"(started at {load()}; seed {args.seed})", flush=True)

    best: dict[int, str] = {}
    if "search" in only:
        print("\n| seats | screened v normal | n | best | its share |\n|---|---|---|---|---|")
        for p in seats:
            grid = GRID + (TWO_SEAT_GRID if p == 2 else ())
            jobs = [(p, seat(g, "normal", p), screen[p], args.seed * 1000 + p + 500)
                    for g in grid]
            results = run(jobs)
            ranked = sorted(jobs, key=lambda j: -sum(w == 0 for w in results[j][0]))
            top = ranked[0]
            best[p] = top[1][0].split("@")[0]
            won = sum(w == 0 for w in results[top][0])
            print(f"| {p} | {len(grid)} bluffers | {screen[p]} each | {best[p]} "
                  f"| {won}/{screen[p]} |", flush=True)
            for j in ranked[:5]:
                print(f"  screen {p}: {j[1][0]} {sum(w == 0 for w in results[j][0])}/{screen[p]}")

    rows = []
    if "ladder" in only:
        for p in seats:
            names = ([best[p]] if p in best else []) + strategies
            for t in tables:
                for s in names:
                    rows.append((p, t, s, (p, seat(s, t, p), per[p], args.seed * 1000 + p)))
        results = run([r[3] for r in rows])
        print("\n| seats | table | fair | strategy | n | share (95% interval) "
              "| high end over fair + 5 | bluffs called | unended within 40 (95%) |")
        print("|---|---|---|---|---|---|---|---|---|")
        for p, t, s, job in rows:
            winners, rounds, bluffs, called = results[job]
            rate, low, high = share(winners)
            farms = high > 1 / p + MARGIN
            calls = f"{pct(called / bluffs)}% of {bluffs}" if bluffs else "-"
            end = "-"
            if p == 2:
                u, ul, uh = unended(rounds)
                end = f"{pct(u)}% ({pct(ul)}-{pct(uh)})"
            label = f"best: {s}" if best.get(p) == s else s
            print(f"| {p} | {t} | {pct(1 / p)} | {label} | {len(winners)} | {pct(rate)} "
                  f"({pct(low)}-{pct(high)}) | {'**yes**' if farms else 'no'} | {calls} "
                  f"| {end} |", flush=True)
    if "bots" in only:
        jobs = [(2, (t, t), args.bot_matches, args.seed * 1000 + 2) for t in TABLES]
        results = run(jobs)
        print("\n| 2 seats, bot v bot | n | unended within 40 (95% interval) |")
        print("|---|---|---|")
        for job in jobs:
            _, rounds, _, _ = results[job]
            u, ul, uh = unended(rounds)
            print(f"| {job[1][0]} | {len(rounds)} | {pct(u)}% ({pct(ul)}-{pct(uh)}) |")
    if "person" in only:
        medians = [float(m) for m in args.medians.split(",")]
        jobs = [(p, (f"person{m:g}",) + (t,) * (p - 1), person_n[p], args.seed * 1000 + p)
                for p in sorted(person_n) for m in medians for t in TABLES]
        results = run(jobs)
        print("\n| seats | person's median reaction | table | fair | n "
              "| person's share (95% interval) |")
        print("|---|---|---|---|---|---|")
        for job in jobs:
            winners = results[job][0]
            rate, low, high = share(winners)
            print(f"| {job[0]} | {job[1][0][6:]} s | {job[1][1]} | {pct(1 / job[0])} "
                  f"| {len(winners)} | {pct(rate)} ({pct(low)}-{pct(high)}) |")
    print(f"\n({time.perf_counter() - began:.0f} s wall, one process, {load()})")


if __name__ == "__main__":
    main()
