"""What a committed change costs the event loop as a game grows: the time of each
``Store.touched`` (the document, the snapshot of the views, the new moves and the
commit into the SQLite saves database), by moves played so far, for one long Fool's
Gold match of bots at the table core (no sockets), saved after every change as the host
does. Also the size of the save's document row, which must stay flat while its moves
grow, and how many checkpoints the background thread ran.

The database goes to a temporary directory on this machine's disk (``--tmpfs`` for
/dev/shm).

    .venv/bin/python bench/persist_saves.py [--seats 8] [--seed long-1] [--tmpfs]
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net.saves import Store  # noqa: E402
from net.saves.db import Checkpointer  # noqa: E402
from net.table import Settings, Table  # noqa: E402
from tests.hardening.harness import percentile  # noqa: E402


def play(directory: Path, seats: int, seed: str):
    """Play the match to the end; returns [(moves so far, seconds in touched)]."""
    store = Store(directory, "solo")
    table = Table("Bench", "foolsgold", Settings(seats=seats, seed=seed, bot_pace=0.5))
    for _ in range(seats):
        table.add_bot()
    samples = []

    def timed(table: Table, now: float) -> None:
        began = time.perf_counter()
        store.touched(table, now)
        samples.append((table.moves, time.perf_counter() - began))

    table.on_change = timed
    now = 0.0
    table.start(now)
    while table.phase == "playing":
        now = table.next_wakeup()
        table.tick(now)
    return samples, table, store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--seed", default="long-1")
    parser.add_argument("--bucket", type=int, default=500, help="moves per row")
    parser.add_argument("--tmpfs", action="store_true")
    args = parser.parse_args()
    base = "/dev/shm" if args.tmpfs else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        began = time.perf_counter()
        samples, table, store = play(Path(directory), args.seats, args.seed)
        wall = time.perf_counter() - began
        (kept,) = store.kept()
        conn = sqlite3.connect(Path(directory) / "motherlode.db")
        doc = conn.execute("SELECT length(doc) FROM saves").fetchone()[0]
        moves = conn.execute("SELECT sum(length(entry)) FROM moves").fetchone()[0]
        conn.close()
        size = sum(f.stat().st_size for f in Path(directory).glob("motherlode.db*"))
    print(f"Fool's Gold, {args.seats} bots, seed {args.seed!r}: {table.moves} moves, "
          f"{table.driver.match.round_no} rounds, {len(samples)} changes committed in "
          f"{wall:.2f} s; database on {'tmpfs' if base else 'disk'}")  # fmt: skip
    print(f"{'moves':>11} | {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    top = max(m for m, _ in samples)
    for low in range(0, top + 1, args.bucket):
        times = [t for m, t in samples if low <= m < low + args.bucket]
        if times:
            print(f"{low:>5}-{low + args.bucket - 1:<5} | {percentile(times, 0.5) * 1000:7.3f} "
                  f"{percentile(times, 0.99) * 1000:7.3f} {max(times) * 1000:7.3f}")
    times = [t for _, t in samples]
    p50, p99 = percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000
    print(f"all changes | {p50:7.3f} {p99:7.3f} {max(times) * 1000:7.3f}")
    print(f"finished game: document {doc / 1024:.1f} KiB, moves {moves / 1024:.0f} KiB, "
          f"database and log files {size / 1024:.0f} KiB; checkpoints run: "
          f"{Checkpointer.get().checkpoints}")


if __name__ == "__main__":
    main()
