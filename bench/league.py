"""What the league costs: rating a finished 8-seat match (the pure openskill step, and
the whole ``ledger.record`` the store's writer thread runs in the game's final commit:
off the host's loop), and the standings over a league of many rated games (one read of
the derived ``ratings`` table).

    .venv/bin/python bench/league.py [--games 100000] [--players 300] [--repeat 200]

Builds the league with ``ledger.record`` itself (seeded: 2-8 seats a game, people and
the three bot levels), in one transaction, in a temporary file. Figures are medians.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net.league import ledger  # noqa: E402
from net.league.ledger import Seat  # noqa: E402
from net.league.rating import Skill, rate  # noqa: E402
from net.league.standings import standings  # noqa: E402


def seats(rng: random.Random, names: list[str], count: int) -> list[Seat]:
    chosen = rng.sample(names, count)
    scores = [rng.randrange(40) for _ in chosen]
    return [Seat(i, who.casefold(), who, not who.startswith("bot:"),
                 1 + sum(o > s for o in scores), 1.0, s == max(scores))
            for i, (who, s) in enumerate(zip(chosen, scores, strict=True))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(60)
    names = [f"Player {i}" for i in range(args.players)] + ["bot:easy", "bot:normal",
                                                              "bot:hard"]
    eight = [Skill(rng.uniform(15, 35), rng.uniform(1, 8)) for _ in range(8)]
    pure = []
    for _ in range(args.repeat):
        began = time.perf_counter()
        rate(eight, list(range(1, 9)))
        pure.append(time.perf_counter() - began)
    with tempfile.TemporaryDirectory() as folder:
        conn = sqlite3.connect(Path(folder) / "league.db", isolation_level=None)
        conn.executescript(ledger.SCHEMA)
        began = time.perf_counter()
        conn.execute("BEGIN")
        for n in range(args.games):
            ledger.record(conn, f"g{n}", "nuggets", float(n),
                          seats(rng, names, rng.randint(2, 8)))  # fmt: skip
        conn.execute("COMMIT")
        built = time.perf_counter() - began
        recorded = []
        for n in range(args.repeat):
            began = time.perf_counter()
            conn.execute("BEGIN")
            ledger.record(conn, f"r{n}", "nuggets", 1e9 + n, seats(rng, names, 8))
            conn.execute("COMMIT")
            recorded.append(time.perf_counter() - began)
        table = []
        for _ in range(max(5, args.repeat // 20)):
            began = time.perf_counter()
            lines = standings(conn, "nuggets")
            table.append(time.perf_counter() - began)
        conn.close()
    ms = 1000
    print(f"rate an 8-seat match (openskill, pure): median {statistics.median(pure) * ms:.2f} ms")
    print(f"record + rate an 8-seat match (writer thread, one commit): median "
          f"{statistics.median(recorded) * ms:.2f} ms, max {max(recorded) * ms:.2f} ms")
    print(f"standings of {len(lines)} players over {args.games} rated games: median "
          f"{statistics.median(table) * ms:.2f} ms (league built in {built:.0f} s)")


if __name__ == "__main__":
    main()
