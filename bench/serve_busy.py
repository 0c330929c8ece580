"""A busy ``motherlode serve`` for walking it by hand (issue 22): the usual server,
plus ``--tables`` in-host tables of six bots playing Fool's Gold matches back to back,
opened before start-up ends (so ``net.gctune.settle`` freezes them as it would a busy
night's). Two people then ssh in and play, and say whether the grabs feel instant.

    .venv/bin/python bench/serve_busy.py --tables 400 -- --game foolsgold --ssh 2222

Everything after ``--`` goes to ``motherlode serve``. Every 10 s it prints the server's
CPU share, the bots' actions a second and its RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import serve.cli  # noqa: E402
from tui.cli import build_parser  # noqa: E402

SEATS = 6


def main() -> int:
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    ours, theirs = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--bots-per-turn", type=float, default=None, metavar="MS",
                        help="the host's cap on bots' timer work per loop turn (net.host."
                             "Turns; default its own, 5 ms)")  # fmt: skip
    args = parser.parse_args(ours)
    serve_args = build_parser().parse_args(["serve", *theirs])
    open_host = serve.cli.open_host

    async def busy_open_host(host_args, prog="motherlode serve"):
        opened = await open_host(host_args, prog)
        if isinstance(opened, int):
            return opened
        host = opened[0].host
        if args.bots_per_turn is not None:
            host.config.bots_per_turn = args.bots_per_turn / 1000
        tables = [host.create_table(f"Bots {n}", "foolsgold", seats=SEATS, bots=SEATS)
                  for n in range(args.tables)]
        for table in tables:
            host.start_game(table)
        asyncio.get_running_loop().create_task(keep_playing(host, tables))
        return opened

    serve.cli.open_host = busy_open_host
    return serve.cli.run(serve_args)


class Passes:
    """The garbage collector's passes (``gc.callbacks``): how long each took."""

    def __init__(self) -> None:
        self.took: list[float] = []
        self._started = 0.0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.took.append(time.perf_counter() - self._started)

    def line(self, wall: float) -> str:
        took, self.took = sorted(self.took), []
        if not took:
            return "no collector passes"
        return (f"{len(took)} collector passes, {sum(took) / wall:.1%} of the time, "
                f"p50 {took[len(took) // 2] * 1e3:.1f} ms, longest {took[-1] * 1e3:.1f} ms")


async def keep_playing(host, tables) -> None:
    """Matches back to back; a line of figures every 10 s."""
    passes = Passes()
    cpu0, wall0 = time.process_time(), time.monotonic()
    seen = {table: table.moves for table in tables}
    actions = 0
    while True:
        await asyncio.sleep(0.5)
        for table in tables:
            moves = table.moves
            actions += moves - seen[table] if moves >= seen[table] else moves
            seen[table] = moves
            if table.phase == "over":
                host.start_game(table)
                seen[table] = table.moves
        if time.monotonic() - wall0 >= 10:
            cpu, wall = time.process_time(), time.monotonic()
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"busy: {len(tables)} tables, CPU {(cpu - cpu0) / (wall - wall0):.0%} of a "
                  f"core, {actions / (wall - wall0):.0f} bot actions/s, "
                  f"peak RSS {rss:.0f} MiB; {passes.line(wall - wall0)}", flush=True)
            cpu0, wall0, actions = cpu, wall, 0


if __name__ == "__main__":
    sys.exit(main())
