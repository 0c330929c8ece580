"""Slow reader: a player who stops reading mid-game is dropped before its outgoing queue
exceeds the limit, and goes down the reconnect path; everyone else gets every message
in order, the game goes on (a stand-in plays the seat), and the player takes the seat
back with its token and sees the end.

A spy on the host's per-connection ``send`` records each queue's size at every
message (an observation of the real code, not a stand-in for it).
``bench/stress_slow_reader.py`` is the long version (the others' p99, host RSS).
"""

import asyncio

import pytest

import net.peer
from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.host import Host, HostConfig

from .harness import Raw, drive, greedy_nuggets, play_nuggets, settle

LIMIT = 32 * 1024


@pytest.fixture
def queue_spy(monkeypatch):
    """The largest queue each connection held while its writer waited on the peer."""
    peaks: dict[int, int] = {}
    original = net.peer.Peer.send

    def send(self, message):
        original(self, message)
        if self.blocked and not self.closed:
            peaks[id(self)] = max(peaks.get(id(self), 0), self.queued)

    monkeypatch.setattr(net.peer.Peer, "send", send)
    return peaks


async def play_raw(raw: Raw, seat: int) -> p.Over:
    """Play a seat with the greedy script over a raw connection until the game ends."""
    while True:
        message = await raw.recv()
        assert message is not None, "closed during the game"
        if isinstance(message, p.State) and message.seat == seat:
            view = message.view
            if not view.over and view.current == seat:
                await raw.send(greedy_nuggets(view))
        elif isinstance(message, p.Over):
            return message


async def test_a_reader_that_stops_is_dropped_before_its_queue_exceeds_the_limit(queue_spy):
    clock = FakeClock()
    from net.budgets import Budgets

    chatty = Budgets(spectator_chat_rate=1e9, spectator_chat_burst=1e9, spectator_chat_every=0)
    config = HostConfig(rate=1e9, burst=1e9, spectator_rate=1e9, spectator_burst=1e9,
                        max_queue_bytes=LIMIT, sndbuf=8 * 1024,
                        budgets=chatty)
    host = Host(clock=clock, config=config)
    await host.start("127.0.0.1", 0)
    try:
        table = host.create_table(
            "Camp", "nuggets", seats=3, seed="slow-1", first_player=0, grace=5.0
        )
        ann = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock)
        bob = await Client.connect("127.0.0.1", host.port, "Bob", clock=clock)
        zed = await Raw.open(host.port, rcvbuf=4096)
        welcome = await zed.hello("Zed")
        await zed.send(p.Ready())  # ... and then Zed stops reading
        cy = await Raw.open(host.port)
        await cy.hello("Cy", spectate=True)
        seen_ann: list = []
        await ann.send(p.Ready())
        await bob.send(p.Ready())
        game = asyncio.gather(play_nuggets(ann, seen_ann), play_nuggets(bob))

        # Cy chats hard, reading every line back before the next batch: far more than
        # Zed's socket buffers and queue can hold
        text = "z" * 180
        received = []
        for start in range(0, 2000, 20):
            batch = range(start, start + 20)
            await cy.send(b"".join(p.encode(p.Chat(text=f"{i} {text}")) for i in batch))
            for _ in batch:
                line = await asyncio.wait_for(cy.expect(p.ChatLine), 10)
                received.append(int(line.text.split()[0]))
            if table.seats[2].away_since is not None:
                break
        assert table.seats[2].away_since is not None, "Zed was never dropped"
        assert received == list(range(len(received)))  # Cy lost nothing, in order
        zed_peak = max(queue_spy.values())
        assert 0 < zed_peak <= LIMIT  # the queue never went over the limit
        assert all(peak <= LIMIT for peak in queue_spy.values())

        # the game goes on: after the grace a stand-in plays Zed's turns
        await drive(clock, lambda: table.seats[2].standin or table.phase != "playing")
        await drive(
            clock,
            lambda: any(e["by"] == "standin" for e in table.log) or table.phase != "playing",
        )
        # Zed comes back with the token and takes the seat back for the rest
        zed.abort()
        back = await Raw.open(host.port)
        again = await back.hello("Zed", token=welcome.token)
        assert again.resumed and again.seat == 2
        zed_plays = asyncio.create_task(play_raw(back, 2))
        await drive(clock, lambda: game.done() and zed_plays.done())
        over_a, over_b = game.result()
        assert over_a == over_b == zed_plays.result()
        assert sum(over_a.scores) == 77
        # every chat line reached Ann, in order, through the drop and the game
        lines = [int(m.text.split()[0]) for m in seen_ann if isinstance(m, p.ChatLine)]
        assert lines == received
        assert [m.name for m in seen_ann if isinstance(m, p.Notice) and m.event == "away"] == [
            "Zed"
        ]
        back.close()
        cy.close()
        await ann.close()
        await bob.close()
        await settle()
    finally:
        await host.close()
