"""Make ``tests/saves/legacy/db3/motherlode.db``: a saves database as Motherlode wrote
it at commit b124e5e (saves schema 2, before the league: no ratings, no identities).
Run once, with that commit's code:

    git worktree add /tmp/old b124e5e && cd /tmp/old && \\
        PYTHONPATH=. python <this file> <out dir>

On a fake clock it plays seeded two- and three-seat Gold Nuggets games to their end:
Ann (a network client playing the hard policy) against an easy bot, then against a
hard bot, then Ann and Bob (easy policy) with a normal bot;
and one game left in play then abandoned. The league's backfill rates the finished
games with a person at them, in the order they were played.
"""

import asyncio
import random
import sys
from pathlib import Path

from net.botclient import run_bot
from net.client import Client
from net.clock import FakeClock
from net.host import Host
from net.saves import Store
from tests.hardening.harness import drive


async def _play(host, clock, name, people, *, bots, difficulty, games=1):
    table = host.create_table(name, "nuggets", seats=len(people) + bots, bots=bots,
                              seed=f"db3-{name}", difficulty=difficulty, bot_pace=0.2)
    tasks = []
    for person, policy in people:
        client = await Client.connect("127.0.0.1", host.port, person, table=name, clock=clock)
        rng = random.Random(f"db3/{name}/{person}")
        tasks.append(asyncio.create_task(run_bot(client, policy, rng=rng, pace=0.2,
                                                 games=games)))
    await drive(clock, lambda: all(t.done() for t in tasks))
    return table


async def main(root: Path) -> None:
    clock = FakeClock(10.0)
    store = Store(root, "tables")
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    await _play(host, clock, "One", [("Ann", "hard")], bots=1, difficulty="easy", games=2)
    await _play(host, clock, "Two", [("Ann", "hard")], bots=1, difficulty="hard")
    await _play(host, clock, "Three", [("Ann", "hard"), ("Bob", "easy")], bots=1,
                difficulty="normal")
    left = host.create_table("Left", "nuggets", seats=2, bots=1, seed="db3-left",
                             bot_pace=0.2)
    client = await Client.connect("127.0.0.1", host.port, "Cid", table="Left", clock=clock)
    task = asyncio.create_task(run_bot(client, "easy", rng=random.Random(1), pace=0.2))
    await drive(clock, lambda: left.moves >= 4)
    task.cancel()
    await store.wait_committed()
    store.close_table(left, keep=True)
    await store.wait_committed()
    store.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
