"""A host killed outside a game loses no seat: the real `motherlode host` is killed
with SIGKILL in the lobby and again between games, `motherlode host --resume` comes
back, and every old token takes its seat back, with the owner and the settings."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from net import protocol as p
from net import saves as persist
from tests.hardening.harness import line_of, play_until

from .crashes import free_port
from .harness import Raw


class HostCommand:
    """`motherlode host` as a process on 127.0.0.1 with its own data directory."""

    def __init__(self, data, port: int) -> None:
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", "MOTHERLODE_DATA_DIR": str(data)}
        self.port = port
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, *extra: str) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", "host", "--game", "nuggets", "--port",
            str(self.port), "--bind", "127.0.0.1", "--seats", "3", "--no-announce", *extra,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=self.env,
        )  # fmt: skip
        await line_of(self.proc.stdout, rf"127\.0\.0\.1:{self.port}")

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            await self.kill()


async def _seated(port: int, name: str, token: str) -> tuple[Raw, p.Welcome]:
    raw = await Raw.open(port)
    welcome = await raw.hello(name, token=token)
    return raw, welcome


@pytest.mark.timeout(60)
@pytest.mark.slow
async def test_kill_9_in_the_lobby_and_between_games_then_resume_keeps_every_seat(tmp_path):
    host = HostCommand(tmp_path, free_port())
    await host.start()
    try:
        ann = await Raw.open(host.port)
        cy = await Raw.open(host.port)
        bob = await Raw.open(host.port)
        welcomes = {n: await r.hello(n) for n, r in (("Ann", ann), ("Cy", cy), ("Bob", bob))}
        tokens = {n: w.token for n, w in welcomes.items()}
        # the owner sets the table up (Bob, at seat 2, starts); Cy leaves and Bob moves
        # to seat 1
        await ann.send(p.Configure(game={"supply": 5}, first_player=2, grace=60.0))
        await ann.expect(p.TableUpdate, lambda m: m.table.settings.game["supply"] == 5)
        await cy.send(p.Leave())
        await bob.expect(p.Welcome, lambda w: w.seat == 1)
        await bob.send(p.Ready())
        await ann.expect(p.TableUpdate, lambda m: m.table.seats[1].ready)
        # the lobby is saved: kill -9, no goodbye
        await host.kill()
        saves, problems = persist.load_all(persist.Store(tmp_path))
        assert problems == [] and [s.status for s in saves] == ["lobby"]

        await host.start("--resume")
        ann, back_ann = await _seated(host.port, "Ann", tokens["Ann"])
        bob, back_bob = await _seated(host.port, "Bob", tokens["Bob"])
        assert back_ann.resumed and back_bob.resumed
        assert (back_ann.seat, back_bob.seat) == (0, 1)
        info = (await bob.expect(p.TableUpdate)).table
        assert info.phase == "lobby" and info.owner == 0
        assert [s.name for s in info.seats] == ["Ann", "Bob"]
        assert not any(s.ready for s in info.seats)  # everyone comes back not ready
        settings = info.settings
        assert (settings.game["supply"], settings.first_player, settings.grace) == (5, 1, 60.0)
        # Cy gave her seat up: her token is gone for good
        stale = await Raw.open(host.port)
        await stale.send(p.Hello(protocol=3, name="Cy", token=tokens["Cy"]))
        assert (await stale.expect(p.Error)).code == "bad_token"

        # play a game to the end, then kill -9 between games
        await ann.send(p.AddBot())
        await ann.send(p.Ready())
        await bob.send(p.Ready())
        await ann.send(p.Start())
        started = await ann.expect(p.Started)
        assert started.first == 1  # Bob, as the owner chose
        bob_plays = asyncio.create_task(play_until(bob, 1, lambda s: s.view.over))
        await play_until(ann, 0, lambda s: s.view.over)
        await asyncio.wait_for(bob_plays, 20)
        over = await ann.expect(p.Over)
        await ann.expect(p.TableUpdate, lambda m: m.table.phase == "over")
        await host.kill()
        await host.start("--resume")
        ann, back_ann = await _seated(host.port, "Ann", tokens["Ann"])
        bob, back_bob = await _seated(host.port, "Bob", tokens["Bob"])
        assert (back_ann.seat, back_bob.seat) == (0, 1)
        assert back_bob.table.phase == "over"
        assert [s.kind for s in back_bob.table.seats] == ["human", "human", "bot"]
        assert await bob.expect(p.Over) == over  # the result, again, for whoever missed it
        # and the table plays again
        for raw in (ann, bob):
            await raw.send(p.Ready())
        await ann.send(p.Start())
        await bob.expect(p.Started)
    finally:
        await host.stop()
