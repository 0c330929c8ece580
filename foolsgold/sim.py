"""Bots playing Fool's Gold on a virtual clock, and the tuning report.

`play_round` is the driver: an event loop over the bots' plans ordered by time (ties
broken by the seeded rng), with the round's own deadlines as `Tick`s; the order in
which it applies actions is final, as at a real table. It never sleeps: the clock
jumps from one planned time to the next. The host runs the same loop on a real clock.

    python -m foolsgold.sim --players 4 --rounds 2000 --bots normal --seed 1
    python -m foolsgold.sim --players 4 --rounds 2000 --bots easy,normal,hard,normal
    python -m foolsgold.sim --players 4 --bots human,easy,easy,easy   # a scripted person
    python -m foolsgold.sim --players 4 --bots instant@normal,normal,normal,normal  # an exploit
    python -m foolsgold.sim --table          # the tuning table of docs/RULES.md

It prints the round figures, a table per difficulty (first grabs, the share of them
that were bluffs, bluffs left uncalled, calls made and right, points per round) and
the seat-order edge (points per round from the start player clockwise).

Beyond the standard library it uses `rich` (a progress bar on a terminal), which the
game installs anyway; the rules modules themselves use the standard library only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from foolsgold.actions import IllegalAction, Tick
from foolsgold.bots import Bot
from foolsgold.cards import MAX_PLAYERS, MIN_PLAYERS, is_set, standard_deck
from foolsgold.levels import PLAYERS, person
from foolsgold.match import Match
from foolsgold.round import Round

#: Simulated seconds between the end of a round and the deal of the next.
PAUSE = 3.0
#: A round still running after this many simulated seconds is a bug in the bots.
LIMIT = 3600.0


class Stalled(RuntimeError):
    """The bots stopped planning before the round settled."""


def _round(game: Round | Match) -> Round:
    if isinstance(game, Match):
        if game.round is None:
            raise ValueError("deal a round first: Match.new_round(deck)")
        return game.round
    return game


def seat_views(
    game: Round | Match, seats: Sequence[int], card_dicts: dict[int, dict[str, str]]
) -> list[dict[str, Any]]:
    """`game.view(seat)` for each of `seats`, built from one spectator view: the
    public part is the same for every seat, only the seat and its hand differ (at
    8 seats the views were a third of the simulator's time). `card_dicts` caches
    each card's dict between calls, by the card's identity (hashing a card is slow,
    and the deck keeps every card of a round alive)."""
    public = game.view(None)
    hands = _round(game).hands
    out = []
    for seat in seats:
        view = dict(public)
        view["seat"] = seat
        hand = []
        for card in hands[seat]:
            data = card_dicts.get(id(card))
            if data is None:
                data = card_dicts[id(card)] = card.to_dict()
            hand.append(data)
        view["hand"] = hand
        out.append(view)
    return out


def play_round(
    game: Round | Match,
    bots: Sequence[Bot],
    rng: random.Random,
    now: float = 0.0,
    on_events: Callable[[list[dict[str, Any]], float], None] | None = None,
) -> float:
    """Play the current round of `game` until it settles; return the clock at the end.

    `bots` holds one bot per seat (seats without a bot never act). `on_events` is
    called with the events of every applied action and the time it was applied.
    """
    rnd = _round(game)
    started = now
    plans: dict[int, tuple[Any, float, float]] = {}
    card_dicts: dict[int, dict[str, str]] = {}
    seats = [bot.seat for bot in bots]

    def replan(t: float) -> None:
        for bot, view in zip(bots, seat_views(game, seats, card_dicts), strict=True):
            plan = bot.plan(view, t)
            if plan is None:
                plans.pop(bot.seat, None)
            else:
                old = plans.get(bot.seat)
                # Keep the tie-break of an unchanged plan, so re-planning is neutral.
                tie = old[2] if old is not None and old[:2] == plan else rng.random()
                plans[bot.seat] = (plan[0], plan[1], tie)

    replan(now)
    while not rnd.settled:
        if now - started > LIMIT:
            raise Stalled(f"the round ran past {LIMIT} simulated seconds")
        deadline = rnd.deadline
        seat = None
        if plans:
            seat = min(plans, key=lambda s: (max(plans[s][1], now), plans[s][2]))
        if deadline is not None and (seat is None or deadline <= max(plans[seat][1], now)):
            now = max(now, deadline)
            events = game.apply(Tick(), now)
        elif seat is not None:
            action, at, _ = plans.pop(seat)
            now = max(now, at)
            try:
                events = game.apply(action, now)
            except IllegalAction:
                # A stale plan (the situation changed under it): ask again, and if the
                # bot insists on the same thing, let it wait for the next change.
                bot = next(b for b in bots if b.seat == seat)
                plan = bot.plan(game.view(seat), now)
                if plan is not None and plan[0] != action:
                    plans[seat] = (plan[0], plan[1], rng.random())
                continue
        else:
            raise Stalled("no bot has anything to do and no deadline is set")
        if on_events is not None:
            on_events(events, now)
        replan(now)
    return now


@dataclass
class RoundStats:
    """What one simulated round showed."""

    length: float
    first: int
    true_set: bool
    caller: int | None
    deltas: list[int]
    start: int = 0  # the round's start player


@dataclass
class Report:
    """The figures of a simulation run."""

    players: int
    bots: list[str]
    rounds: list[RoundStats] = field(default_factory=list)
    matches: int = 0
    wins: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    seconds: float = 0.0

    def quantile(self, q: float) -> float:
        lengths = sorted(r.length for r in self.rounds)
        return lengths[min(len(lengths) - 1, int(q * len(lengths)))]

    @property
    def median(self) -> float:
        return statistics.median(r.length for r in self.rounds)

    @property
    def p90(self) -> float:
        return self.quantile(0.9)

    @property
    def set_share(self) -> float:
        return sum(r.true_set for r in self.rounds) / len(self.rounds)

    @property
    def call_rate(self) -> float:
        return sum(r.caller is not None for r in self.rounds) / len(self.rounds)

    @property
    def call_accuracy(self) -> float | None:
        called = [r for r in self.rounds if r.caller is not None]
        if not called:
            return None
        return sum(not r.true_set for r in called) / len(called)

    def by_difficulty(self) -> dict[str, dict[str, float | None]]:
        """Per difficulty (averaged over its seats): share of rounds it grabbed first,
        the share of those first grabs that were bluffs, the share of its bluffs
        left uncalled, calls per seat per round, the share of its calls that were
        right, and points per seat per round."""
        seats: dict[str, int] = defaultdict(int)
        for name in self.bots:
            seats[name] += 1
        out: dict[str, dict[str, float | None]] = {}
        n = len(self.rounds) or 1
        for name in sorted(seats):
            mine = {s for s, b in enumerate(self.bots) if b == name}
            firsts = [r for r in self.rounds if r.first in mine]
            bluffs = [r for r in firsts if not r.true_set]
            calls = [r for r in self.rounds if r.caller in mine]
            points = sum(r.deltas[s] for r in self.rounds for s in mine)
            out[name] = {
                "first_grabs": len(firsts) / (n * seats[name]),
                "bluff_share": len(bluffs) / len(firsts) if firsts else None,
                "uncalled": (
                    sum(r.caller is None for r in bluffs) / len(bluffs) if bluffs else None
                ),
                "calls": len(calls) / (n * seats[name]),
                "calls_right": (
                    sum(not r.true_set for r in calls) / len(calls) if calls else None
                ),
                "points": points / (n * seats[name]),
            }
        return out

    def seat_edge(self) -> list[float]:
        """Points per round by seat counted clockwise from the start player."""
        totals = [0.0] * self.players
        for r in self.rounds:
            for seat, delta in enumerate(r.deltas):
                totals[(seat - r.start) % self.players] += delta
        return [t / (len(self.rounds) or 1) for t in totals]

    def points(self) -> dict[str, float]:
        """Mean points per round per seat, by difficulty."""
        total: dict[str, float] = defaultdict(float)
        seats: dict[str, int] = defaultdict(int)
        for name in self.bots:
            seats[name] += 1
        for r in self.rounds:
            for seat, delta in enumerate(r.deltas):
                total[self.bots[seat]] += delta
        return {name: total[name] / (seats[name] * len(self.rounds)) for name in seats}

    @property
    def rate(self) -> float:
        return len(self.rounds) / self.seconds if self.seconds else float("inf")


def simulate(
    players: int,
    bots: Sequence[str],
    rounds: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play `rounds` rounds in back-to-back matches (fresh bots for every match)."""
    if len(bots) == 1:
        bots = list(bots) * players
    if len(bots) != players:
        raise ValueError(f"give one difficulty, or one per seat ({players}), not {len(bots)}")
    for name in bots:
        kind, _, base = name.rpartition("@")
        if base not in PLAYERS:
            raise ValueError(f"unknown difficulty {base!r}: choose from {', '.join(PLAYERS)}")
        if kind:
            from foolsgold.exploits import STRATEGIES, is_strategy

            if not is_strategy(kind):
                raise ValueError(
                    f"unknown strategy {kind!r}: choose from {', '.join(STRATEGIES)}"
                )
    rng = random.Random(seed)
    report = Report(players, list(bots))
    clock = 0.0
    match: Match | None = None
    seated: list[Bot] = []
    began = time.perf_counter()
    while len(report.rounds) < rounds:
        if match is None or match.winner is not None:
            if match is not None:
                report.matches += 1
                report.wins[bots[match.winner]] += 1
            match = Match(players, rng.randrange(players))
            seated = [
                seat_bot(seat, bots[seat], random.Random(rng.random())) for seat in range(players)
            ]
        deck = standard_deck(players)
        rng.shuffle(deck)
        match.new_round(deck)
        start = clock
        rnd = match.round
        assert rnd is not None
        clock = play_round(match, seated, rng, clock)
        assert rnd.deltas is not None
        # Hands froze at the first grab, so the grabber's hand is still what it claimed.
        true_set = is_set(rnd.hands[rnd.grabbed[0]])
        report.rounds.append(
            RoundStats(
                clock - start, rnd.grabbed[0], true_set, rnd.caller, list(rnd.deltas), rnd.start
            )
        )
        clock += PAUSE
        if progress is not None:
            progress(1)
    report.seconds = time.perf_counter() - began
    return report


def seat_bot(seat: int, who: str, rng: random.Random) -> Bot:
    """A bot for `who`: a difficulty (``normal``), the scripted person (``human``), or
    an exploit strategy on a difficulty (``instant@normal``, see `foolsgold.exploits`)."""
    if "@" in who:
        from foolsgold.exploits import Strategy

        kind, base = who.split("@", 1)
        return Strategy(seat, kind, base, rng)
    if who.startswith("person"):
        return Bot(seat, person(float(who[6:])), rng)
    return Bot(seat, who, rng)


def describe(report: Report) -> str:
    """The report as the lines the command prints."""
    accuracy = report.call_accuracy
    lines = [
        f"Fool's Gold: {report.players} players, bots {','.join(report.bots)}, "
        f"{len(report.rounds)} rounds",
        f"round length (simulated s): median {report.median:.1f}, p90 {report.p90:.1f}",
        f"first grabs: {report.set_share:.1%} true sets, {1 - report.set_share:.1%} bluffs",
        f"calls: {report.call_rate:.1%} of rounds, "
        + ("none made" if accuracy is None else f"{accuracy:.1%} right"),
    ]
    lines.append(
        f"{'difficulty':<10} {'first grabs':>11} {'bluffs':>7} {'uncalled':>9} "
        f"{'calls':>6} {'right':>6} {'points':>7}"
    )
    for name, row in report.by_difficulty().items():

        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.1%}"

        lines.append(
            f"{name:<10} {pct(row['first_grabs']):>11} {pct(row['bluff_share']):>7} "
            f"{pct(row['uncalled']):>9} {pct(row['calls']):>6} {pct(row['calls_right']):>6} "
            f"{row['points']:>+7.3f}"
        )
    lines.append(
        "(per seat and round: first grabs, calls, points; bluffs: share of its first grabs; "
        "uncalled: share of its bluffs; right: share of its calls)"
    )
    lines.append(
        "seat-order edge, points per round from the start player clockwise: "
        + ", ".join(f"{x:+.3f}" for x in report.seat_edge())
    )
    if len(set(report.bots)) > 1:
        points = report.points()
        lines.append(
            "points per seat per round: "
            + ", ".join(f"{name} {value:+.3f}" for name, value in sorted(points.items()))
        )
        if report.matches:
            lines.append(
                f"matches won ({report.matches}): "
                + ", ".join(f"{name} {report.wins[name]}" for name in sorted(set(report.bots)))
            )
    lines.append(f"speed: {report.rate:.0f} rounds/s ({report.seconds:.2f} s wall)")
    return "\n".join(lines)


def table(rounds: int, seed: int) -> str:
    """The tuning table: normal bots at every player count, as Markdown."""
    rows = [
        "| players | deck | median s | p90 s | bluffs among first grabs | call rate "
        "| calls right |",
        "|---|---|---|---|---|---|---|",
    ]
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        r = simulate(players, ["normal"], rounds, seed)
        acc = r.call_accuracy
        rows.append(
            f"| {players} | {len(standard_deck(players))} | {r.median:.1f} | {r.p90:.1f} "
            f"| {1 - r.set_share:.1%} | {r.call_rate:.1%} | "
            + ("-" if acc is None else f"{acc:.1%}")
            + " |"
        )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m foolsgold.sim",
        description="Bots play Fool's Gold on a virtual clock; prints the round figures.",
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument(
        "--bots",
        default="normal",
        help="one difficulty for every seat, or one per seat: easy,normal,hard,normal",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--table", action="store_true", help="print the tuning table for 2-8 players"
    )
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.rounds, args.seed))
        return 0
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        if args.rounds >= 200:
            from rich.console import Console
            from rich.progress import Progress

            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("simulating", total=args.rounds)
                report = simulate(
                    args.players, bots, args.rounds, args.seed, lambda n: bar.advance(task, n)
                )
        else:
            report = simulate(args.players, bots, args.rounds, args.seed)
    except ValueError as error:
        parser.error(str(error))
    print(describe(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
