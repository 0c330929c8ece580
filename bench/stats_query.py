"""How long the player stats take on a big saves database: 10,000 finished games (a mix
of both games, 2-6 seats, 60 names of people and the bots), their per-seat summary
rows, and optionally moves for each game (``--moves``; the stats never read them).
Times ``Store.stats()`` (everyone), ``Store.stats(NAME)`` (one player), the Replays
list (``Store.kept()``) and the start-up check of the whole file (``Store.check()``).

    .venv/bin/python bench/stats_query.py [--games 10000] [--moves 0] [--tmpfs]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net.saves import Store  # noqa: E402
from net.saves.mapping import UPSERT  # noqa: E402
from net.saves.stats import INSERT, Tally  # noqa: E402


def fill(store: Store, games: int, moves: int, rng: random.Random) -> None:
    names = [f"Player {i}" for i in range(60)]
    entry = json.dumps({"at": 1.0, "by": "player", "action": {"type": "draw", "seat": 1},
                        "events": [{"type": "drew", "seat": 1, "pile": "incoming"}]}).encode()
    for start in range(0, games, 500):

        def batch(conn, start=start) -> None:
            for n in range(start, min(games, start + 500)):
                game = "nuggets" if n % 3 else "foolsgold"
                seats = rng.randint(2, 6 if game == "foolsgold" else 5)
                people = rng.sample(names, rng.randint(1, seats))
                players = people + [f"Bot {i} (bot)" for i in range(seats - len(people))]
                ident = f"game-{n:05d}"
                doc = json.dumps({"id": ident, "players": players}).encode()
                conn.execute(UPSERT, (ident, "tables", "finished", "T", game,
                                       json.dumps(players), moves, 0.0, 1e9 + n, doc))
                tally = Tally(seats)
                for counts in tally.counts.values():
                    counts[:] = [rng.randint(0, 30) for _ in range(seats)]
                kinds = [(p, "human" if i < len(people) else "bot")
                         for i, p in enumerate(players)]
                conn.executemany(INSERT, tally.rows(ident, game, kinds, [rng.randrange(seats)],
                                                    1e9 + n))
                if moves:
                    conn.executemany("INSERT INTO moves (save, n, entry) VALUES (?, ?, ?)",
                                     [(ident, i, entry) for i in range(moves)])

        store._commits.commit(batch)


def timed(call, runs: int = 20) -> tuple[float, float]:
    took = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        took.append(time.perf_counter() - began)
    took.sort()
    return took[len(took) // 2] * 1000, took[-1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=0, help="moves stored per game")
    parser.add_argument("--tmpfs", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir="/dev/shm" if args.tmpfs else None) as directory:
        store = Store(directory)
        began = time.perf_counter()
        fill(store, args.games, args.moves, random.Random(7))
        filled = time.perf_counter() - began
        store.close()
        store = Store(directory)  # a fresh connection: nothing cached in it
        size = sum(f.stat().st_size for f in Path(directory).glob("motherlode.db*"))
        rows = len(store.stats(bots=True))
        print(f"{args.games} finished games, {args.moves} moves each, {rows} player-game "
              f"rows; database {size / 2**20:.1f} MiB (filled in {filled:.1f} s) on "
              f"{'tmpfs' if args.tmpfs else 'disk'}")  # fmt: skip
        for label, call in [
            ("stats, everyone (people)", lambda: store.stats()),
            ("stats, everyone and the bots", lambda: store.stats(bots=True)),
            ("stats, one player", lambda: store.stats("player 7")),
            ("Replays list (300 newest)", lambda: store.kept()),
        ]:
            p50, worst = timed(call)
            print(f"{label:30} p50 {p50:7.2f} ms, max {worst:7.2f} ms (20 runs)")
        p50, worst = timed(store.check, runs=3)
        label = "start-up check (quick_check)"
        print(f"{label:30} p50 {p50:7.2f} ms, max {worst:7.2f} ms (3 runs)")


if __name__ == "__main__":
    main()
