"""A real host process for the crash tests: ``python -m tests.hardening.crash_host``.

It serves one table over TCP with saves on, and can kill itself with SIGKILL at the
N-th step of its commits (``--kill-at``), so a test picks crash points deterministically
in actions, not in time: a kill inside a transaction whose rows are written but not
committed ("written", or "moves written" when it holds new moves), or right after a
commit ("committed"); or (``--kill-stage``) at the N-th step of one name. The name of
the step it died at is appended to ``<dir>/kills.txt``. With ``--resume`` it restores
every unfinished table of the directory instead. It prints ``READY <port>`` once it
listens (or ``REFUSED <reason>`` and exits 3 when a save does not restore).

Time runs ``--speed`` times faster than the wall clock (a scaled real clock), so the
bots' pace and the time-outs of a real-time game pass quickly; the clients in the test
use the same speed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from collections.abc import Callable

from net import saves as persist
from net.catalogue import spec
from net.host import Host


class ScaledClock:
    """The event loop's clock, ``speed`` times faster, starting at ``start``."""

    def __init__(self, speed: float = 1.0, start: float = 0.0) -> None:
        self._loop = asyncio.get_running_loop()
        self.speed = speed
        self._epoch = self._loop.time() - start / speed

    def now(self) -> float:
        return (self._loop.time() - self._epoch) * self.speed

    def call_at(self, when: float, callback: Callable[..., object], *args: object):
        return self._loop.call_at(self._epoch + when / self.speed, callback, *args)

    async def sleep_until(self, when: float) -> None:
        delay = (when - self.now()) / self.speed
        if delay > 0:  # the clock's own sleep: what a host waiting on this clock waits on
            await asyncio.sleep(delay)


class KillingStore(persist.Store):
    """A store that SIGKILLs its own process at the ``kill_at``-th write step."""

    def __init__(self, *args, kill_at: int = 0, kill_stage: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.kill_at = kill_at
        self.kill_stage = kill_stage
        self.steps = 0

    def _stage(self, name: str) -> None:
        if self.kill_stage and name != self.kill_stage:
            return
        self.steps += 1
        if self.steps == self.kill_at:
            with open(self.root / "kills.txt", "a") as out:
                out.write(name + "\n")
            os.kill(os.getpid(), signal.SIGKILL)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--game", default="nuggets")
    parser.add_argument("--seed", default="crash")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--humans", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1)
    parser.add_argument("--supply", type=int, default=77)
    parser.add_argument("--kill-at", type=int, default=0)
    parser.add_argument("--kill-stage", default="")
    parser.add_argument("--resume", action="store_true")
    return parser


async def main(args: argparse.Namespace) -> int:
    store = KillingStore(args.dir, "tables", kill_at=args.kill_at, kill_stage=args.kill_stage)
    saves: list[persist.Saved] = []
    if args.resume:
        saves, problems = persist.load_all(store)
        if problems:
            print("REFUSED", " | ".join(problems), flush=True)
            return 3
    clock = ScaledClock(args.speed, persist.resume_time(saves))
    host = Host(clock=clock, store=store)
    for saved in saves:
        try:
            host.restore(saved)
        except persist.SaveError as exc:
            print("REFUSED", exc, flush=True)
            return 3
    if not args.resume:
        own = {k: v for k, v in {"intermission": 1.0, "supply": args.supply}.items()
               if k in spec(args.game).defaults}  # the game's own settings, where it has them
        host.create_table(
            "crash", args.game, seats=args.humans + args.bots, bots=args.bots, seed=args.seed,
            bot_pace=0.3, grace=600.0, **own,
        )  # fmt: skip
    await host.start("127.0.0.1", args.port)
    print("READY", host.port, flush=True)
    await asyncio.Event().wait()  # until killed
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(_parser().parse_args())))
