"""Play Gold Nuggets between bots, many times, and report how they fare.

    python -m nuggets.sim --bots optimal,cautious --games 10000 --seed 1
    python -m nuggets.sim --bots easy,normal,hard,normal --games 2000 --seed 1

Bots are policies (cautious, optimal, thief, shrewd) or difficulties (easy, normal,
hard: `nuggets.bots.DIFFICULTIES`). Per bot it prints the win rate with its 95%
interval, nuggets per turn, bust rate and steals per game, then the seat-order edge:
wins by place in the turn order.

Seats rotate from game to game (game ``g`` seats bot ``i`` at ``(i + g) % k`` and
seat 0 starts), so every bot starts equally often. A game shared by several
winners counts a fraction of a win for each. The same seed gives the same games.

Beyond the standard library it uses `rich` (a progress bar on a terminal), which the
game installs anyway; the rules modules themselves use the standard library only.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from nuggets.bots import DIFFICULTIES, POLICIES, Policy, policy
from nuggets.rules import MAX_PLAYERS, MIN_PLAYERS, STARTING_SUPPLY, Game, Roll, roll_dice

__all__ = ["BotStats", "Results", "main", "play_game", "simulate", "wilson"]

# A game between sane policies takes a few hundred actions; this guards against a
# policy that never takes anything from the supply.
MAX_ACTIONS = 100_000


@dataclass
class BotStats:
    """What one bot (by its place in the list) did over all games."""

    name: str
    wins: float = 0.0  # shared wins count 1/k
    turns: int = 0  # a turn includes the bonus turns it chains on (N8)
    bonus_turns: int = 0
    busts: int = 0  # turns that ended in a bust
    gained: int = 0  # nuggets taken or stolen
    steals: int = 0  # takes from an opponent

    @property
    def nuggets_per_turn(self) -> float:
        return self.gained / self.turns if self.turns else 0.0

    @property
    def bust_rate(self) -> float:
        return self.busts / self.turns if self.turns else 0.0


@dataclass
class Results:
    games: int
    bots: list[BotStats]
    seconds: float = 0.0
    ties: int = 0
    actions: int = 0
    final: list[list[int]] = field(default_factory=list)  # holdings by bot index, per game
    # wins by place in the turn order (0: the first player), shared wins split
    seat_wins: list[float] = field(default_factory=list)

    @property
    def turns(self) -> int:
        return sum(b.turns for b in self.bots)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a rate."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(
    policies: Sequence[Policy],
    rng: random.Random,
    supply: int = STARTING_SUPPLY,
    start: int = 0,
    stats: Sequence[BotStats] | None = None,
) -> tuple[Game, int]:
    """Play one game, seat ``i`` played by ``policies[i]``; dice and the bots'
    choices both draw from ``rng``. Returns the finished game and the number of
    actions; adds to ``stats`` (by seat) when given."""
    game = Game([f"seat {i}" for i in range(len(policies))], supply=supply, start=start)
    actions = 0
    bonus = False
    while not game.over:
        seat = game.current
        if stats is not None and game.phase == "roll":
            if bonus:
                stats[seat].bonus_turns += 1
            else:
                stats[seat].turns += 1
        action = policies[seat](game.view(seat), rng)
        if isinstance(action, Roll) and not action.faces:
            action = Roll(roll_dice(rng, game.dice_left))
        bonus = False
        for event in game.apply(action):
            kind = event["type"]
            if kind == "bonus_turn":
                bonus = True
            elif stats is None:
                continue
            elif kind == "bust":
                stats[event["seat"]].busts += 1
            elif kind in ("took", "stole"):
                stats[event["seat"]].gained += event["amount"]
                if kind == "stole":
                    stats[event["seat"]].steals += 1
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"no end after {MAX_ACTIONS} actions: {game!r}")
    return game, actions


def simulate(
    names: Sequence[str],
    games: int,
    seed: int,
    supply: int = STARTING_SUPPLY,
    on_game=None,
) -> Results:
    """Play ``games`` games between the bots ``names`` (keys of POLICIES, or
    difficulties: keys of DIFFICULTIES) with
    rotating seats. ``on_game(done)`` is called after each game."""
    k = len(names)
    if not MIN_PLAYERS <= k <= MAX_PLAYERS:
        raise ValueError(f"Gold Nuggets is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {k}")
    for name in names:
        policy(name)  # raises ValueError naming an unknown bot
    rng = random.Random(seed)
    results = Results(games=games, bots=[BotStats(n) for n in names], seat_wins=[0.0] * k)
    began = time.perf_counter()
    for g in range(games):
        bot_at = [(seat - g) % k for seat in range(k)]  # seat -> bot index
        seat_stats = [results.bots[b] for b in bot_at]
        game, actions = play_game(
            [policy(names[b]) for b in bot_at], rng, supply=supply, stats=seat_stats
        )
        results.actions += actions
        share = 1 / len(game.winners)
        results.ties += len(game.winners) > 1
        for seat in game.winners:
            seat_stats[seat].wins += share
            results.seat_wins[seat] += share
        by_bot = [0] * k
        for seat, b in enumerate(bot_at):
            by_bot[b] = game.holdings[seat]
        results.final.append(by_bot)
        if on_game is not None:
            on_game(g + 1)
    results.seconds = time.perf_counter() - began
    return results


def report(results: Results) -> str:
    """The results as a plain-text table."""
    n = results.games
    width = max(len(b.name) for b in results.bots) + 4
    lines = [
        f"{'bot':<{width}} {'win rate':>9} {'95% interval':>17} "
        f"{'nuggets/turn':>13} {'bust rate':>10} {'steals/game':>12}"
    ]
    for i, b in enumerate(results.bots):
        low, high = wilson(b.wins, n)
        label = f"{i + 1}. {b.name}"
        lines.append(
            f"{label:<{width}} {b.wins / n:>9.1%} {f'{low:.1%} - {high:.1%}':>17} "
            f"{b.nuggets_per_turn:>13.3f} {b.bust_rate:>10.1%} {b.steals / n:>12.2f}"
        )
    edge = []
    for place, won in enumerate(results.seat_wins):
        low, high = wilson(won, n)
        edge.append(f"{_ordinal(place + 1)} {won / n:.1%} ({low:.1%} - {high:.1%})")
    lines.append("seat-order edge, wins by place in the turn order: " + ", ".join(edge))
    rate = n / results.seconds if results.seconds else float("inf")
    turns = results.turns / results.seconds if results.seconds else float("inf")
    lines.append(
        "(a turn includes the bonus turns it earns; bust rate: share of turns ending in a bust)"
    )
    lines.append(
        f"{n} games ({results.ties} shared wins), {results.turns} turns in "
        f"{results.seconds:.2f} s: {rate:,.0f} games/s, {turns:,.0f} turns/s"
    )
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nuggets.sim", description="Play Gold Nuggets between bots."
    )
    parser.add_argument(
        "--bots",
        default="optimal,cautious",
        help="2 to 5 comma-separated bots, seated in turn; choose from "
        f"{', '.join([*DIFFICULTIES, *POLICIES])}",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--supply", type=int, default=STARTING_SUPPLY, help="nuggets in the supply (default 77)"
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if args.games <= 0:
        parser.error("--games must be positive")
    if args.supply <= 0:
        parser.error("--supply must be positive")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        parser.error(f"--bots needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, got {len(names)}")
    for name in names:
        try:
            policy(name)
        except ValueError as error:
            parser.error(str(error))

    progress = _Progress(args.games)
    try:
        results = simulate(names, args.games, args.seed, args.supply, on_game=progress.update)
    except KeyboardInterrupt:
        progress.stop()
        print("interrupted", file=sys.stderr)
        return 130
    progress.stop()
    print(f"Gold Nuggets: {', '.join(names)}; {args.games} games, seed {args.seed}")
    print(report(results))
    return 0


class _Progress:
    """A transient rich progress bar on a terminal, shown once the run has taken
    more than half a second (short runs print nothing extra)."""

    DELAY = 0.5

    def __init__(self, total: int) -> None:
        self.total = total
        self.began = time.perf_counter()
        self.bar = None
        self.task = None
        self.terminal = sys.stdout.isatty()

    def update(self, done: int) -> None:
        if not self.terminal or done % 25:
            return
        if self.bar is None:
            if time.perf_counter() - self.began < self.DELAY:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("playing"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("games", total=self.total)
        self.bar.update(self.task, completed=done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


if __name__ == "__main__":
    sys.exit(main())
