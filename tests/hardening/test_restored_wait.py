"""kill -9 a real Fool's Gold host mid-round and `--resume` it: nothing happens in the
game until its players are back. The host is ``tests/hardening/crash_host.py`` (saves
on, grace 600 s, a bot at the table, a clock 10 times faster than the wall's); the two
people are scripted passers over TCP on 127.0.0.1 (``crashes.passer``: they pass
cards and never grab), and come back by token when the test says so."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

import pytest

from net import protocol as p
from net.client import Client
from net.games.foolsgold import moves as fm

from .crashes import _start_host, free_port, passer, saved_moves
from .harness import Raw

SPEED = 10.0


async def _within(awaitable, what: str, seconds: float = 15.0):
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except TimeoutError:
        raise AssertionError(f"no {what} within {seconds} s") from None


@pytest.mark.timeout(60)
@pytest.mark.slow
async def test_kill_9_mid_round_and_resume_waits_for_the_players():
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as name:
        directory = Path(name)
        port = free_port()
        options = {"game": "foolsgold", "seed": "wait", "speed": SPEED, "humans": 2, "bots": 1}
        host = await _start_host(directory, port, resume=False, kill_at=(0, ""), options=options)
        tasks: list[asyncio.Task] = []
        try:
            people = [
                await Client.connect("127.0.0.1", port, name, reconnect=False, timeout=5.0)
                for name in ("Ann", "Bob")
            ]
            tokens = [c.welcome.token for c in people]
            seats = [c.seat for c in people]
            tasks = [asyncio.create_task(passer(c)) for c in people]
            watcher = await Raw.open(port)
            await watcher.hello("watch", spectate=True)
            # the round runs: cards pass, the bot plays, the host applies time-outs
            for _ in range(6):
                await _within(watcher.expect(p.State, lambda s: s.events), "state")
            host.proc.kill()
            await host.proc.wait()
            await asyncio.gather(*tasks, return_exceptions=True)
            moves = saved_moves(directory)
            assert moves >= 6

            host = await _start_host(
                directory, port, resume=True, kill_at=(0, ""), options=options
            )
            # 20 s of the host's time with nobody back: no move, no time-out (the time is
            # what is tested: nothing happens however long, here 20 s of the host's clock)
            await asyncio.sleep(20 / SPEED)
            assert saved_moves(directory) == moves
            # Ann is back: she sees whom the game waits for, and cannot play yet
            ann = await Raw.open(port)
            back = await _within(ann.hello("Ann", token=tokens[0]), "welcome")
            assert back.resumed and back.table.waiting == [seats[1]]
            assert 0 < back.table.wait_left <= 600.0 - 20
            await ann.send(fm.GRAB())
            error = await _within(ann.expect(p.Error), "refusal")
            assert error.code == "waiting" and "Bob" in error.message
            # 10 s more of the host's time with Bob still away: the time is what is tested
            await asyncio.sleep(10 / SPEED)
            assert saved_moves(directory) == moves
            # Bob is back too: the game goes on from where it stood
            bob = await Raw.open(port)
            await _within(bob.hello("Bob", token=tokens[1]), "welcome")
            update = await _within(ann.expect(p.TableUpdate, lambda m: not m.table.waiting), "go")
            assert update.table.wait_left is None
            ann.close()
            bob.close()
            people = [
                await Client.connect("127.0.0.1", port, name, token=token, reconnect=False)
                for name, token in (("Ann", tokens[0]), ("Bob", tokens[1]))
            ]
            tasks = [asyncio.create_task(passer(c)) for c in people]
            watcher = await Raw.open(port)
            await watcher.hello("watch", spectate=True)
            await _within(watcher.expect(p.State, lambda s: s.events), "a move after the wait")
            assert saved_moves(directory) > moves
        finally:
            for task in tasks:
                task.cancel()
            if host.proc.returncode is None:
                host.proc.kill()
                await host.proc.wait()
