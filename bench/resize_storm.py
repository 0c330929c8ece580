"""Window-change storms against another player's chat (issue 56, finding 6).

    python bench/resize_storm.py [--rate 100] [--chats 8] [--runs 2]

A real ``motherlode serve`` on loopback. One player (``vic``) over SSH at 100x30 opens
a table and chats: each round trip is the time from Enter to their own line on their
own screen, through the door, their app and the host. Three more SSH sessions then
change their window between 400x200 and 390x190 ``--rate`` times a second each (their
screens read but not parsed), and ``vic`` chats again; then the storm stops and ``vic``
chats once more. Prints p50 and max of each phase, and each process's share of a core
during the storm. Run it alone on a quiet machine: the figures are times.

The doors give an app at most ``serve.resize.MAX_SIZE`` (240x80): at 400x200 each
storming app redrew 80,000 cells at the coalescing's ceiling (two redraws a second).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.serve.helpers import Player, ServeProcess, children_of  # noqa: E402


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().split()
    except OSError:
        return 0.0
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


async def _chats(vic: Player, n: int, tag: str) -> list[float]:
    out = []
    for i in range(n):
        vic.send(b"c")
        await vic.wait_for("Say something", 20)
        token = f"{tag}{i}x"
        vic.send(token.encode())
        await vic.wait_for(token, 20)
        began = time.monotonic()
        vic.send(b"\r")
        await vic.wait_gone("Say something", 20)
        await vic.wait_for(token, 20)
        out.append((time.monotonic() - began) * 1000)
        await asyncio.sleep(0.3)  # a person's pause between two lines
    return out


def _said(phase: str, times: list[float]) -> str:
    return f"{phase}: p50 {statistics.median(times):.0f} ms, max {max(times):.0f} ms"


async def run(rate: float, chats: int) -> None:
    serve = await ServeProcess.start(Path(tempfile.mkdtemp()), "--game", "nuggets")
    try:
        vic = await Player.connect(serve.ssh_port, "vic", size=(100, 30))
        await vic.wait_for("You play as vic", 30)
        await vic.wait_for("Gold Nuggets at", 30)
        vic.send(b"\r")
        await vic.wait_for("owner: you", 30)
        print(_said("quiet", await _chats(vic, chats, "q")), flush=True)
        mob = [await Player.connect(serve.ssh_port, f"mob{i}") for i in range(3)]
        for player in mob:
            await player.wait_for("You play as", 30)
            player.stream.feed = lambda data: None  # read, not parsed (no cost here)
        stop = asyncio.Event()

        async def storm(player: Player) -> None:
            n = 0
            while not stop.is_set():
                n += 1
                player.proc.change_terminal_size(*((400, 200) if n % 2 else (390, 190)))
                await asyncio.sleep(1 / rate)

        storms = [asyncio.create_task(storm(player)) for player in mob]
        await asyncio.sleep(2)
        kids = children_of(serve.proc.pid)
        kids += [grandchild for kid in kids for grandchild in children_of(kid)]
        before = {pid: _cpu(pid) for pid in [*kids, serve.proc.pid]}
        began = time.monotonic()
        print(_said("storm", await _chats(vic, chats, "s")), flush=True)
        took = time.monotonic() - began
        shares = sorted(round((_cpu(pid) - cpu) / took * 100) for pid, cpu in before.items())
        print(f"  a core's share by process during the storm: {shares} %")
        stop.set()
        await asyncio.gather(*storms)
        await asyncio.sleep(3)
        print(_said("after", await _chats(vic, max(2, chats // 2), "a")), flush=True)
    finally:
        await serve.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--chats", type=int, default=8)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    print(f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    for _ in range(args.runs):
        asyncio.run(run(args.rate, args.chats))


if __name__ == "__main__":
    main()
