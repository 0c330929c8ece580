"""What a save costs as a game grows: the time of each save (on the event loop) and the
size of the live save file, by moves played so far, for one long Fool's Gold match of
bots at the table core (no sockets), saved after every change as the host does.

Two stores play the same seeded match: the real one (``spill`` 64: earlier entries go
to the history file) and, for comparison, one that never spills (the whole log in every
save, as before the history file). Saves go to a temporary directory on disk
(``--tmpfs`` for /dev/shm).

    .venv/bin/python bench/persist_saves.py [--seats 8] [--seed long-1] [--tmpfs]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net.persist import SPILL, Store  # noqa: E402
from net.table import Settings, Table  # noqa: E402
from tests.hardening.harness import percentile  # noqa: E402


def play(directory: Path, seats: int, seed: str, spill: int):
    """Play the match to the end; returns [(moves so far, save seconds, live bytes)]."""
    store = Store(directory / "tables", directory / "games", spill=spill)
    table = Table("Bench", "foolsgold", Settings(seats=seats, seed=seed, bot_pace=0.5))
    for _ in range(seats):
        table.add_bot()
    samples = []

    def timed(table: Table, now: float) -> None:
        began = time.perf_counter()
        store.touched(table, now)
        took = time.perf_counter() - began
        size = sum(f.stat().st_size for f in (directory / "tables").glob("*.json"))
        samples.append((table.moves, took, size))

    table.on_change = timed
    now = 0.0
    table.start(now)
    while table.phase == "playing":
        now = table.next_wakeup()
        table.tick(now)
    return samples, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--seed", default="long-1")
    parser.add_argument("--bucket", type=int, default=500, help="moves per row")
    parser.add_argument("--tmpfs", action="store_true")
    args = parser.parse_args()
    base = "/dev/shm" if args.tmpfs else None
    runs = {}
    for label, spill in (("history", SPILL), ("whole log", 10**9)):
        with tempfile.TemporaryDirectory(dir=base) as directory:
            samples, table = play(Path(directory), args.seats, args.seed, spill)
            archive = next((Path(directory) / "games").glob("*.json"))
            runs[label] = (samples, archive.stat().st_size)
    print(
        f"Fool's Gold, {args.seats} bots, seed {args.seed!r}: {table.moves} moves, "
        f"{table.driver.match.round_no} rounds; saves on {'tmpfs' if base else 'disk'}"
    )
    print(f"{'moves':>11} | {'history: p50 ms':>15} {'p99 ms':>7} {'save KiB':>8} | "
          f"{'whole log: p50 ms':>17} {'p99 ms':>7} {'save KiB':>8}")  # fmt: skip
    top = max(m for m, _, _ in runs["history"][0])
    for low in range(0, top + 1, args.bucket):
        cells = []
        for label in ("history", "whole log"):
            rows = [(t, s) for m, t, s in runs[label][0] if low <= m < low + args.bucket]
            if not rows:
                cells.append(None)
                continue
            times = [t for t, _ in rows]
            cells.append(
                (percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000,
                 max(s for _, s in rows) / 1024)
            )  # fmt: skip
        if None in cells:
            continue
        (a50, a99, asz), (b50, b99, bsz) = cells
        print(f"{low:>5}-{low + args.bucket - 1:<5} | {a50:15.2f} {a99:7.2f} {asz:8.0f} | "
              f"{b50:17.2f} {b99:7.2f} {bsz:8.0f}")  # fmt: skip
    for label, (samples, archive) in runs.items():
        print(f"{label}: {len(samples)} saves, archive {archive / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
