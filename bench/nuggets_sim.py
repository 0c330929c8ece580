"""Gold Nuggets simulation speed: turns per second of the optimal bot (figures for
docs/BENCHMARKS.md).

    .venv/bin/python bench/nuggets_sim.py [games]
"""

import sys

from nuggets.odds import solve
from nuggets.sim import simulate


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


if __name__ == "__main__":
    main()
