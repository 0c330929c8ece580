"""Does the chance to win predict the winner? A reliability bench, clustered by game.

    nice python bench/nuggets_estimate.py [--games 4000] [--seed 2] [--players 3 4 5]
    nice python bench/nuggets_estimate.py --games-from games.jsonl   # saved by
        python -m nuggets.calibrate --save games.jsonl --games 4000 --seed 2

Games of **mixed** bots (each seat drawn from cautious, optimal, thief and shrewd, as
`nuggets.calibrate` plays them; use a seed the shipped table was not built from, so
the check is out of sample). At every turn start (bonus turns included) it records
the chance of the seat to move, two ways:

- ``start``: `nuggets.multi.estimate` (the estimate at a turn start);
- ``turn``: `nuggets.chances.chances(view).roll` (what the advisor panel shows at the
  roll: the turn solved against the estimate);

each as shipped (calibrated by `nuggets/calibration.json`) and raw, against whether
that player won (a shared win counts 1/k). Per band of 0.1 of the prediction it
prints n, the mean prediction, the observed rate with a 95% interval that is
cluster-robust by game (the turn starts of one game are not independent), and
whether the band meets the goal of issue 19: within 3 points of the observed rate
wherever a band holds at least 300 turn starts. Brier scores against two baselines
(1/n and the share of the nuggets held) close each table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

from nuggets import calibrate, multi, turns

GOAL = 0.03
MIN_BAND = 300


def rows(games: list[dict]) -> list[dict]:
    """Per turn start: game index, raw and shipped predictions, share held, won."""
    table = calibrate.load()
    start = turns.turn_graph().start
    out = []
    for g in games:
        k, winners = g["players"], g["winners"]
        for holdings, supply, mover in g["starts"]:
            holdings = tuple(holdings)
            raw_start = multi._shares(holdings, supply, mover)[mover]
            raw_turn = multi._multi_turn(holdings, supply, mover).R[start]
            held = sum(holdings)
            out.append({
                "game": g["index"],
                "k": k,
                "raw start": raw_start,
                "start": table.apply("start", k, raw_start),
                "raw turn": raw_turn,
                "turn": table.apply("turn", k, raw_turn),
                "share": holdings[mover] / held if held else 1 / k,
                "won": 1 / len(winners) if mover in winners else 0.0,
            })
    return out


def clustered(points: list[tuple[int, float]]) -> tuple[float, float, float]:
    """Observed rate of (game, won) points and its 95% interval, cluster-robust by
    game (the ratio estimator's sandwich variance)."""
    by_game: dict[int, list[float]] = {}
    for game, won in points:
        cell = by_game.setdefault(game, [0, 0.0])
        cell[0] += 1
        cell[1] += won
    n = sum(c for c, _ in by_game.values())
    rate = sum(w for _, w in by_game.values()) / n
    g = len(by_game)
    if g < 2:
        return rate, 0.0, 1.0
    var = sum((w - rate * c) ** 2 for c, w in by_game.values()) / n**2 * g / (g - 1)
    half = 1.96 * math.sqrt(var)
    return rate, max(0.0, rate - half), min(1.0, rate + half)


def report(k: int, data: list[dict], kind: str) -> tuple[bool, int]:
    """Print the reliability table of ``kind`` at ``k`` players; (goal met, worst miss
    in points x 10)."""
    bands: list[list[tuple[int, float, float]]] = [[] for _ in range(10)]
    for r in data:
        bands[min(9, int(r[kind] * 10))].append((r["game"], r[kind], r["won"]))
    games = len({r["game"] for r in data})
    print(f"\n{k} players, `{kind}`: {games} games, {len(data)} turn starts")
    print("| predicted | n | mean predicted | observed (95% CI, by game) | gap | goal |")
    print("|---|---|---|---|---|---|")
    met, worst, judged_bands = True, 0.0, 0
    for i, band in enumerate(bands):
        if not band:
            continue
        pred = sum(p for _, p, _ in band) / len(band)
        rate, lo, hi = clustered([(g, w) for g, _, w in band])
        gap = rate - pred
        judged = len(band) >= MIN_BAND
        ok = abs(gap) <= GOAL
        if judged:
            judged_bands += 1
            met &= ok
            worst = max(worst, abs(gap))
        mark = ("yes" if ok else "**no**") if judged else "(n < 300)"
        print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | {len(band)} | {pred:.3f} | {rate:.3f} "
              f"({lo:.3f}-{hi:.3f}) | {gap:+.3f} | {mark} |")
    n = len(data)
    brier = sum((r[kind] - r["won"]) ** 2 for r in data) / n
    raw = sum((r["raw " + kind] - r["won"]) ** 2 for r in data) / n if "raw " + kind in data[0] \
        else float("nan")
    flat = sum((1 / k - r["won"]) ** 2 for r in data) / n
    share = sum((r["share"] - r["won"]) ** 2 for r in data) / n
    print(f"Brier: {kind} {brier:.4f}" + (f", raw {raw:.4f}" if kind in ("start", "turn") else "")
          + f", 1/n {flat:.4f}, share held {share:.4f}; worst gap in a band of >= 300: "
          f"{worst * 100:.1f} points; goal {'met' if met and judged_bands else 'NOT met'}"
          + ("" if judged_bands else " (no band holds 300 turn starts: not judged)"))
    return met and judged_bands > 0, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per table size")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", default=list(calibrate.SIZES))
    parser.add_argument("--games-from", type=Path, nargs="*", default=[])
    parser.add_argument("--raw", action="store_true", help="also print the raw tables")
    parser.add_argument("--bots", default=",".join(calibrate.BOTS),
                        help="the bots each seat is drawn from (default: the mix of the "
                        "calibration); e.g. --bots shrewd for all-shrewd tables")
    args = parser.parse_args()
    began = time.perf_counter()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    by_size: dict[int, list[dict]] = {}
    for path in args.games_from:
        for line in path.read_text().splitlines():
            g = json.loads(line)
            if g["players"] in args.players and g["index"] < args.games:
                by_size.setdefault(g["players"], []).append(g)
    for k in args.players:
        if k not in by_size:
            by_size[k] = calibrate.simulate(k, args.games, args.seed,
                                            bots=args.bots.split(","))
    shipped = json.loads(calibrate.TABLE_PATH.read_text()) if calibrate.TABLE_PATH.exists() \
        else {}
    print(f"calibration table: seed {shipped.get('seed')}, games {shipped.get('games')}; "
          f"bench games: seed {args.seed if not args.games_from else 'from file'}, "
          f"bots {args.bots}")
    verdict = True
    for k in sorted(by_size):
        data = rows(by_size[k])
        kinds = ["start", "turn"] + (["raw start", "raw turn"] if args.raw else [])
        for kind in kinds:
            met, _ = report(k, data, kind)
            if kind in ("start", "turn"):
                verdict &= met
    print(f"\nissue 19 goal (every band of >= {MIN_BAND} within {GOAL * 100:.0f} points, "
          f"shipped chances): {'met' if verdict else 'NOT met'}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
