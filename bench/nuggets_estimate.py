"""How well the chance to win predicts who wins: calibration against simulation.

    nice python bench/nuggets_estimate.py [--games 1500] [--seed 1]

Games between `shrewd` bots (who play by these very chances) at 2, 3 and 4 players;
at the start of every turn the mover's predicted chance (`nuggets.duel.estimate`,
exact with 2 players) is recorded, then compared with whether that player won
(a shared win counts 1/k). Prints a calibration table by predicted band and the
Brier score against two baselines: 1/n, and the share of the nuggets held so far.
"""

from __future__ import annotations

import argparse
import random
import time

from nuggets import Game, Roll, roll_dice
from nuggets.bots import shrewd
from nuggets.duel import estimate


def play(players: int, rng: random.Random) -> tuple[list[tuple[float, float, int]], Game]:
    g = Game([f"p{i}" for i in range(players)], start=rng.randrange(players))
    marks: list[tuple[float, float, int]] = []
    while not g.over:
        view = g.view(g.current)
        if view["phase"] == "roll":
            held = sum(g.holdings)
            share = g.holdings[g.current] / held if held else 1 / players
            marks.append((estimate(g.holdings, g.supply, g.current, g.current), share, g.current))
        action = shrewd(view, rng)
        if isinstance(action, Roll):
            action = Roll(roll_dice(rng, g.dice_left))
        g.apply(action)
    return marks, g


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    for players in (2, 3, 4):
        rng = random.Random(args.seed * 10 + players)
        bands = [[0, 0.0, 0.0] for _ in range(10)]  # count, predicted, won
        brier = [0.0, 0.0, 0.0]  # estimate, 1/n, share held
        n = 0
        for _ in range(args.games):
            marks, g = play(players, rng)
            for p, share, seat in marks:
                won = (1 / len(g.winners)) if seat in g.winners else 0.0
                band = bands[min(9, int(p * 10))]
                band[0] += 1
                band[1] += p
                band[2] += won
                brier[0] += (p - won) ** 2
                brier[1] += (1 / players - won) ** 2
                brier[2] += (share - won) ** 2
                n += 1
        print(f"\n{players} players, {args.games} games of shrewd bots, {n} turn starts")
        print("| predicted | turn starts | mean predicted | won |")
        print("|---|---|---|---|")
        for i, (count, pred, won) in enumerate(bands):
            if count:
                print(f"| {i / 10:.1f} - {(i + 1) / 10:.1f} | {count} | {pred / count:.3f} "
                      f"| {won / count:.3f} |")
        print(f"Brier score: chance to win {brier[0] / n:.4f}, 1/n {brier[1] / n:.4f}, "
              f"share held {brier[2] / n:.4f}")
    print(f"\n({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
