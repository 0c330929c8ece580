"""Gold Nuggets simulation speed: turns per second of the optimal bot (figures for
docs/BENCHMARKS.md).

    .venv/bin/python bench/nuggets_sim.py [games]
"""

import random
import statistics
import sys

from nuggets import Game, Roll, expected_turn, roll_dice
from nuggets.bots import optimal
from nuggets.odds import solve
from nuggets.sim import simulate


def monte_carlo(turns: int = 20000, seed: int = 5) -> None:
    """The optimal bot's mean gain per turn with an endless supply, against E0."""
    rng = random.Random(seed)
    game = Game(["A", "B"], supply=10**9)
    gains, gained = [], 0
    while len(gains) < turns:
        action = optimal(game.view(game.current), rng)
        if isinstance(action, Roll):
            action = Roll(roll_dice(rng, game.dice_left))
        for event in game.apply(action):
            if event["type"] == "took":
                gained += event["amount"]
            elif event["type"] == "turn":
                gains.append(gained)
                gained = 0
    mean = statistics.mean(gains)
    error = statistics.stdev(gains) / len(gains) ** 0.5
    print(
        f"Monte Carlo, optimal bot, {turns} turns, endless supply: {mean:.3f} +- {error:.3f} "
        f"nuggets per turn (exact E0 = {float(expected_turn()):.4f})"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    solve()  # measure play, not the one-off solve
    for bots in (["optimal", "optimal"], ["optimal", "cautious"], ["cautious", "cautious"]):
        r = simulate(bots, games, seed=1)
        turns = r.turns
        segments = turns + sum(b.bonus_turns for b in r.bots)
        print(
            f"{' vs '.join(bots):<20} {games} games in {r.seconds:5.2f} s: "
            f"{games / r.seconds:6.0f} games/s, {turns / r.seconds:6.0f} turns/s "
            f"({segments / r.seconds:6.0f} counting each bonus turn), "
            f"{r.actions / r.seconds:7.0f} actions/s"
        )
    monte_carlo()


if __name__ == "__main__":
    main()
