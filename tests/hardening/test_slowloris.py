"""Slowloris: sockets that never finish a hello (silent, trickling a byte at a time, or
trickling a line that never ends) are all closed by the hello time-out, and a real
client joins and plays on while they hold their connections.

The host runs on a fake clock, so the time-out is exact and nothing sleeps.
``bench/stress_slowloris.py`` is the long version on the real clock (500 sockets,
join latency during the flood).
"""

import asyncio

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.host import Host, HostConfig
from net.protocol import Code
from tests.waiting import until

from .harness import Raw, settle

SILENT, TRICKLE, ENDLESS = 80, 40, 40


async def test_every_slow_socket_is_closed_by_the_hello_timeout_and_a_client_still_joins():
    clock = FakeClock()
    host = Host(clock=clock, config=HostConfig(hello_timeout=10.0, max_connections=512))
    await host.start("127.0.0.1", 0)
    try:
        host.create_table("Saloon", "nuggets", seats=2)
        flood = [await Raw.open(host.port) for _ in range(SILENT + TRICKLE + ENDLESS)]
        # flood[:SILENT] stay silent
        trickle = flood[SILENT : SILENT + TRICKLE]  # a valid hello, one byte a second
        endless = flood[SILENT + TRICKLE :]  # a chat line that never ends
        hello = p.encode(p.Hello(protocol=3, name="Slow"))
        await until(lambda: len(host._peers) == len(flood), "every socket accepted")

        # a real client joins during the flood, and gets its welcome at once
        ann = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock)
        assert ann.seat == 0

        for second in range(1, 10):
            clock.advance(1.0)
            for raw in trickle:
                raw.writer.write(hello[second - 1 : second])
            for raw in endless:
                raw.writer.write(b'{"type":"chat","text":"' if second == 1 else b"zz")
            await settle()
        clock.advance(0.9)  # t = 9.9: nobody is closed yet
        await settle()
        assert len(host._peers) == len(flood) + 1

        clock.advance(0.1)  # t = 10: the time-out
        outcomes = await asyncio.wait_for(asyncio.gather(*(raw.closed() for raw in flood)), 30)
        for raw, seen in zip(flood, outcomes, strict=True):
            assert [m.code for m in seen] == [Code.HELLO_TIMEOUT], seen
            raw.close()
        await until(lambda: len(host._peers) == 1, "only Ann is left")

        # Ann is untouched: her seat, her connection, her answers
        await ann.send(p.Ping(id="still"))
        while True:
            message = await asyncio.wait_for(ann.recv(), 10)
            if isinstance(message, p.Pong):
                assert message.id == "still"
                break
        assert host.tables.find("Saloon").seats[0].member.connected
        await ann.close()
    finally:
        await host.close()


async def test_a_flood_at_the_connection_cap_evicts_its_oldest_and_a_newcomer_gets_in():
    """With the budget before hello filled by silent sockets, a newcomer still gets in at
    once: the oldest silent socket makes room and is told why (``server_full``)."""
    clock = FakeClock()
    host = Host(clock=clock, config=HostConfig(hello_timeout=10.0, max_connections=30))
    await host.start("127.0.0.1", 0)
    try:
        host.create_table("Saloon", "nuggets", seats=2)
        flood = [await Raw.open(host.port) for _ in range(30)]
        await until(lambda: len(host._peers) == 30, "every socket accepted")
        newcomer = await Raw.open(host.port)
        assert (await newcomer.hello("Bea")).seat == 0
        assert [m.code for m in await flood[0].closed()] == [Code.SERVER_FULL]
        clock.advance(10.0)
        await asyncio.wait_for(asyncio.gather(*(raw.closed() for raw in flood[1:])), 30)
        assert host.ledger.count("pending") == 0 and host.ledger.count("seated") == 1
        newcomer.close()
        for raw in flood:
            raw.close()
    finally:
        await host.close()
