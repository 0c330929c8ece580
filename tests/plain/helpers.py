"""The plain seat as a process: started, read, finished."""

from __future__ import annotations

import asyncio
import os
import sys

import pyte

from tests.plain.driver import Seat, assert_plain


async def process(*args: str, env: dict[str, str] | None = None):
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, **(env or {})},
    )


def seat(proc) -> Seat:
    def write(data: bytes) -> None:
        proc.stdin.write(data)

    return Seat(proc.stdout.readline, write)


async def finish(proc, seat: Seat) -> str:
    await asyncio.wait_for(proc.wait(), 30)
    err = (await proc.stderr.read()).decode()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert_plain(seat.raw)
    assert screen_lines(seat.raw) == [line for line in seat.lines if line.strip()]
    return err


def served(lines: list[str], new: str | None):
    """The served menu's answers: open a table of ``new`` or join the first; then, as
    the owner, a bot, ready, and start."""
    said = {"bot": False}

    def also(line: str) -> str | None:
        if line.startswith("Type a table's number"):
            return f"new {new}" if new else "1"
        if line.startswith("Table ") and "Type ready when you are" in line:
            if not said["bot"] and new is not None:
                said["bot"] = True
                return "bot"
            return "ready"
        if line.startswith("Table ") and "Type start to begin" in line:
            return "start"
        return None

    return also


def screen_lines(raw: bytes) -> list[str]:
    """What a terminal shows of ``raw`` (pyte): the lines, in order, nothing redrawn."""
    screen = pyte.Screen(200, 2000)
    stream = pyte.ByteStream(screen)
    stream.feed(raw.replace(b"\n", b"\r\n"))
    return [line.rstrip() for line in screen.display if line.strip()]
