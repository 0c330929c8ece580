"""Words the game owns cannot be borrowed (issue 56, item 4), and a line too long is
dropped with one line said (item 1): a real host, a real ``join --plain`` process, and
another member speaking raw protocol at the same table.

A name that reads as the game's own words ("Your turn", a look-alike of it, "Race",
one with a colon) is refused by the host with a sentence; a chat line reaches a plain
seat as "Chat from NAME: ...", so whatever it says, no chat line opens as the seat's
own "Your turn:", "Your move:" or "Race:"."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import pytest

from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from tests.net.helpers import Raw
from tests.waiting import until

from .driver import Seat, assert_plain

pytestmark = pytest.mark.timeout(60)

MARKERS = ("Your turn:", "Your move:", "Race:")


@pytest.mark.parametrize("name", [
    "Your turn", "your  turn", "Y\u043eur turn",  # a Cyrillic o
    "YOUR MOVE", "Race", "Refused", "Game over", "Chat from Bob",
    "Ann: roll", "Ann\uff1aroll",  # a fullwidth colon
])
async def test_a_name_that_reads_as_the_games_words_is_refused(name):
    host = Host()
    await host.start("127.0.0.1", 0)
    host.create_table("Camp", "nuggets", seats=3)
    try:
        raw = await Raw.open(host.port)
        await raw.send(p.Hello(protocol=p.PROTOCOL_VERSION, name=name))
        refused = await raw.expect(p.Error)
        assert refused.code == "bad_name", refused
        assert "game's own words" in refused.message or "colon" in refused.message
        raw.close()
        # names that only share letters with them are anyone's
        for fine in ("Racer", "Yourturn", "Tourette"):
            ok = await Raw.open(host.port)
            assert (await ok.hello(fine)).table.name == "Camp"
            ok.close()
    finally:
        await host.close()


@contextlib.asynccontextmanager
async def _ann_at_camp(clock: FakeClock | None = None):
    """A host with a Gold Nuggets table, Camp, and Ann at it by ``join --plain`` (a
    real process), her lines read as they come; yields the host and her seat once her
    lobby line shows. At the end she leaves, the process ends, and it printed no
    traceback."""
    host = Host(clock=clock) if clock is not None else Host()
    await host.start("127.0.0.1", 0)
    host.create_table("Camp", "nuggets", seats=3)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "join", "--plain", f"127.0.0.1:{host.port}",
        "--name", "Ann", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=dict(os.environ))
    seat = Seat(proc.stdout.readline, proc.stdin.write)

    async def read_lines() -> None:
        while await seat.line(60) is not None:
            pass

    reading = asyncio.ensure_future(read_lines())
    try:
        await until(lambda: any(line.startswith("Table Camp") for line in seat.lines),
                    "Ann's lobby line", 30)
        yield host, seat, proc
        seat.send("leave")
        await asyncio.wait_for(proc.wait(), 30)
        await asyncio.wait_for(reading, 10)
    finally:
        if proc.returncode is None:
            proc.kill()
        await host.close()
    assert "Traceback" not in (await proc.stderr.read()).decode()


async def test_chat_is_set_apart_and_never_opens_as_the_seats_own_prompt():
    clock = FakeClock()  # the host's chat budget (a line a second) passes as the test says
    async with _ann_at_camp(clock) as (host, seat, _):
        zed = await Raw.open(host.port)
        await zed.hello("Zed")
        await zed.send(p.Chat(text="ok\nYour turn: roll"))  # a line break of its own
        await until(lambda: "Chat from Zed: ok Your turn: roll" in seat.lines,
                    "the chat line, on one line", 10)
        clock.advance(1.1)  # the host's chat budget: a line a second
        for text in ("Your turn: roll (all seven dice).", "Race: grab now!",
                     "Your move: draw"):
            await zed.send(p.Chat(text=text))
            await until(lambda t=text: f"Chat from Zed: {t}" in seat.lines,
                        f"the chat line {text!r}", 10)
            clock.advance(1.1)  # the host's chat budget: a line a second
        # and Ann's own chat reads the same way
        seat.send("say Your turn: good luck")
        await until(lambda: "Chat from Ann: Your turn: good luck" in seat.lines,
                    "Ann's own chat line", 10)
        assert not [line for line in seat.lines if line.startswith(MARKERS)], seat.lines
        zed.close()
    assert_plain(seat.raw)


async def test_a_line_too_long_is_dropped_with_one_line_said_and_the_seat_reads_on():
    async with _ann_at_camp() as (_, seat, proc):
        before = len(seat.lines)
        proc.stdin.write(b"say " + b"x" * 200_000 + b"\n")  # one line, no end in sight
        seat.send("who")
        await until(lambda: any(line.startswith("seat 1: Ann") for line in seat.lines[before:]),
                    "the answer to who, after the long line", 20)
        said = seat.lines[before:]
        dropped = [line for line in said if line.startswith("A line of more than 1000")]
        assert len(dropped) == 1, said
        assert not [line for line in said if "xxxxxxxxxx" in line], said  # never echoed
