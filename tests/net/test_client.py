"""The client's typed failures and its reconnect path."""

import asyncio
import socket

import pytest

from net import protocol as p
from net.client import (
    Client,
    ConnectionLost,
    Disconnected,
    Reconnected,
    Reconnecting,
    Rejected,
    TableFull,
    Unreachable,
    VersionMismatch,
)
from net.clock import FakeClock
from tests.waiting import until

from .helpers import settle


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_refused_is_unreachable():
    port = free_port()
    with pytest.raises(Unreachable) as info:
        await Client.connect("127.0.0.1", port, "Ann")
    # plain words, never the OS's "[Errno 111] Connect call failed"
    assert str(info.value) == (f"Nothing answers at 127.0.0.1:{port}: is the host running, "
                               "and is the port right?")


async def test_an_unknown_machine_is_named_in_words():
    with pytest.raises(Unreachable) as info:
        await Client.connect("no-such-host.invalid", 7777, "Ann")
    assert "no-such-host.invalid" in str(info.value) and "Errno" not in str(info.value)


async def test_version_mismatch_full_table_and_rejections(make_host):
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    with pytest.raises(VersionMismatch) as info:
        await Client.connect("127.0.0.1", host.port, "Ann", protocol=99)
    assert info.value.code == "bad_version"
    await Client.connect("127.0.0.1", host.port, "Ann")
    await Client.connect("127.0.0.1", host.port, "Bob")
    with pytest.raises(TableFull):
        await Client.connect("127.0.0.1", host.port, "Cy")
    with pytest.raises(Rejected) as info:
        await Client.connect("127.0.0.1", host.port, "Cy", table="Elsewhere")
    assert info.value.code == "no_such_table"
    with pytest.raises(Rejected) as info:
        await Client.connect("127.0.0.1", host.port, "\x1b[0m")
    assert info.value.code == "bad_name"


async def test_host_gone_for_good_ends_in_connection_lost(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock)
    host.create_table("Saloon", "nuggets", seats=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock)
    assert isinstance(await client.recv(), p.Welcome)
    # the host vanishes without a bye (a crash, a pulled cable)
    host._server.close()
    await host._server.wait_closed()
    for peer in list(host._peers):
        peer.abort()
    items = []
    while not items or not isinstance(items[-1], Disconnected):
        await settle()
        while not client._queue.empty():
            items.append(client._queue.get_nowait())
        clock.advance(0.5)
    attempts = [i for i in items if isinstance(i, Reconnecting)]
    assert [a.attempt for a in attempts] == list(range(1, len(attempts) + 1))
    assert attempts[0].delay == 0 and attempts[-1].delay >= attempts[1].delay  # back-off
    last = items[-1]
    assert isinstance(last.error, ConnectionLost)
    with pytest.raises(ConnectionLost):
        await client.send(p.Ready())


async def test_a_closed_client_ends_its_stream(make_host):
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann")
    await client.close()
    items = [item async for item in client]
    assert isinstance(items[0], p.Welcome)
    assert isinstance(items[-1], Disconnected) and items[-1].reason == "closed"
    await asyncio.sleep(0)


async def test_a_spectator_reconnects_by_watching_again(make_host):
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    watcher = await Client.connect("127.0.0.1", host.port, "Eve", spectate=True)
    assert isinstance(await watcher.recv(), p.Welcome)
    watcher._writer.transport.abort()
    items = []
    while not any(isinstance(i, Reconnected) for i in items):
        items.append(await asyncio.wait_for(watcher.recv(), 10))
    assert watcher.welcome.seat is None and watcher.welcome.name.startswith("Eve")
    await watcher.send(p.Ping(id=3))
    while not isinstance(item := await asyncio.wait_for(watcher.recv(), 10), p.Pong):
        pass
    assert item.id == 3


async def test_a_bug_in_a_handler_costs_one_message(make_host, monkeypatch):
    host = await make_host()
    table = host.create_table("Saloon", "nuggets", seats=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann")

    def broken(self, member, message, now):
        raise RuntimeError("boom")

    monkeypatch.setitem(type(table.lobby)._HANDLERS, p.Chat, broken)
    await client.send(p.Chat(text="hello"))
    await client.send(p.Ping(id=1))
    seen = []
    while not isinstance(item := await asyncio.wait_for(client.recv(), 10), p.Pong):
        seen.append(item)
    errors = [m for m in seen if isinstance(m, p.Error)]
    assert [e.code for e in errors] == ["internal"] and "boom" not in errors[0].message


async def test_a_silent_server_is_unreachable():
    async def silent(reader, writer):
        await reader.read()  # says nothing, ever

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with pytest.raises(Unreachable) as info:
        await Client.connect("127.0.0.1", port, "Ann", answer_timeout=0.2)
    assert "said nothing for 0.2 s" in info.value.message
    server.close()


# -- coming back: a client that keeps trying, suspends and wakes -------------------------


async def _vanish(host) -> int:
    """The host's machine goes away without a bye (a crash, a pulled cable); its port."""
    port = host.port
    host._server.close()
    await host._server.wait_closed()
    for peer in list(host._peers):
        peer.abort()
    return port


def _drain(client) -> list:
    items = []
    while not client._queue.empty():
        items.append(client._queue.get_nowait())
    return items


async def test_a_client_with_retry_for_keeps_trying_until_the_host_is_back(make_host):
    clock = FakeClock()  # the client's: 100 s pass for it, none for the host's seats
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock,
                                  retry_for=float("inf"))
    assert isinstance(await client.recv(), p.Welcome)
    port = await _vanish(host)
    items = []
    for _ in range(200):  # 100 s of the client's clock: far past the short back-off
        await settle()
        items += _drain(client)
        clock.advance(0.5)
    attempts = [i for i in items if isinstance(i, Reconnecting)]
    assert not any(isinstance(i, Disconnected) for i in items)
    assert len(attempts) > 8 + 10  # past BACKOFF, one attempt every 5 s
    assert {a.delay for a in attempts[8:]} == {5.0}
    assert "Nothing answers at" in attempts[-1].failed  # says why the last one failed
    # the host is back on its port: the next attempt takes the seat back
    await host.start("127.0.0.1", port)

    async def back() -> bool:
        await settle()
        if any(isinstance(i, Reconnected) for i in _drain(client)):
            return True
        clock.advance(0.5)  # the handshake's real socket I/O runs between looks
        return False

    await until(back, "the client comes back", 20, step=0.02)
    assert host.tables.tables["Saloon"].seats[0].member.connected
    await client.close()


async def test_retry_now_tries_at_once(make_host):
    clock = FakeClock()
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock,
                                  retry_for=float("inf"))
    assert isinstance(await client.recv(), p.Welcome)
    port = await _vanish(host)
    for _ in range(40):  # into the 5 s waits
        await settle()
        clock.advance(0.5)
    _drain(client)
    await host.start("127.0.0.1", port)
    client.retry_now()  # the clock stands still: only j can bring it back now

    async def back() -> bool:
        await settle()
        return any(isinstance(i, Reconnected) for i in _drain(client))

    await until(back, "retry_now tries at once (the clock stands still)", 5)
    await client.close()


async def test_without_retry_for_a_client_gives_up_after_the_short_back_off(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock)
    host.create_table("Saloon", "nuggets", seats=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock)
    assert isinstance(await client.recv(), p.Welcome)
    await _vanish(host)
    items = []
    while not items or not isinstance(items[-1], Disconnected):
        await settle()
        items += _drain(client)
        clock.advance(0.5)
    assert len([i for i in items if isinstance(i, Reconnecting)]) == 8


async def test_a_suspended_client_is_away_for_the_others_at_once_and_wakes_into_its_seat(
        make_host):
    clock = FakeClock()  # the clients' (the host's seats wait on its own clock)
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    ann = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock,
                               retry_for=float("inf"))
    bob = await Client.connect("127.0.0.1", host.port, "Bob", clock=clock)
    ann.suspend()  # the served terminal detached: nobody is at Ann's app
    # Bob is told at once, with no time passing on anyone's clock
    notice = await asyncio.wait_for(_next(bob, p.Notice, lambda n: n.event == "away"), 5)
    assert notice.name == "Ann"
    table = host.tables.tables["Saloon"]
    assert not table.seats[0].member.connected and table.seats[0].away_since is not None
    # no attempt to come back while suspended, however long it is
    for _ in range(100):
        await settle()
        clock.advance(1.0)
    assert not table.seats[0].member.connected
    items = _drain(ann)
    assert not any(isinstance(i, (Reconnected, Disconnected)) for i in items)
    ann.wake()  # the player re-attached: the seat comes back at once
    await asyncio.wait_for(_next(ann, Reconnected), 5)
    assert (await asyncio.wait_for(_next(bob, p.Notice, lambda n: n.event == "back"), 5)).name \
        == "Ann"
    assert table.seats[0].member.connected
    await ann.close()
    await bob.close()


async def test_a_kept_game_says_suspended_and_its_people_wait_for_the_host(tmp_path):
    """A host that keeps its games (saves) says ``bye`` ``suspended`` at a game in play:
    a client with ``retry_for`` keeps trying; one without ends, told why."""
    from net.host import Host
    from net.saves import Store

    host = Host(store=Store(tmp_path))
    await host.start("127.0.0.1", 0)
    table = host.create_table("Saloon", "nuggets", seats=3, bots=1)
    ann = await Client.connect("127.0.0.1", host.port, "Ann", retry_for=float("inf"))
    bob = await Client.connect("127.0.0.1", host.port, "Bob")
    for client in (ann, bob):
        await client.send(p.Ready())
    await asyncio.wait_for(_next(bob, p.Started), 5)
    assert table.phase == "playing"
    await host.close()
    last = await asyncio.wait_for(_next(bob, Disconnected), 5)
    assert last.reason == p.SUSPENDED
    attempt = await asyncio.wait_for(_next(ann, Reconnecting), 5)
    assert attempt.reason == "the host stopped; it keeps the table"
    await ann.close()


async def _next(client, kind, match=lambda item: True):
    while True:
        item = await client.recv()
        if isinstance(item, kind) and match(item):
            return item
