"""A busy ``motherlode serve`` (issues 22 and 48): the usual server, plus ``--tables``
in-host tables of six bots playing Fool's Gold matches back to back, opened before
start-up ends (so ``net.gctune.settle`` freezes them as it would a busy night's).

By hand: two people ssh in and play, and say whether the grabs feel instant.

    .venv/bin/python bench/serve_busy.py --tables 400 -- --game foolsgold --ssh 2222

Measured (``--players N``): this script starts the busy server as a process of its own
(``bench/busy_players.py`` drives it), seats N SSH players (asyncssh, a pty and a pyte
screen each) at one table, and times key to every other screen: one player presses
``r`` (ready, then not ready, in turn) and the clock stops when every other player's
screen shows it (their lobby's line of that player), ``--presses`` times. It prints
the p50, p99 and max of that beside the server's own figures over the same time.

    .venv/bin/python bench/serve_busy.py --tables 1000 --players 3 [--presses 200]

Everything after ``--`` goes to ``motherlode serve``. Every 10 s the server prints its
CPU share, the bots' actions a second, its RSS, the collector's passes, the event
loop's lag (p99 and max of a 50 ms sleep's overshoot) and how late the tables' timers
ran (the bots' late p99 and max: ``Host._run`` against the time it was armed for).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import serve.cli  # noqa: E402
from tui.cli import build_parser  # noqa: E402

SEATS = 6


def main() -> int:
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    ours, theirs = argv[:cut], argv[cut + 1:]
    if theirs[:1] == ["serve"]:  # started as a program for ``motherlode serve``'s words
        theirs = theirs[1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--bots-per-turn", type=float, default=None, metavar="MS",
                        help="the host's cap on bots' timer work per loop turn (net.host."
                             "Turns; default its own, 5 ms)")  # fmt: skip
    parser.add_argument("--players", type=int, default=0, metavar="N",
                        help="measure: N SSH players at one table, key to every other "
                        "screen (the server runs as a process of its own)")
    parser.add_argument("--presses", type=int, default=200, metavar="K",
                        help="with --players: keys timed (default 200)")
    args = parser.parse_args(ours)
    if args.tables < 0:
        parser.error("--tables cannot be negative")
    if args.players:
        if args.players < 2:
            parser.error("--players needs at least 2 (one presses, the others see)")
        if args.presses < 1:
            parser.error("--presses must be at least 1")
        from bench.busy_players import measure

        return asyncio.run(measure(args, theirs))
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
        late = time_timers(host)
        loop = asyncio.get_running_loop()
        _tasks.add(loop.create_task(keep_playing(host, tables, late)))
        return opened

    serve.cli.open_host = busy_open_host
    return serve.cli.run(serve_args)


_tasks: set[asyncio.Task] = set()


def time_timers(host: Any) -> list[float]:
    """How late each table's timer runs (``Host._run`` against the time it was armed
    for; a bots' table may wait its turn, ``net.host.Turns``): seconds, appended."""
    late: list[float] = []
    run, now = host._run, host.clock.now

    def timed(table: Any, when: float) -> None:
        late.append(now() - when)
        run(table, when)

    host._run = timed
    return late


class Lag:
    """The event loop's lag: how much later than asked a 50 ms sleep wakes."""

    EVERY = 0.05

    def __init__(self) -> None:
        self.lags: list[float] = []
        _tasks.add(asyncio.get_running_loop().create_task(self._watch()))

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(self.EVERY)
            self.lags.append(loop.time() - started - self.EVERY)


def p99_line(what: str, values: list[float]) -> str:
    """``what p99 X ms (max Y ms)`` of ``values`` (seconds)."""
    if not values:
        return f"{what}: none"
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"{what} p99 {p99 * 1e3:.1f} ms (max {values[-1] * 1e3:.1f} ms)"


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


async def keep_playing(host, tables, late: list[float]) -> None:
    """Matches back to back; a line of figures every 10 s."""
    passes = Passes()
    lag = Lag()
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
                  f"peak RSS {rss:.0f} MiB; {passes.line(wall - wall0)}; "
                  f"{p99_line('loop lag', lag.lags)}; {p99_line('bots late', late)}",
                  flush=True)
            cpu0, wall0, actions = cpu, wall, 0
            lag.lags.clear()
            late.clear()


if __name__ == "__main__":
    sys.exit(main())
