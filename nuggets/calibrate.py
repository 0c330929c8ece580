"""Calibration of the 3-5 player chance to win (`nuggets.multi`), from simulated games.

    python -m nuggets.calibrate --build [--games 1500] [--seed 1]

The estimate built from 2-player duels (docs/ODDS.md) ranks positions well but is
overconfident with more players: a predicted 0.65 at four players won about 0.53.
This module plays games of **mixed** bots (each seat drawn from cautious, optimal,
thief and shrewd), records every turn start, and fits per table size a monotone map
from the raw chance to the observed win rate (isotonic regression, read as a
piecewise-linear curve through fixed knots that keeps 0 at 0 and 1 at 1). Two maps
per size: ``start`` for the estimate at a turn start (`multi.estimate` of the seat to
move) and ``turn`` for the chances the advisor shows while a turn is played
(`chances.chances`, the turn solved against the raw estimate).

The map only relabels the numbers: it is strictly increasing, so every choice made
by comparing chances (the bots', the advisor's) is the one made without it, and the
games the build simulates do not depend on the table (they use the raw chances).
Game ``i`` of size ``k`` draws its bots, start player and dice from
``random.Random(f"nuggets.calibrate:{seed}:{k}:{i}")``, so a build is reproducible
from its seed, and a part of it can be replayed alone (the tests do).

The table (`calibration.json`, a few kilobytes; read by `nuggets.calibration`) records
the seed, the number of games, the knots and a digest of the first games' turn starts.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from nuggets import multi, turns
from nuggets.bots import POLICIES
from nuggets.calibration import FORMAT, KNOTS, TABLE_PATH, Calibration, load
from nuggets.rules import Game, Roll, roll_dice

__all__ = [
    "BOTS",
    "KNOTS",
    "SIZES",
    "Calibration",
    "build",
    "fit",
    "load",
    "play",
    "samples",
]

BOTS = ("cautious", "optimal", "thief", "shrewd")
SIZES = (3, 4, 5)
DIGEST_GAMES = 3  # games per size whose turn starts the table's digest covers

Start = tuple[tuple[int, ...], int, int]  # (holdings, supply, seat to move)


def game_rng(seed: int, players: int, index: int) -> random.Random:
    return random.Random(f"nuggets.calibrate:{seed}:{players}:{index}")


def play(players: int, seed: int, index: int, bots: Sequence[str] = BOTS) -> dict:
    """Game ``index`` of size ``players`` for ``seed``: its bots (each seat drawn from
    ``bots``), turn starts (holdings, supply, seat to move; bonus turns included) and
    winners."""
    rng = game_rng(seed, players, index)
    pool = tuple(bots)
    bots = [rng.choice(pool) for _ in range(players)]
    game = Game([f"p{i}" for i in range(players)], start=rng.randrange(players))
    starts: list[Start] = []
    while not game.over:
        view = game.view(game.current)
        if view["phase"] == "roll":
            starts.append((tuple(game.holdings), game.supply, game.current))
        action = POLICIES[bots[game.current]](view, rng)
        if isinstance(action, Roll) and not action.faces:
            action = Roll(roll_dice(rng, game.dice_left))
        game.apply(action)
    return {"players": players, "index": index, "bots": bots, "starts": starts,
            "winners": sorted(game.winners)}


def digest(games: Iterable[dict]) -> str:
    """A short digest of games' turn starts and winners (to check a replay)."""
    h = hashlib.sha256()
    for g in games:
        h.update(json.dumps([g["players"], g["index"], g["bots"], g["starts"], g["winners"]])
                 .encode())
    return h.hexdigest()[:16]


def samples(games: Iterable[dict], kind: str) -> list[tuple[float, float, int]]:
    """(raw predicted chance of the seat to move, its share of the win, game) at every
    turn start: ``kind`` "start" for `multi.estimate`, "turn" for `chances.chances` at the
    roll (the turn solved)."""
    out = []
    for g in games:
        winners = g["winners"]
        for holdings, supply, mover in g["starts"]:
            holdings = tuple(holdings)
            if kind == "start":
                p = multi._shares(holdings, supply, mover)[mover]
            else:
                p = multi._multi_turn(holdings, supply, mover).R[turns.turn_graph().start]
            won = 1 / len(winners) if mover in winners else 0.0
            out.append((p, won, g["index"]))
    return out


def _pava(xs: Sequence[float], ys: Sequence[float], ws: Sequence[float]) -> list[float]:
    """Isotonic (non-decreasing) least-squares fit of ys at sorted xs, weights ws."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for y, w in zip(ys, ws, strict=True):
        blocks.append([y, w, 1])
        while len(blocks) > 1 and blocks[-2][0] >= blocks[-1][0]:
            y2, w2, n2 = blocks.pop()
            y1, w1, n1 = blocks.pop()
            blocks.append([(y1 * w1 + y2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    out: list[float] = []
    for y, _, n in blocks:
        out += [y] * int(n)
    return out


def fit(points: Sequence[tuple[float, float, int]], bins: int = 40) -> list[float]:
    """The map at `KNOTS` fitted to (raw chance, won) points: isotonic regression on
    bins as wide as the knots' spacing, read at each knot by linear interpolation
    between the bins' mean raw chances, smoothed over three knots, then made
    strictly increasing from 0 (at 0) to 1 (at 1)."""
    count = [0.0] * bins
    won = [0.0] * bins
    raw = [0.0] * bins
    for p, w, _ in points:
        b = min(bins - 1, int(p * bins))
        count[b] += 1
        won[b] += w
        raw[b] += p
    used = [b for b in range(bins) if count[b]]
    xs = [raw[b] / count[b] for b in used]
    fitted = _pava(xs, [won[b] / count[b] for b in used], [count[b] for b in used])
    xs = [0.0, *xs, 1.0]
    fitted = [0.0, *fitted, 1.0]
    knots = []
    for k in KNOTS:
        i = bisect.bisect_left(xs, k)
        if i <= 0:
            knots.append(fitted[0])
        elif i >= len(xs):
            knots.append(fitted[-1])
        else:
            x0, x1 = xs[i - 1], xs[i]
            t = 0.0 if x1 == x0 else (k - x0) / (x1 - x0)
            knots.append(fitted[i - 1] + t * (fitted[i] - fitted[i - 1]))
    knots[0], knots[-1] = 0.0, 1.0
    knots = [knots[0], *((knots[i - 1] + knots[i] + knots[i + 1]) / 3
                         for i in range(1, len(knots) - 1)), knots[-1]]
    # strictly increasing, so that the map keeps every comparison of chances
    step = 1e-4
    for i in range(1, len(knots)):
        knots[i] = max(knots[i], knots[i - 1] + step)
    top = knots[-1]
    if top > 1.0:  # squeeze back under 1, keeping the order
        for i in range(len(knots) - 1, 0, -1):
            knots[i] = min(knots[i], 1.0 - step * (len(knots) - 1 - i))
    knots[-1] = 1.0
    return [round(k, 6) for k in knots]


def simulate(players: int, games: int, seed: int, first: int = 0, progress=None,
             bots: Sequence[str] = BOTS) -> list[dict]:
    out = []
    for i in range(first, first + games):
        out.append(play(players, seed, i, bots))
        if progress is not None:
            progress(players, i)
    return out


def build(games_by_size: dict[int, list[dict]], seed: int) -> dict:
    """The table (as JSON data) fitted to the games."""
    maps: dict[str, dict[str, list[float]]] = {"start": {}, "turn": {}}
    for k, games in sorted(games_by_size.items()):
        for kind in maps:
            maps[kind][str(k)] = fit(samples(games, kind))
    return {
        "format": FORMAT,
        "seed": seed,
        "games": {str(k): len(g) for k, g in sorted(games_by_size.items())},
        "bots": list(BOTS),
        "digest": {str(k): digest(g[:DIGEST_GAMES]) for k, g in sorted(games_by_size.items())},
        "knots": list(KNOTS),
        "maps": maps,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nuggets.calibrate", description=__doc__
                                     .splitlines()[0])
    parser.add_argument("--build", action="store_true", help=f"simulate, fit, write {TABLE_PATH}")
    parser.add_argument("--games", type=int, default=1500, help="games per table size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--save", type=Path, help="simulate only: write the games (JSON lines)")
    parser.add_argument("--first", type=int, default=0, help="with --save: first game index")
    parser.add_argument("--games-from", type=Path, nargs="*", default=[],
                        help="build from saved games (JSON lines) instead of simulating")
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    args = parser.parse_args(argv)
    began = time.perf_counter()

    def progress(k: int, i: int) -> None:
        if (i + 1) % 50 == 0:
            print(f"{k} players: {i + 1} games, {time.perf_counter() - began:.0f} s",
                  file=sys.stderr, flush=True)

    if args.save:
        with args.save.open("w") as f:
            for k in args.players:
                for i in range(args.first, args.first + args.games):
                    f.write(json.dumps(play(k, args.seed, i)) + "\n")
                    f.flush()
                    progress(k, i)
        return 0
    if not args.build:
        parser.print_help()
        return 0
    by_size: dict[int, list[dict]] = {}
    if args.games_from:
        for path in args.games_from:
            for line in path.read_text().splitlines():
                g = json.loads(line)
                by_size.setdefault(g["players"], []).append(g)
        for k, games in by_size.items():
            games.sort(key=lambda g: g["index"])
            if [g["index"] for g in games] != list(range(len(games))):
                raise SystemExit(f"{k} players: the saved games are not 0..{len(games) - 1}")
            if args.games and len(games) > args.games:
                del games[args.games:]
    else:
        for k in args.players:
            by_size[k] = simulate(k, args.games, args.seed, progress=progress)
    table = build(by_size, args.seed)
    args.out.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) from "
          f"{sum(len(g) for g in by_size.values())} games in "
          f"{time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
