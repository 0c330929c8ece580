"""Make ``tests/saves/legacy/db1/motherlode.db``: a saves database as Motherlode wrote
it at commit 1f52ac0 (protocol 2, saves schema 1: each move logged by its own message
type, a game's settings beside the table's, a column a statistic). Run once, with that
commit's code:

    git worktree add /tmp/old 1f52ac0 && cd /tmp/old && \\
        PYTHONPATH=. python <this file> <out dir>

It plays seeded games of bots on a fake clock: a Gold Nuggets game and a Fool's Gold
match left in play, and a finished Gold Nuggets game (its seats' statistics).
"""

import asyncio
import sys
from pathlib import Path

from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from net.saves import Store
from tests.hardening.harness import drive
from tests.net.helpers import Raw


async def _seat_ann(host: Host, clock: FakeClock, table) -> None:
    """Ann takes the free seat, readies (the table starts), then steps away: a stand-in
    plays her seat, which stays hers, so the table is saved."""
    raw = await Raw.open(host.port)
    await raw.hello("Ann", table=table.name)
    await raw.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    await raw.send(p.Leave(keep_seat=True))
    await drive(clock, lambda: all(s.member is None or not s.member.connected
                                   for s in table.seats if s.kind == "human"))


async def main(root: Path) -> None:
    clock = FakeClock(10.0)
    store = Store(root, "tables")
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    done = host.create_table("Done", "nuggets", seats=3, bots=2, seed="db1-done", supply=12,
                             bot_pace=0.2)
    await _seat_ann(host, clock, done)
    await drive(clock, lambda: done.phase != "playing")
    dice = host.create_table("Dice", "nuggets", seats=3, bots=2, seed="db1-dice", supply=30,
                             bot_pace=0.3)
    cards = host.create_table("Cards", "foolsgold", seats=3, bots=2, seed="db1-cards",
                              bot_pace=0.2)
    await _seat_ann(host, clock, dice)
    await _seat_ann(host, clock, cards)
    await drive(clock, lambda: dice.moves >= 12 and cards.moves >= 12)
    await store.wait_committed()
    store.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
