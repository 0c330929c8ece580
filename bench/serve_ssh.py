"""Figures of ``motherlode serve``'s SSH door (docs/BENCHMARKS.md, "Zero-install play").

    python bench/serve_ssh.py [--players 6] [--presses 30]

One real ``motherlode serve`` process on loopback with a Fool's Gold table. ``--players``
SSH players and one local player (``motherlode join`` on a pty of this machine, no SSH)
sit at it with a bot, and the game runs: the bot and the host keep every screen busy.
Every player is a terminal program on a pty of its own: the SSH players are OpenSSH's
``ssh`` (what a person runs), each with a key of its own. Then, in the same run, for
each player in turn:

- key to screen: ``?`` is sent and the clock stops when the help's text arrives in the
  player's terminal stream; Esc closes it again. p50 and p95, SSH against local.
- first screen after ssh: connect to the menu's text, for fresh players.
- memory per player: each served app process's proportional set size (PSS: its shared
  pages counted once across the apps), and its RSS for comparison.
- re-attach: a player's ``ssh`` is killed; connecting again with the same key until the
  lobby shows again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pyte

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.helpers import ServeProcess, children_of, pss_mib  # noqa: E402

HELP = "Everywhere"


class Stream:
    """Bytes of one terminal since the last ``mark()``, searchable for text."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.total = 0
        self.changed = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        self.data += data
        if len(self.data) > 4 << 20:
            del self.data[:-4096]
        self.changed.set()

    def mark(self) -> None:
        self.data.clear()

    async def wait(self, text: bytes, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {text!r}")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)


class PtySeat:
    """A terminal program on a pty of this machine: its bytes go to a :class:`Stream`
    (timed) and, while ``screen``, to a pyte screen (read while setting up)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.argv, self.env = argv, env
        self.stream = Stream()
        self.screen = True
        self.pyte = pyte.Screen(100, 30)
        self.parser = pyte.ByteStream(self.pyte)
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.set_blocking(self.master, False)
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=self.env,
            start_new_session=True)
        os.close(slave)
        asyncio.get_running_loop().add_reader(self.master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, OSError):
            return
        self.stream.feed(data)
        if self.screen:
            self.parser.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.pyte.display)

    async def wait_for(self, pattern: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {pattern!r}:\n{self.text}")
            self.stream.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stream.changed.wait(), remaining)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def kill(self) -> None:
        """Cut the line at once (the program dies; its pty goes with it)."""
        asyncio.get_running_loop().remove_reader(self.master)
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        with contextlib.suppress(OSError):
            os.close(self.master)

    async def stop(self) -> None:
        asyncio.get_running_loop().remove_reader(self.master)
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 10)
        with contextlib.suppress(OSError):
            os.close(self.master)


def ssh_argv(port: int, name: str, key: Path) -> list[str]:
    return ["ssh", "-tt", "-p", str(port), "-i", str(key), "-o", "IdentitiesOnly=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", f"{name}@127.0.0.1"]


def local_argv(port: int, name: str) -> list[str]:
    return [sys.executable, "-m", "tui.cli", "join", f"127.0.0.1:{port}", "--name", name]


async def autoplay(seat) -> None:
    """Play as a hurried person does: draw, pass a card on, again (keeps the table busy)."""
    import random

    rng = random.Random(id(seat))
    with contextlib.suppress(OSError, BrokenPipeError):
        while True:
            if seat.playing:
                seat.send(b"d")
            await asyncio.sleep(0.35)
            if seat.playing:
                seat.send(str(rng.randint(1, 6)).encode())
            await asyncio.sleep(0.35)


async def press_help(seat) -> float | None:
    """Seconds from ``?`` to the help's text on the terminal; None if it never came
    (counted as a miss: the help was still open, or a modal had the keys)."""
    seat.playing = False
    await asyncio.sleep(0.4)  # its own last move has landed
    seat.stream.mark()
    start = time.perf_counter()
    seat.send(b"?")
    try:
        await seat.stream.wait(HELP.encode(), timeout=10.0)
        took: float | None = time.perf_counter() - start
    except TimeoutError:
        took = None
    seat.send(b"\x1b")
    await asyncio.sleep(1.0)  # the help closes (a lone Esc waits for a following byte)
    seat.playing = True
    return took


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def main(players: int, presses: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="motherlode-bench-"))
    env = dict(os.environ, MOTHERLODE_DATA_DIR=str(tmp / "data"),
               MOTHERLODE_STATE_DIR=str(tmp / "state"), MOTHERLODE_CONFIG_DIR=str(tmp / "c"))
    os.environ.update(env)
    serve = await ServeProcess.start(tmp / "data", "--game", "foolsgold", "--seats",
                                     str(players + 2), "--bots", "1")
    seats: list[PtySeat] = []
    local = None
    try:
        keys = []
        for i in range(players):
            path = tmp / f"key{i}"
            asyncssh.generate_private_key("ssh-ed25519").write_private_key(path)
            path.chmod(0o600)
            keys.append(path)
        first_screen = []
        for i in range(players):
            start = time.perf_counter()
            seat = PtySeat(ssh_argv(serve.ssh_port, f"p{i}", keys[i]), env)
            await seat.start()
            await seat.wait_for("Tables at this host", 60)
            first_screen.append(time.perf_counter() - start)
            seats.append(seat)
        for seat in seats:
            seat.send(b"\r")  # join the table
            await seat.wait_for(r"\(you\)", 30)
        local = PtySeat(local_argv(serve.game_port, "local"), env)
        await local.start()
        await local.stream.wait(b"local", 60)
        for seat in seats[1:]:
            seat.send(b"r")
        local.send(b"r")
        await asyncio.sleep(1.0)
        seats[0].send(b"s")  # the owner starts: the bot keeps the table busy
        await seats[0].wait_for(r"(?i)draw|hand|round", 30)
        await asyncio.sleep(2.0)
        if os.environ.get("BENCH_SHOW"):
            print(seats[0].text)
        apps = [pid for pid in children_of(serve.proc.pid) if "served" in
                Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]  # fmt: skip
        memory = [(pss_mib(pid), rss_mib(pid)) for pid in apps]
        for seat in seats:
            seat.screen = False
        every = [*seats, local]
        for seat in every:
            seat.playing = True
        players_tasks = [asyncio.create_task(autoplay(seat)) for seat in every]
        ssh_times, local_times = [], []
        before, began = sum(seat.stream.total for seat in seats), time.monotonic()
        misses = 0
        for _ in range(presses):
            for seat in [*seats, local]:
                took = await press_help(seat)
                if took is None:
                    misses += 1
                else:
                    (local_times if seat is local else ssh_times).append(took)
        for task in players_tasks:
            task.cancel()
        spent = time.monotonic() - began
        traffic = (sum(seat.stream.total for seat in seats) - before) / len(seats)
        # re-attach: cut a line (kill ssh), come back with the same key
        reattach = []
        for i in range(min(players, 5)):
            seats[i].kill()
            await asyncio.sleep(0.5)
            start = time.perf_counter()
            back = PtySeat(ssh_argv(serve.ssh_port, f"p{i}", keys[i]), env)
            await back.start()
            await back.wait_for(r"(?i)draw|hand|round|Fool's Gold", 30)
            reattach.append(time.perf_counter() - start)
            seats[i] = back
        ms = lambda v: f"{v * 1000:.0f} ms"  # noqa: E731
        print(f"players: {players} over SSH + 1 local + 1 bot at one Fool's Gold table")
        print(f"key to screen, SSH:   p50 {ms(statistics.median(ssh_times))}, "
              f"p95 {ms(pct(ssh_times, 0.95))}  ({len(ssh_times)} presses)")
        print(f"key to screen, local: p50 {ms(statistics.median(local_times))}, "
              f"p95 {ms(pct(local_times, 0.95))}  ({len(local_times)} presses)")
        print(f"presses without the help in 10 s (a modal had the keys): {misses}")
        print(f"first screen after ssh: median {ms(statistics.median(first_screen))}, "
              f"max {ms(max(first_screen))}")
        if memory:
            pss, rss = [m[0] for m in memory], [m[1] for m in memory]
            print(f"memory per player (served app PSS): median {statistics.median(pss):.1f} "
                  f"MiB, max {max(pss):.1f} MiB ({len(memory)} apps; RSS median "
                  f"{statistics.median(rss):.1f} MiB); serve process PSS "
                  f"{pss_mib(serve.proc.pid):.1f} MiB")
        print(f"the table was busy: {traffic / 1024 / spent:.0f} KiB/s of screen updates "
              "reached each SSH player while timing")
        print(f"re-attach to the lobby/table: median {ms(statistics.median(reattach))}, "
              f"max {ms(max(reattach))}")
    finally:
        for seat in seats:
            with contextlib.suppress(Exception):
                await seat.stop()
        if local is not None:
            await local.stop()
        await serve.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--presses", type=int, default=30)
    options = parser.parse_args()
    asyncio.run(main(options.players, options.presses))
