"""kill -9 a real host over and over, over many seeded games; print the figures.

The long version of ``tests/hardening/test_crash.py`` (same harness:
``tests/hardening/crashes.py``). Each game runs a host process with saves on, kills
it with SIGKILL at seeded points (in write steps, mid-write included, and from outside
after a seeded number of states), checks that every save loads, replays and matches
its snapshot, restarts it with ``--resume``, and at the end checks that the game
finished, its record replays, the players kept their seats (reconnecting by token)
and that no state any client was sent went missing.

    .venv/bin/python bench/stress_crash.py --games 6 --kills 12
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hardening.crashes import crash_run  # noqa: E402

# game, people, bots, speed, passive people (Fool's Gold passers keep a match short)
KINDS = [
    ("nuggets", 2, 1, 10.0, False),
    ("foolsgold", 1, 1, 20.0, True),
    ("nuggets", 3, 2, 10.0, False),
    ("foolsgold", 1, 2, 20.0, False),
]


async def main(args: argparse.Namespace) -> int:
    base = "/dev/shm" if os.path.isdir("/dev/shm") and not args.disk else None
    rows, failures = [], []
    began = time.monotonic()
    for n in range(args.games):
        game, people, bots, speed, passive = KINDS[n % len(KINDS)]
        seed = 100 + n
        with tempfile.TemporaryDirectory(dir=base) as directory:
            start = time.monotonic()
            try:
                figures = await crash_run(
                    Path(directory), game=game, seed=seed, kills=args.kills, humans=people,
                    bots=bots, speed=speed, passive=passive, supply=args.supply,
                    timeout=args.timeout, mid_commit=not args.anywhere,
                )  # fmt: skip
            except Exception as exc:  # a failure is a figure too: count it, say why
                failures.append(f"{game} seed {seed}: {str(exc)[:300]}")
                print(f"game {n + 1}: {game} seed {seed} FAILED: {str(exc)[:300]}", flush=True)
                continue
            seconds = time.monotonic() - start
            rows.append((game, figures, seconds))
            print(
                f"game {n + 1}: {game:9} seed {seed}: {figures.kills} kills "
                f"({figures.inner_kills} at a commit step, {figures.mid_commit_kills} of them "
                f"inside a transaction, {figures.outer_kills} from outside), "
                f"{figures.saves_checked} saves checked, {figures.moves} moves, "
                f"{figures.states_seen} states seen, {figures.lost} lost, {seconds:.1f} s",
                flush=True,
            )
    restarts = [s for _, f, _ in rows for s in f.restart_seconds]
    kills = sum(f.kills for _, f, _ in rows)
    print()
    print(f"games finished      {len(rows)} of {args.games}")
    print(f"kills (SIGKILL)     {kills}: {sum(f.inner_kills for _, f, _ in rows)} at a commit "
          f"step ({sum(f.mid_commit_kills for _, f, _ in rows)} of them inside a transaction), "
          f"{sum(f.outer_kills for _, f, _ in rows)} from outside")  # fmt: skip
    print(f"saves checked       {sum(f.saves_checked for _, f, _ in rows)} (all whole)")
    print(f"resumes             {sum(f.resumes for _, f, _ in rows)}")
    print(f"players back by token {sum(f.reconnects for _, f, _ in rows)}")
    print(f"moves played        {sum(f.moves for _, f, _ in rows)}")
    print(f"states seen         {sum(f.states_seen for _, f, _ in rows)}")
    print(f"states lost         {sum(f.lost for _, f, _ in rows)}")
    if restarts:
        print(f"restart to listening p50 {statistics.median(restarts) * 1000:.0f} ms, "
              f"max {max(restarts) * 1000:.0f} ms (process start, load, replay)")  # fmt: skip
    print(f"failures            {len(failures)}")
    for failure in failures:
        print(f"  {failure}")
    print(f"wall time           {time.monotonic() - began:.0f} s")
    bad = failures or any(f.lost for _, f, _ in rows)
    print("RESULT: FAILURES" if bad else "RESULT: nothing lost")
    return 1 if bad else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--kills", type=int, default=10, help="kills per game")
    parser.add_argument("--supply", type=int, default=40, help="Gold Nuggets supply")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per game")
    parser.add_argument("--disk", action="store_true", help="save to /tmp, not tmpfs")
    parser.add_argument("--anywhere", action="store_true",
                        help="kill at any commit step (default: every other kill inside a "
                        "transaction whose moves are written but not committed)")
    sys.exit(asyncio.run(main(parser.parse_args())))
