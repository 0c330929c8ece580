"""kill -9 a real host process at seeded points, measured in write steps and in states
seen, over seeded games of both games: every save is whole each time, the players
reconnect with their tokens, the games finish, and nothing acknowledged is lost.

The host is a subprocess (``tests/hardening/crash_host.py``: ``net.host.Host`` with
saves on); the players are bot clients over TCP on 127.0.0.1. The only waiting on real
time is for processes to come up and for the game's scaled clock. The long version is
``bench/stress_crash.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from pathlib import Path

import pytest

from net import protocol as p
from net import saves as persist
from tests.hardening.harness import line_of, play_until

from .crashes import crash_run, free_port
from .harness import Raw

CASES = [
    # game, seed, kills, humans, bots, speed, mid_commit; Fool's Gold's person is a
    # passer (see crashes.passer), so the real-time match lasts three rounds. With
    # mid_commit, every other kill at a commit step lands inside a transaction whose new
    # moves are written but not committed.
    ("nuggets", 1, 6, 2, 1, 10.0, False),
    ("nuggets", 2, 5, 2, 1, 10.0, True),
    ("foolsgold", 4, 5, 1, 1, 20.0, True),
]


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("game", "seed", "kills", "humans", "bots", "speed", "mid_commit"),
                         CASES)  # fmt: skip
@pytest.mark.slow
async def test_kill_9_at_seeded_points_and_resume(game, seed, kills, humans, bots, speed,
                                                  mid_commit):  # fmt: skip
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        figures = await crash_run(
            Path(directory),
            game=game,
            seed=seed,
            kills=kills,
            humans=humans,
            bots=bots,
            supply=30,
            speed=speed,
            passive=game == "foolsgold",
            timeout=75.0,
            mid_commit=mid_commit,
        )
    assert figures.kills == kills, figures  # every planned kill happened
    assert figures.inner_kills and figures.outer_kills
    assert figures.mid_commit_kills >= mid_commit  # a crash mid-transaction is survived too
    assert figures.saves_checked >= kills
    assert figures.resumes == kills
    assert figures.reconnects == humans  # every player came back by token
    assert figures.states_seen > 0
    assert figures.lost == 0, figures


@pytest.mark.slow
async def test_motherlode_host_resume_after_kill_9(tmp_path):
    """The real command: `motherlode host`, kill -9 mid-game, `motherlode host --resume`;
    both players come back with their tokens to the same position and play on; after a
    Ctrl-C the game is still saved, with every move before it."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "MOTHERLODE_DATA_DIR": str(tmp_path)}
    port = free_port()
    command = [sys.executable, "-m", "tui.cli", "host", "--game", "nuggets", "--port",
               str(port), "--bind", "127.0.0.1", "--seats", "2", "--seed", "cli-crash",
               "--no-announce"]  # fmt: skip

    async def start(*extra: str):
        proc = await asyncio.create_subprocess_exec(
            *command, *extra, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=env,
        )  # fmt: skip
        await line_of(proc.stdout, rf"127\.0\.0\.1:{port}")
        return proc

    proc = await start()
    try:
        ann, bob = await Raw.open(port), await Raw.open(port)
        welcomes = [await ann.hello("Ann"), await bob.hello("Bob")]
        await ann.send(p.Ready())
        await bob.send(p.Ready())
        seats = [w.seat for w in welcomes]
        # play until six moves are on the table, then kill the host without warning
        bob_plays = asyncio.create_task(play_until(bob, seats[1], lambda s: False))
        seen = await play_until(
            ann, seats[0], lambda s: len(s.events) and s.at > 0 and (sum(s.view.holdings) > 0)
        )
        bob.abort()  # his player ends (a cancel can be lost inside wait_for)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(bob_plays, 5)
        proc.kill()
        await proc.wait()
        store = persist.Store(tmp_path)
        saves = store.unfinished()
        assert len(saves) == 1
        saved = store.load(saves[0])
        saved.replay()  # whole, and matches its snapshot
        assert saved.seat_tokens() == {seats[0]: welcomes[0].token, seats[1]: welcomes[1].token}

        proc = await start("--resume")
        ann, bob = await Raw.open(port), await Raw.open(port)
        back = [await ann.hello("Ann", token=welcomes[0].token),
                await bob.hello("Bob", token=welcomes[1].token)]  # fmt: skip
        assert [w.resumed for w in back] == [True, True]
        assert [w.seat for w in back] == seats
        state = await ann.expect(p.State, lambda s: s.seat == seats[0])
        assert state.view.holdings == saved.doc.snapshot.public["holdings"]
        assert sum(state.view.holdings) >= sum(seen.view.holdings)
        # play on for a while, then stop the host cleanly: the game stays resumable
        bob_plays = asyncio.create_task(play_until(bob, seats[1], lambda s: False))
        count = iter(range(10**6))
        await play_until(ann, seats[0], lambda s: next(count) >= 12, first=state)
        bob.abort()  # his player ends (a cancel can be lost inside wait_for)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(bob_plays, 5)
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    later = store.load(saves[0])
    assert later.status == "playing" and len(later.doc.log) > len(saved.doc.log)
    assert later.doc.log[: len(saved.doc.log)] == saved.doc.log  # nothing before was lost
    later.replay()
