"""Make ``tests/saves/legacy/db2/motherlode.db``: a saves database as Motherlode wrote
it at commit 2be58e5, the last before ruling F12 (a table of two scores without F8) and
before a save recorded the version of the rules its game was played under. Run once,
with that commit's code:

    git worktree add /tmp/old 2be58e5 && cd /tmp/old && \\
        PYTHONPATH=. python <this file> <out dir>

It plays seeded two-seat Fool's Gold matches on a fake clock, Ann against a bot (Ann
steps away at once and a stand-in plays her seat): one to its end (the seats'
statistics written), one left in play. Under those rules every round at two moves both
scores (the player without the nugget loses 1, F8), so neither match replays under F12.
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


def _calls(table) -> int:
    return sum(1 for entry in table.log for e in entry["events"] if e.get("type") == "called")


async def main(root: Path) -> None:
    clock = FakeClock(10.0)
    store = Store(root, "tables")
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    done = host.create_table("Pair", "foolsgold", seats=2, bots=1, seed="db2-pair",
                             difficulty="hard", bot_pace=0.2)
    await _seat_ann(host, clock, done)
    await drive(clock, lambda: done.phase != "playing")
    duo = host.create_table("Duo", "foolsgold", seats=2, bots=1, seed="db2-duo",
                            bot_pace=0.2)
    await _seat_ann(host, clock, duo)
    await drive(clock, lambda: duo.driver.match.round_no >= 3)
    await store.wait_committed()
    store.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
