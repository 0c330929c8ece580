"""Lag-fair races: how often the truly fastest hand wins, arrival order against the
host's corrected order.

Four scripted players sit at a Fool's Gold table, each behind the delay proxy of the
tests (``tests/net/lagproxy.py``) with its own one-way delay (drawn per table from the
setting's range) and a uniform jitter on every message, both ways. In every race
each player presses `g` at a scripted instant, in a random order, with gaps between
consecutive presses drawn from the setting's range. The host probes every connection
as usual (protocol 2) and judges the race; the bench knows the true order, the order
in which the grabs reached the host (arrival order: what a host without correction,
``lag_cap`` 0, judges) and the host's order.

Everything (host, proxies, clients) runs in one process on an asyncio loop in virtual
time, so the figures do not depend on the machine or its load, and a seed gives the
same figures every run.

    .venv/bin/python bench/lagfair.py [--races 1000] [--only NAME]

Columns: the share of races whose true fastest got the first nugget ("winner"), and
whose first three (every nugget) went in the true order ("order"). For the cheat, the
cheater's gain: how much earlier than the truth its grabs counted, at most and on
average, against the cap.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.net.lagproxy import Race, Setting, run_races, run_virtual  # noqa: E402

PLAYERS = 4
TABLES = 20  # each setting's races are spread over this many tables (fresh delays)

# name: (delay range one way, jitter, gap range, cap, cheat hold)
SETTINGS: dict[str, tuple[tuple[float, float], float, tuple[float, float], float, float]] = {
    "lan":              ((0.000, 0.005), 0.002, (0.020, 0.300), 0.15, 0.0),
    "up-to-50ms":       ((0.000, 0.050), 0.005, (0.020, 0.300), 0.15, 0.0),
    "up-to-100ms":      ((0.000, 0.100), 0.010, (0.020, 0.300), 0.15, 0.0),
    "up-to-100ms-gap10": ((0.000, 0.100), 0.010, (0.010, 0.300), 0.15, 0.0),
    "up-to-100ms-jit30": ((0.000, 0.100), 0.030, (0.020, 0.300), 0.15, 0.0),
    "up-to-150ms":      ((0.000, 0.150), 0.010, (0.020, 0.300), 0.15, 0.0),
    "up-to-150ms-gap10": ((0.000, 0.150), 0.015, (0.010, 0.300), 0.15, 0.0),
    "far-200ms-cap150": ((0.000, 0.200), 0.010, (0.020, 0.300), 0.15, 0.0),
    # close races: every gap 20-60 ms (10-60 ms), where arrival order fails most
    "close-50ms":       ((0.000, 0.050), 0.005, (0.020, 0.060), 0.15, 0.0),
    "close-100ms":      ((0.000, 0.100), 0.010, (0.020, 0.060), 0.15, 0.0),
    "close-100ms-gap10": ((0.000, 0.100), 0.010, (0.010, 0.060), 0.15, 0.0),
    "close-150ms":      ((0.000, 0.150), 0.010, (0.020, 0.060), 0.15, 0.0),
    "cheat-300ms":      ((0.000, 0.050), 0.005, (0.020, 0.300), 0.15, 0.3),
    "cheat-300ms-cap50": ((0.000, 0.050), 0.005, (0.020, 0.300), 0.05, 0.3),
    "up-to-100ms-cap0": ((0.000, 0.100), 0.010, (0.020, 0.300), 0.0, 0.0),
}  # fmt: skip


def run_setting(name: str, races: int, seed: int = 1) -> dict[str, float]:
    (low, high), jitter, (gap_min, gap_max), cap, cheat = SETTINGS[name]
    rng = random.Random(f"{name}/{seed}")
    all_races: list[Race] = []
    per_table = -(-races // TABLES)
    cheat_gains: list[float] = []
    honest_gains: list[float] = []
    for _ in range(TABLES):
        n = min(per_table, races - len(all_races))
        if n <= 0:
            break
        delays = [rng.uniform(low, high) for _ in range(PLAYERS)]
        setting = Setting(delays=delays, jitter=jitter, gap_min=gap_min, gap_max=gap_max,
                          lag_cap=cap, cheat={0: cheat} if cheat else {},
                          seed=rng.randrange(1 << 30))  # fmt: skip
        done = run_virtual(run_races(setting, n))
        for race in done:
            for seat, at in race.judged_at.items():
                # how much earlier than the truth the grab counted
                gain = race.presses[seat] - at
                (cheat_gains if cheat and seat == 0 else honest_gains).append(gain)
        all_races += done
    count = len(all_races)
    out = {
        "races": count,
        "winner_arrival": sum(r.winner_right(r.arrival_order()) for r in all_races) / count,
        "winner_fair": sum(r.winner_right(r.judged) for r in all_races) / count,
        "order_arrival": sum(r.order_right(r.arrival_order()) for r in all_races) / count,
        "order_fair": sum(r.order_right(r.judged) for r in all_races) / count,
        "cap": cap,
    }
    if cheat_gains:
        out["cheat_max"] = max(cheat_gains)
        out["cheat_mean"] = sum(cheat_gains) / len(cheat_gains)
    if honest_gains:
        out["honest_max"] = max(abs(g) for g in honest_gains)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=1000, help="races per setting")
    parser.add_argument("--only", choices=sorted(SETTINGS), action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.only or list(SETTINGS)
    print(f"{'setting':<20}{'races':>6}  {'winner: arrival':>15} {'fair':>6}  "
          f"{'order: arrival':>14} {'fair':>6}  notes")  # fmt: skip
    for name in names:
        started = time.perf_counter()
        r = run_setting(name, args.races, args.seed)
        notes = f"honest error at most {r['honest_max'] * 1000:.0f} ms"
        if "cheat_max" in r:
            notes = (f"cheater gains at most {r['cheat_max'] * 1000:.0f} ms, on average "
                     f"{r['cheat_mean'] * 1000:.0f} ms (cap {r['cap'] * 1000:.0f} ms)")  # fmt: skip
        print(f"{name:<20}{r['races']:>6}  {r['winner_arrival']:>14.1%} {r['winner_fair']:>6.1%}  "
              f"{r['order_arrival']:>14.1%} {r['order_fair']:>6.1%}  {notes} "
              f"[{time.perf_counter() - started:.0f} s]", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
