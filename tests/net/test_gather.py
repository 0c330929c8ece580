"""A peer's messages from one table's timer go out in one write (``Host.begin_gather``),
in order, and bytes held for a commit still wait for it, after what was gathered
before them. In-process hosts on a fake clock; every table seeded."""

from __future__ import annotations

import asyncio

import pytest

from net import host as hosting
from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from net.pipe import PipeWriter

pytestmark = pytest.mark.timeout(60)


async def settle(turns: int = 50) -> None:
    for _ in range(turns):
        await asyncio.sleep(0)


class Spectator:
    """An in-process spectator; ``writes`` are the host's writes to it, one an item."""

    def __init__(self, host: Host, table: str, writes: dict) -> None:
        self.reader, self.writer = host.open_local()
        self.writes: list[bytes] = writes.setdefault(id(self.reader), [])
        self.writer.write(p.encode(p.Hello(protocol=p.PROTOCOL_VERSION, name="Eve",
                                           table=table, spectate=True)))  # fmt: skip
        self.received = bytearray()

    async def read(self) -> None:
        while data := await self.reader.read(65536):
            self.received += data


@pytest.fixture
def writes(monkeypatch) -> dict:
    """Every write the host makes to an in-process client, by the client's reader."""
    seen: dict[int, list[bytes]] = {}

    class Counted(PipeWriter):
        def write(self, data: bytes) -> None:
            seen.setdefault(id(self._reader), []).append(bytes(data))
            super().write(data)

    monkeypatch.setattr(hosting, "PipeWriter", Counted)
    return seen


def peer_of(host: Host) -> hosting.Peer:
    (peer,) = host._peers
    return peer


async def test_what_one_piece_of_work_sends_a_peer_goes_out_in_one_write(writes):
    host = Host(clock=FakeClock())
    host.create_table("A", "foolsgold", seats=4, bots=4, seed="gather")
    eve = Spectator(host, "A", writes)
    await settle()
    peer, before = peer_of(host), len(eve.writes)
    first, second = p.Notice(event="joined", name="Bob"), p.Notice(event="left", name="Bob")
    host.begin_gather()
    peer.send(first)
    peer.send(second)
    assert len(eve.writes) == before  # nothing yet: the work is not done
    host.end_gather()
    assert eve.writes[before:] == [p.encode(first) + p.encode(second)]
    peer.send(first)  # outside any gathering: at once, as before
    assert eve.writes[before + 1:] == [p.encode(first)]
    await host.close()


async def test_a_commit_inside_the_gathering_keeps_each_peers_order(writes):
    """A message gathered before a change, then one held for its commit: if the commit
    is made at once (inside the gathering), the gathered one still goes first."""

    class Store:  # the saves store's side of the contract (``net.saves.Store``)
        pending = False

        def on_flushed(self, listener) -> None:
            self.listener = listener

        def schedule(self) -> None:
            pass

        def touched(self, table, now) -> None:
            pass

        def closed(self, table) -> None:
            pass

    store = Store()
    host = Host(clock=FakeClock(), store=store)  # type: ignore[arg-type]
    host.create_table("A", "foolsgold", seats=4, bots=4, seed="gather")
    eve = Spectator(host, "A", writes)
    await settle()
    peer, before = peer_of(host), len(eve.writes)
    early, late = p.Notice(event="joined", name="Bob"), p.Notice(event="left", name="Bob")
    host.begin_gather()
    peer.send(early)  # nothing to commit: gathered
    store.pending = True
    peer.send(late)  # held for the commit
    store.pending = False
    store.listener()  # committed at once, inside the gathering
    host.end_gather()
    assert b"".join(eve.writes[before:]) == p.encode(early) + p.encode(late)
    await host.close()


async def test_a_spectator_reads_every_byte_in_order_in_fewer_writes(writes):
    """A whole match of bots watched: the spectator reads exactly what the host
    encoded for it, in order, and some timers sent it several messages in one write."""
    clock = FakeClock()
    host = Host(clock=clock)
    encoded: list[bytes] = []
    real = host.encode

    def encode(message) -> bytes:
        data = real(message)
        encoded.append(data)
        return data

    host.encode = encode  # type: ignore[method-assign]
    table = host.create_table("A", "foolsgold", seats=4, bots=4, seed="gather",
                              round_cap=2)  # fmt: skip
    eve = Spectator(host, "A", writes)
    reading = asyncio.create_task(eve.read())
    await settle()
    host.start_game(table)
    for _ in range(100_000):
        await settle(5)
        if table.phase == "over":
            break
        due = clock.next_due()
        clock.advance(0.1 if due is None else min(max(due - clock.now(), 0.0), 0.1))
    assert table.phase == "over"
    await settle()
    await host.close()
    await asyncio.wait_for(reading, 10)
    assert bytes(eve.received) == b"".join(encoded)
    assert len(encoded) > 50
    assert len(eve.writes) < len(encoded)  # some writes carried several messages
