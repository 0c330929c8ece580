"""Gold Nuggets: how honest the 3-5 player chance to win is on each kind of table
(issue 44), and the calibration maps worth shipping.

    python bench/nuggets_calibration.py [--fit 1000] [--held 1000] [--write]

A table knows its bots' levels (`nuggets.calibration.table_kind`): "mixed" (seats
drawn from cautious, optimal, thief and shrewd: what `nuggets.calibrate` fits the
shipped maps to) or "strong" (every seat shrewd, the hard bot: a table where a person
who plays well sits). For each kind and size (3, 4, 5 players) it plays `--held`
held-out games (`nuggets.calibrate.play`, seed 2: games no map was fitted on) and
scores the mover's chance at every turn start (`nuggets.multi.estimate`'s raw share, "start";
the turn solved, "turn") against its share of the win:

- ECE: expected calibration error in points, over 10 bins of the chance (the bin's
  share of the samples times |mean chance - observed win share|);
- raw: before any map; shipped: through the map in `nuggets/calibration.json` for
  that kind; fitted: the strong tables' map fitted here on `--fit` games of seed 1.

A map ships (with ``--write``) only for a kind and size where it beats raw on the
held-out games. Prints Markdown (and the reliability diagrams) for docs/ODDS.md.
Samples within a game are correlated (a game gives 20-60 turn starts), so the games,
not the samples, are the sample size.
"""

from __future__ import annotations

import argparse
import json
import time

from nuggets import calibration
from nuggets.calibrate import BOTS, SIZES, fit, samples, simulate
from nuggets.calibration import TABLE_PATH, Calibration, map_key

KINDS = {"mixed": BOTS, "strong": ("shrewd",)}
BINS = 10


def reliability(points, mapped) -> list[tuple[int, float, float]]:
    """Per bin of the shown chance: (samples, mean shown chance, observed win share)."""
    n = [0] * BINS
    p_sum = [0.0] * BINS
    w_sum = [0.0] * BINS
    for p, won, _ in points:
        q = mapped(p)
        b = min(BINS - 1, int(q * BINS))
        n[b] += 1
        p_sum[b] += q
        w_sum[b] += won
    return [(n[b], p_sum[b] / n[b] if n[b] else 0.0, w_sum[b] / n[b] if n[b] else 0.0)
            for b in range(BINS)]


def through(cal: Calibration, key: str, players: int):
    """The map ``key`` of ``cal`` at ``players``, as a function of the raw chance."""
    return lambda p: cal.apply(key, players, p)


def ece(points, mapped) -> float:
    rows = reliability(points, mapped)
    total = sum(r[0] for r in rows)
    return 100 * sum(r[0] * abs(r[1] - r[2]) for r in rows) / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=int, default=1000, help="strong games a size to fit on")
    parser.add_argument("--held", type=int, default=1000, help="held-out games a size and kind")
    parser.add_argument("--write", action="store_true", help=f"write the maps into {TABLE_PATH}")
    args = parser.parse_args()
    began = time.perf_counter()
    shipped = calibration.load()
    data = json.loads(TABLE_PATH.read_text())
    maps = data["maps"]
    rows, diagrams = [], []
    for kind, pool in KINDS.items():
        for k in SIZES:
            held = simulate(k, args.held, 2, bots=pool)
            fitted: dict[str, list[float]] = {}
            if kind == "strong":
                train = simulate(k, args.fit, 1, bots=pool)
                fitted = {which: fit(samples(train, which)) for which in ("start", "turn")}
            for which in ("start", "turn"):
                points = samples(held, which)
                key = map_key(which, kind)
                raw = ece(points, lambda p: p)
                mixed_map = ece(points, through(shipped, which, k))
                candidate = fitted.get(which) or maps.get(key, {}).get(str(k))
                mine = Calibration({key: {k: candidate}}) if candidate else None
                mapped = ece(points, through(mine, key, k)) if mine else None
                ships = mapped is not None and mapped < raw
                if args.write:
                    if ships:
                        maps.setdefault(key, {})[str(k)] = candidate
                    else:
                        maps.get(key, {}).pop(str(k), None)
                rows.append((kind, k, which, len(held), len(points), raw, mixed_map, mapped,
                             ships))
                if which == "start":
                    shown = through(mine, key, k) if ships and mine else (lambda p: p)
                    diagrams.append((kind, k, "map" if ships else "raw",
                                     reliability(points, shown)))
            print(f"  ({kind}, {k} players: {time.perf_counter() - began:.0f} s)", flush=True)
    print("\n| table | players | chance | held-out games | turn starts | ECE raw "
          "| ECE through the mixed tables' map | ECE through its own map | ships |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, k, which, games, n, raw, mixed_map, mapped, ships in rows:
        own = "-" if mapped is None else f"{mapped:.2f}"
        print(f"| {kind} | {k} | {which} | {games} | {n} | {raw:.2f} | {mixed_map:.2f} "
              f"| {own} | {'yes' if ships else 'no (raw)'} |")
    for kind, k, shown, rel in diagrams:
        print(f"\n**{kind} tables, {k} players** (the chance shown: {shown}; start of turn)\n")
        print("| shown chance | turn starts | mean shown | won |")
        print("|---|---|---|---|")
        for b, (n, p, w) in enumerate(rel):
            if n:
                print(f"| {b / BINS:.1f}-{(b + 1) / BINS:.1f} | {n} | {p:.3f} | {w:.3f} |")
    if args.write:
        data["kinds"] = {"strong": {"bots": list(KINDS["strong"]), "seed": 1,
                                    "games": {str(k): args.fit for k in SIZES},
                                    "held_out": {"seed": 2, "games": args.held}}}
        TABLE_PATH.write_text(json.dumps(data, indent=1) + "\n")
        print(f"\nwrote {TABLE_PATH}")
    print(f"\n({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
