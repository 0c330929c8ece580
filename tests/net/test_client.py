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

    monkeypatch.setitem(type(table)._HANDLERS, p.Chat, broken)
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
