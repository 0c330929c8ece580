"""The measured half of ``bench/serve_busy.py --players N``: the busy server as a
process of its own, N SSH players at one table, and key to every other screen (see
``serve_busy``'s docstring)."""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.helpers import Player, ServeProcess  # noqa: E402

MENU = "Tables at this host"
SHOWN_WITHIN = 30.0  # seconds: a key no other screen shows by then is a failed run


class Screen:
    """A player whose screen says when it changed (each chunk its SSH client reads)."""

    def __init__(self, player: Player, name: str) -> None:
        self.player = player
        self.name = name
        self.changed = asyncio.Event()
        feed = player.stream.feed

        def fed(data: bytes) -> None:
            feed(data)
            self.changed.set()

        player.stream.feed = fed

    async def shows(self, pattern: re.Pattern[str]) -> float:
        """Wait until the screen matches; the monotonic time it first did."""
        deadline = time.monotonic() + SHOWN_WITHIN
        while True:
            self.changed.clear()
            if pattern.search(self.player.text):
                return time.monotonic()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}'s screen never showed {pattern.pattern!r}:"
                                     f"\n{self.player.text}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def seat(serve: ServeProcess, n: int) -> Screen:
    """Player ``n`` (from 127.0.0.{n+2}: the door's per-address caps see several
    machines) at the server's own table's lobby."""
    name = f"p{n}"
    player = await Player.connect(serve.ssh_port, name,
                                  asyncssh.generate_private_key("ssh-ed25519"),
                                  size=(100, 30), source=f"127.0.0.{n + 2}")
    await player.wait_for(MENU, 120)
    player.send(b"\r")  # the first table listed: the server's own (--game)
    await player.wait_for(rf"\d\. {name} +not ready +\(you\)", 60)
    return Screen(player, name)


async def measure(args: argparse.Namespace, theirs: list[str]) -> int:
    program = (sys.executable, str(ROOT / "bench" / "serve_busy.py"),
               "--tables", str(args.tables), "--")
    data = Path(tempfile.mkdtemp(prefix="ml-busy-"))
    serve = await ServeProcess.start(
        data, "--game", "foolsgold", "--seats", str(max(args.players, 3)), *theirs,
        timeout=600.0, program=program)  # fmt: skip
    screens: list[Screen] = []
    try:
        await serve.wait_for_line("busy:", 120)  # the bots' first 10 s: started up
        for n in range(args.players):
            screens.append(await seat(serve, n))
        presser, others = screens[-1], screens[:-1]  # the owner never presses: no start
        first_line = len(serve.lines)
        took: list[float] = []
        for press in range(args.presses):
            state = "ready" if press % 2 == 0 else "not ready"
            pattern = re.compile(rf"\d\. {presser.name} +{state}\b")
            started = time.monotonic()
            presser.player.send(b"r")
            seen = await asyncio.gather(*(o.shows(pattern) for o in others))
            took.append(max(seen) - started)
            await asyncio.sleep(0.05)  # spacing, not timing: the host's rate limit
        # the server's 10 s window in which the presses ended, at least
        ended = len(serve.lines)
        deadline = time.monotonic() + 15.0
        while not any("busy:" in line for line in serve.lines[ended:]) \
                and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        busy = [line.strip() for line in serve.lines[first_line:] if "busy:" in line]
    finally:
        for screen in screens:
            await screen.player.close()
        await serve.stop()
    late = [float(m[1]) for line in busy
            if (m := re.search(r"bots late p99 ([\d.]+) ms", line))]
    lag = [float(m[1]) for line in busy
           if (m := re.search(r"loop lag p99 ([\d.]+) ms", line))]
    print(f"key to every other screen, {args.players} SSH players at one table beside "
          f"{args.tables} bot tables: p50 {pct(took, 0.5) * 1e3:.0f} ms, p99 "
          f"{pct(took, 0.99) * 1e3:.0f} ms, max {max(took) * 1e3:.0f} ms "
          f"({len(took)} keys)")
    if late:
        print(f"  beside it, the bots' late p99 (the server's 10 s windows while the keys "
              f"were timed, and the one they ended in): "
              f"median {statistics.median(late):.1f} ms, worst {max(late):.1f} ms; loop "
              f"lag p99 median {statistics.median(lag):.1f} ms, worst {max(lag):.1f} ms")
    else:
        print("  (the server printed no figures while the keys were timed)")
    for line in busy:
        print(f"  server: {line}")
    return 0
