"""`motherlode host` and `motherlode bot` as real processes on 127.0.0.1."""

import asyncio
import os
import re
import signal
import sys

import pytest

from net import protocol as p
from net.cli import parse_address

from .helpers import Raw

MOTHERLODE = [sys.executable, "-m", "tui.cli"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.168.1.20:7000", ("192.168.1.20", 7000)),
        ("example", ("example", 7777)),
        ("[::1]:8000", ("::1", 8000)),
        ("[fe80::1]", ("fe80::1", 7777)),
        ("fe80::1", ("fe80::1", 7777)),
    ],
)
def test_parse_address(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["host:port", ":7777", "host:99999", "[::1]x"])
def test_parse_address_refuses(text):
    with pytest.raises(ValueError):
        parse_address(text)


async def _line(stream, pattern):
    while True:
        line = (await asyncio.wait_for(stream.readline(), 20)).decode()
        assert line, f"the process ended before printing {pattern!r}"
        if match := re.search(pattern, line):
            return match


async def test_headless_host_prints_addresses_joins_and_says_bye_on_ctrl_c():
    proc = await asyncio.create_subprocess_exec(
        *MOTHERLODE, "host", "--game", "nuggets", "--port", "0", "--bind", "127.0.0.1",
        "--bots", "1", "--name", "CLI \x1b[31mTable", "--no-announce", "--bot-pace", "0.25",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        port = int((await _line(proc.stdout, r"127\.0\.0\.1:(\d+)")).group(1))
        raw = await Raw.open(port)
        welcome = await raw.hello("Ann")
        assert welcome.table.name == "CLI Table"  # cleaned at the host
        assert [s.kind for s in welcome.table.seats] == ["bot", "human"]
        assert welcome.table.settings.bot_pace == 0.25  # --bot-pace
        await _line(proc.stdout, r"Ann joined")
        proc.send_signal(signal.SIGINT)
        bye = await raw.expect(p.Bye)
        assert bye.reason == "shutdown"
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_a_bot_pace_out_of_range_is_refused_saying_the_range(tmp_path):
    proc = await asyncio.create_subprocess_exec(
        *MOTHERLODE, "host", "--game", "nuggets", "--port", "0", "--no-announce",
        "--bot-pace", "11", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "MOTHERLODE_DATA_DIR": str(tmp_path)})  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 2 and b"--bot-pace is 0 to 10 seconds" in err


@pytest.mark.slow
async def test_bot_command_joins_and_plays_over_tcp(make_host):
    host = await make_host()
    table = host.create_table("Saloon", "nuggets", seats=2, bot_pace=0.0, seed="cli")
    watcher = await Raw.open(host.port)
    await watcher.hello("Eve", spectate=True)
    procs = [
        await asyncio.create_subprocess_exec(
            *MOTHERLODE,
            "bot",
            "--connect",
            f"127.0.0.1:{host.port}",
            "--name",
            f"B{i}",
            "--games",
            "1",
            "--difficulty",
            "hard",
            "--pace",
            "0.06",  # under the host's 20 messages a second
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        for i in range(2)
    ]
    try:
        # both bots join, get ready, and the full table starts on its own
        started = await asyncio.wait_for(watcher.expect(p.Started), 30)
        assert sorted(started.players) == ["B0", "B1"]
        over = await asyncio.wait_for(watcher.expect(p.Over), 60)
        assert over.seed == "cli"
        for proc in procs:
            assert await asyncio.wait_for(proc.wait(), 20) == 0
            out = (await proc.stdout.read()).decode()
            assert "seated at 'Saloon'" in out and "game over" in out
        assert table.seats == []  # done, they left and gave their seats up
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def test_bot_command_reports_an_unreachable_host():
    proc = await asyncio.create_subprocess_exec(
        *MOTHERLODE, "bot", "--connect", "127.0.0.1:1",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 1
    assert b"Nothing answers at 127.0.0.1:1: is the host running" in err
    assert b"Errno" not in err and b"Traceback" not in err
