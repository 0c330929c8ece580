"""Done when: through the real host, seeded Gold Nuggets games between a client that
plays the hard policy, one that plays the easy policy (both proving their keys, joined
in-process as solo play joins) and a normal bot: after 150 games the standings order
them hard policy > normal bot > easy policy. Every rated game's ``rated`` reaches both
clients."""

from __future__ import annotations

import asyncio
import os
import random
import tempfile

import pytest

from net.botclient import run_bot
from net.client import Client
from net.clock import FakeClock
from net.host import Host, HostConfig
from net.identity import Identity
from net.league.standings import standings
from net.saves import Store
from tests.hardening.harness import drive

GAMES = int(os.environ.get("LEAGUE_GAMES", "150"))  # fewer only to look at it by hand

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


async def test_150_games_order_hard_then_the_normal_bot_then_easy(tmp_path):
    clock = FakeClock(1.0)
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    folder = tempfile.TemporaryDirectory(dir=base)  # the saves in memory where it can
    store = Store(folder.name, "tables")
    # bots at pace 0 on a clock that stands still while they play would meet the rate
    # limit (20 a second) at every turn, and a dropped move stalls the game: the limit
    # has its own tests (tests/net/test_host_limits.py); here it is out of the way
    host = Host(clock=clock, store=store, config=HostConfig(rate=1e9, burst=1e9))
    await host.start("127.0.0.1", 0)
    rated: dict[str, int] = {"Hardy": 0, "Easton": 0}
    try:
        table = host.create_table("League", "nuggets", seats=3, bots=1, difficulty="normal",
                                  seed="league/0", bot_pace=0.0)
        tasks = []
        for name, policy in (("Hardy", "hard"), ("Easton", "easy")):
            # in-process, as solo play joins: no kernel between them, so a loaded
            # machine's sockets never fall behind the fake clock (over TCP one whole
            # run hung here at load 4)
            client = await Client.local(host, name, table="League", clock=clock,
                                        identity=Identity.generate())
            original = client.recv

            async def recv(original=original, name=name):
                item = await original()
                if type(item).__name__ == "Rated":
                    rated[name] += 1
                return item

            client.recv = recv
            tasks.append(asyncio.create_task(run_bot(
                client, policy, rng=random.Random(f"league/{name}"), pace=0.0, games=GAMES)))

        def reseed(changed) -> None:  # the host's operator seeds each game anew
            if changed is table and table.phase != "playing":
                table.settings.seed = f"league/{table.games_played}"

        host.on_table_update(reseed)
        await drive(clock, lambda: all(t.done() for t in tasks), limit=10_000_000)
        assert [len(t.result()) for t in tasks] == [GAMES, GAMES]
        await store.wait_committed()
        lines = store.league(lambda c: standings(c, "nuggets"))
    finally:
        await host.close()
        store.close()
        folder.cleanup()
    order = [line.name for line in lines]
    print({line.name: (line.rating, line.games, line.wins) for line in lines})
    assert order == ["Hardy", "Normal bot", "Easton"]
    assert all(line.games == GAMES and not line.provisional for line in lines)
    assert lines[0].rating > lines[1].rating > lines[2].rating
    assert rated["Hardy"] >= GAMES - 1 and rated["Easton"] >= GAMES - 1
