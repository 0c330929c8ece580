"""People first on a busy host (issue 22): the timer work of tables nobody is at
(bots alone) is capped per turn of the event loop, so a person's message is read and
answered between two turns, not after every bot due. Work is counted by a stand-in
meter (4 ms a tick), so nothing here depends on this machine's speed."""

import itertools

import pytest

from net import protocol as p
from net.clock import FakeClock
from net.host import Turns
from tests.waiting import until

from .helpers import Raw

pytestmark = pytest.mark.timeout(30)


async def test_a_persons_ping_is_answered_before_sixty_bot_tables_due_at_once(make_host):
    import asyncio

    clock = FakeClock()
    host = await make_host(clock=clock, bots_per_turn=0.010)
    fake_work = itertools.count(step=0.004)  # each meter reading 4 ms after the last
    host._turns = Turns(0.010, lambda: next(fake_work), asyncio.get_running_loop().call_soon)
    host.create_table("Saloon", "nuggets", seats=2)  # the first table: Ann's
    ticked: list[str] = []
    for i in range(60):
        table = host.create_table(f"Bots {i}", "nuggets", seats=2)
        table.next_wakeup = lambda t=table: None if t.name in ticked else 1.0
        table.tick = lambda now, t=table: ticked.append(t.name)
        host.touched(table)
    ann = await Raw.open(host.port)
    await ann.hello("Ann")
    assert [m.name for m in host.tables.tables["Saloon"].members] == ["Ann"]

    clock.advance_to(1.0)  # every bot table is due now: each waits in the queue
    assert ticked == [] and host.turns.deferred == 60
    ann.writer.write(p.encode(p.Ping(id=1)))  # in the socket now, no await
    assert (await ann.expect(p.Pong)).id == 1
    answered_after = len(ticked)
    await until(lambda: len(ticked) == 60, "every bot table ticked", step=0)
    assert answered_after < 60, "the ping waited for every bot table"
    assert sorted(ticked) == sorted(f"Bots {i}" for i in range(60))  # none lost, once each
    assert host._timers == {} or all(t.name == "Saloon" for t in host._timers)


async def test_a_table_with_a_person_is_never_deferred(make_host):
    import asyncio

    clock = FakeClock()
    host = await make_host(clock=clock)
    host._turns = Turns(0.010, lambda: 0.0, asyncio.get_running_loop().call_soon)
    host._turns.spent = 1.0  # this turn is over budget already
    table = host.create_table("Saloon", "nuggets", seats=2)
    ann = await Raw.open(host.port)
    await ann.hello("Ann")
    ticks: list[float] = []
    table.next_wakeup = lambda: None if ticks else 2.0
    table.tick = ticks.append
    host.touched(table)
    clock.advance_to(2.0)
    assert ticks == [2.0] and host._turns.deferred == 0


async def test_the_cap_is_on_with_the_real_clock_and_off_with_a_fake_one(make_host):
    real = await make_host(listen=False)
    fake = await make_host(clock=FakeClock(), listen=False)
    assert real.turns.budget == 0.005 and real.config.bots_per_turn == 0.005
    assert fake.turns.budget == float("inf") and not fake.turns.full()


async def test_bytes_that_came_in_meanwhile_are_handled_before_the_bots_backlog(make_host):
    """The bots' queue drains after the next turn's socket reads *and* the tasks they
    woke (a timer due now that hands the drain to ``call_soon``): a person's message
    that arrived while a turn ran its bots is read and handled first, not behind one
    more budget of bots (issue 48). A task reading a stream, as the host's peers do."""
    import asyncio
    import socket

    host = await make_host(listen=False)  # the real clock: the host's own Turns
    turns = host.turns
    order: list[str] = []
    here, there = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=here)

    async def person() -> None:
        await reader.readexactly(1)
        order.append("person")

    task = asyncio.create_task(person())
    try:
        for _ in range(3):
            await asyncio.sleep(0)  # the task waits on its stream
        turns.charge(turns.budget)  # this turn is over budget: the bots wait in the queue
        for n in range(3):
            turns.wait(order.append, f"bot {n}")
        there.send(b"r")  # in the socket before this turn ends
        await until(lambda: len(order) == 4, "the person and the three bots", step=0)
        assert order == ["person", "bot 0", "bot 1", "bot 2"]
    finally:
        task.cancel()
        writer.close()
        there.close()
