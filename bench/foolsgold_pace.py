"""Fool's Gold at a person's pace (issues 46 and 47): a modelled person against three
normal bots, whole matches through the real rules on the virtual clock of
`foolsgold.sim`, at each table pace (`net.table.PACES`: the time windows and the bots
that many times as slow; the person is not).

    python bench/foolsgold_pace.py [--matches 200] [--seed 46] [--seats 4]

For each (seats, person's median reaction, pace): the person's share of matches won with its
95% Wilson interval (fair share 25%), the median and p95 of a match's length in
minutes of play, and how many cards wait in the person's incoming pile: the share of
the person's moments (each time it is asked to act) with at most 6 waiting, and the
p95. The person is honest (it grabs only with a set), reaction lognormal (sigma 0.4).
The figures are simulation shares and virtual minutes: they do not depend on the
machine. Prints Markdown for docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from foolsgold.bots import Bot
from foolsgold.cards import standard_deck
from foolsgold.levels import person
from foolsgold.match import Match
from foolsgold.round import CALL_WINDOW, GRAB_TIMEOUT
from foolsgold.sim import PAUSE, play_round
from nuggets.sim import wilson

PACES = {"normal": 1.0, "steady": 2.0, "relaxed": 4.0}  # net.table.PACES
LIMIT = 60  # rounds: a match still running then counts as not won by the person


class Paced:
    """A bot at a table's pace: each plan that many times as far off (as
    `net.games.Slowed` does at a real table)."""

    def __init__(self, bot: Bot, slow: float) -> None:
        self.bot, self.slow, self.seat = bot, slow, bot.seat

    def plan(self, view: dict[str, Any], now: float):
        planned = self.bot.plan(view, now)
        if planned is None:
            return None
        action, at = planned
        return action, now + max(0.0, at - now) * self.slow

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


class Watched:
    """The person, with how many cards wait in its incoming pile each time it looks."""

    def __init__(self, bot: Bot, waiting: list[int]) -> None:
        self.bot, self.seat, self.waiting = bot, bot.seat, waiting

    def plan(self, view: dict[str, Any], now: float):
        sizes = view.get("incoming_sizes")
        if sizes and not view.get("settled"):
            self.waiting.append(sizes[self.seat])
        return self.bot.plan(view, now)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


def match(median: float, slow: float, rng: random.Random, waiting: list[int],
          players: int = 4) -> tuple:
    """One match, the person at seat 0 and normal bots in the others: (person won,
    minutes of play)."""
    game = Match(players, rng.randrange(players))
    seats: list[Any] = [Watched(Bot(0, person(median), random.Random(rng.random())), waiting)]
    seats += [Paced(Bot(s, "normal", random.Random(rng.random())), slow)
              for s in range(1, players)]
    clock = 0.0
    while game.winner is None and game.round_no < LIMIT:
        deck = standard_deck(players)
        rng.shuffle(deck)
        game.new_round(deck, GRAB_TIMEOUT * slow, CALL_WINDOW * slow)
        clock = play_round(game, seats, rng, clock)
        clock += PAUSE * slow
    return game.winner == 0, clock / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--medians", default="1.2,3.0")
    parser.add_argument("--seats", default="4",
                        help="seat counts, comma-separated (the person and normal bots)")
    parser.add_argument("--paces", default=",".join(f"{k}={v:g}" for k, v in PACES.items()),
                        help="NAME=SLOW,... (default: the table's paces)")
    args = parser.parse_args()
    began = time.perf_counter()
    print("| seats | person's median reaction | pace | matches | person's share won (95%) "
          "| match minutes, median / p95 | incoming <= 6 | incoming p95 |")
    print("|---|---|---|---|---|---|---|---|")
    for players, median in ((int(n), float(m)) for n in args.seats.split(",")
                            for m in args.medians.split(",")):
        paces = dict((name, float(slow)) for name, slow in
                     (item.split("=") for item in args.paces.split(",")))
        for pace, slow in paces.items():
            rng = random.Random(args.seed * 1000 + int(median * 10) * 10 + int(slow)
                                + (0 if players == 4 else 100_000 * players))
            waiting: list[int] = []
            results = [match(median, slow, rng, waiting, players)
                       for _ in range(args.matches)]
            won = sum(w for w, _ in results)
            low, high = wilson(won, len(results))
            minutes = sorted(m for _, m in results)
            p95 = minutes[int(0.95 * (len(minutes) - 1))]
            kept = sum(w <= 6 for w in waiting) / max(1, len(waiting))
            deep = sorted(waiting)[int(0.95 * (len(waiting) - 1))] if waiting else 0
            share = won / len(results)
            print(f"| {players} | {median:g} s | {pace} | {len(results)} | {share:.1%} "
                  f"({low:.1%}-{high:.1%}) | {statistics.median(minutes):.1f} / {p95:.1f} "
                  f"| {kept:.1%} | {deep} |", flush=True)
    print(f"\n({time.perf_counter() - began:.0f} s, seed {args.seed})")


if __name__ == "__main__":
    main()
