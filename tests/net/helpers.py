"""Scripted players and small helpers for the network tests."""

from __future__ import annotations

import asyncio

import msgspec

import nuggets
from net import protocol as p
from net import views
from net.client import Client, Disconnected
from net.games.nuggets import moves as nm
from net.games.nuggets import views as nuggets_views


def greedy_nuggets(view: nuggets_views.NuggetsView | dict) -> p.Move:
    """A deterministic scripted Gold Nuggets player: keep the most dice, stop at 8.
    ``view``: as a client receives it, or the rules' own dict (``driver.view``)."""
    if isinstance(view, dict):
        view = views.to_view(view)
    if view.phase == "roll":
        return nm.ROLL()
    if view.phase == "keep":
        rolled = [nuggets.Face(f) for f in view.rolled]
        kept = [nuggets.Face(f) for f in view.kept]
        best = max(nuggets.legal_keeps(rolled, kept), key=lambda k: (len(k), [f.value for f in k]))
        return nm.KEEP(faces=[f.value for f in best])
    if view.phase == "choose" and view.kept_value < 8 and view.dice_left >= 3:
        return nm.ROLL()
    return nm.STOP()


async def play_nuggets(client: Client, record: list | None = None) -> p.Over:
    """Play the client's seats with ``greedy_nuggets`` until the game is over."""
    async for message in client:
        if record is not None:
            record.append(message)
        if isinstance(message, p.State) and message.seat in client.seats:
            view = message.view
            if not view.over and view.current == message.seat:
                action = greedy_nuggets(view)
                action.seat = message.seat if len(client.seats) > 1 else None
                await client.send(action)
        elif isinstance(message, p.Over):
            return message
        elif isinstance(message, Disconnected):
            raise AssertionError(f"disconnected: {message}")
    raise AssertionError("stream ended")


async def next_of(client: Client, kind: type, *, where=lambda m: True, seen: list | None = None):
    """Read the client's stream until a message of ``kind`` that satisfies ``where``."""
    while True:
        message = await client.recv()
        if seen is not None:
            seen.append(message)
        if isinstance(message, kind) and where(message):
            return message
        if isinstance(message, Disconnected) and kind is not Disconnected:
            raise AssertionError(f"disconnected while waiting for {kind.__name__}: {message}")


async def settle() -> None:
    """Let the event loop run every ready callback (in-process work, not time)."""
    for _ in range(50):
        await asyncio.sleep(0)


class Raw:
    """A hand-driven TCP peer: raw bytes out, host messages (or error codes) in."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.conn = p.Connection(p.CLIENT)

    @classmethod
    async def open(cls, port: int, rcvbuf: int | None = None) -> Raw:
        if rcvbuf is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        else:
            import socket

            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            reader, writer = await asyncio.open_connection(sock=sock)
        return cls(reader, writer)

    async def send(self, data: bytes | object) -> None:
        if not isinstance(data, bytes):
            data = p.encode(data)
        self.writer.write(data)
        await self.writer.drain()

    async def hello(self, name: str, **kw) -> p.Welcome:
        await self.send(p.Hello(protocol=3, name=name, **kw))
        return await self.expect(p.Welcome)

    async def recv(self):
        """The next message, or ``None`` once the host closed the connection."""
        while True:
            message = self.conn.next_message()
            if message is p.CLOSED:
                return None
            if message is not p.NEED_DATA:
                return message
            try:
                data = await self.reader.read(65536)
            except OSError:  # a reset, or a socket already closed
                data = b""
            self.conn.receive_data(data)

    async def expect(self, kind: type, where=lambda m: True):
        while True:
            message = await self.recv()
            if message is None:
                raise AssertionError(f"closed while waiting for {kind.__name__}")
            if isinstance(message, kind) and where(message):
                return message

    async def error(self) -> str:
        return (await self.expect(p.Error)).code

    async def closed(self) -> list:
        """Everything until the host closes the connection."""
        seen = []
        while (message := await self.recv()) is not None:
            seen.append(message)
        return seen

    def close(self) -> None:
        self.writer.close()


def cards_in(obj):
    """Every Fool's Gold card ``(name, variant)`` anywhere in a JSON-like object (typed
    views and events included: read in their wire form)."""
    if isinstance(obj, msgspec.Struct):
        obj = msgspec.to_builtins(obj)
    if isinstance(obj, dict):
        if {"name", "variant"} <= set(obj) and set(obj) <= {"name", "variant", "kind"}:
            yield (obj["name"], obj["variant"])
            return
        for value in obj.values():
            yield from cards_in(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from cards_in(value)


class Seat:
    """A raw protocol seat that answers every probe, at once as an honest client does
    or each ``hold`` seconds late as a cheating one can, and keeps everything else for
    the test to read."""

    def __init__(self, raw: Raw, hold: float = 0.0) -> None:
        self.raw = raw
        self.hold = hold
        self.number: int | None = None
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.task = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, sock, name: str, hold: float = 0.0, table: str | None = None) -> Seat:
        """Seated as ``name`` (at ``table``, where the host has several) over the
        connected socket ``sock`` (or a port on loopback)."""
        if isinstance(sock, int):
            streams = await asyncio.open_connection("127.0.0.1", sock)
        else:
            streams = await asyncio.open_connection(sock=sock)
        seat = cls(Raw(*streams), hold)
        await seat.raw.send(p.Hello(protocol=3, name=name, table=table))
        seat.number = (await seat.expect(p.Welcome)).seat
        return seat

    async def _read(self) -> None:
        while (message := await self.raw.recv()) is not None:
            if isinstance(message, p.Probe) and self.hold:
                reply = p.encode(p.ProbeReply(id=message.id))
                asyncio.get_running_loop().call_later(self.hold, self.raw.writer.write, reply)
            elif isinstance(message, p.Probe):
                await self.raw.send(p.ProbeReply(id=message.id))
            else:
                self.inbox.put_nowait(message)

    async def expect(self, kind: type, where=lambda m: True):
        while True:
            message = await self.inbox.get()
            if isinstance(message, kind) and where(message):
                return message

    def close(self) -> None:
        self.task.cancel()
        self.raw.writer.close()
