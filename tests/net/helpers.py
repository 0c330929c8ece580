"""Scripted players and small helpers for the network tests."""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import json
import random
import threading

import msgspec

import nuggets
from net import protocol as p
from net import views
from net.botclient import BotSeat
from net.client import (
    Client,
    Disconnected,
)
from net.games.nuggets import moves as nm
from net.games.nuggets import views as nuggets_views
from net.saves import Saved, Store
from net.table import Settings, Table, Tables
from tests.waiting import settle  # noqa: F401 - the suite's one, shared from here

ROUND_CAP = 40  # rounds of a Fool's Gold match played before it is cut short


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


class Inbox(list):
    def of(self, kind):
        return [m for m in self if isinstance(m, kind)]

    def errors(self):
        return [m.code for m in self.of(p.Error)]


def hello(name, **kw):
    return p.Hello(protocol=3, name=name, **kw)


def join(tables, name, now=0.0, **kw):
    inbox = Inbox()
    closed = []
    member = tables.hello(hello(name, **kw), inbox.append, closed.append, now)
    return member, inbox


def nuggets_table(**settings):
    tables = Tables()
    settings.setdefault("seats", 3)
    settings.setdefault("grace", 30.0)
    tables.add(Table("Saloon", "nuggets", Settings.build("nuggets", **settings)))
    return tables, tables.tables["Saloon"]


def play_match(seed, players, spectators=1, round_cap=ROUND_CAP):
    """A whole match between bots that play through members, as remote players do
    (without a round cap only for a seeded deal known to end)."""
    tables = Tables()
    settings = Settings(seats=players, seed=seed, game={"round_cap": round_cap})
    table = tables.add(Table("Camp", "foolsgold", settings))
    problems = []
    seated = []
    for i in range(players):
        box = Watched(table, i, problems)
        member = tables.hello(p.Hello(protocol=3, name=f"P{i}"), box.deliver, print, 0.0)
        seated.append((member, box))
    for j in range(spectators):
        box = Watched(table, None, problems)
        tables.hello(p.Hello(protocol=3, name=f"S{j}", spectate=True), box.deliver, print, 0.0)
    for member, _ in seated:
        table.handle(member, p.Ready(), 0.0)  # the full table starts when all are ready
    assert table.phase == "playing"
    now, steps = 0.0, 0
    while table.phase == "playing":
        steps += 1
        assert steps < 50_000, "the match does not end"
        plans = [(box.bot.plan[1], i) for i, (_, box) in enumerate(seated) if box.bot.plan]
        wake = table.next_wakeup()
        due = min([t for t, _ in plans] + ([wake] if wake is not None else []))
        now = max(now, due)
        mine = [i for t, i in plans if t <= now]
        if mine:
            member, box = seated[mine[0]]
            action, _ = box.bot.plan
            box.bot.plan = None
            table.handle(member, action, now)
        else:
            table.tick(now)
    return table, seated, problems


def saved_game(game: str, directory) -> tuple[Saved, dict[str, str]]:
    """Ann and Bob (who never act) and a bot, a few seconds into a game, saved."""
    tables = Tables()
    settings = Settings(seats=3, seed=f"wait-{game}", grace=GRACE, bot_pace=0.5,
                        first_player=2, game={"supply": 20})  # fmt: skip
    table = tables.add(Table("Camp", game, settings))
    store = Store(directory)
    table.on_change = store.touched
    ann, _ = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    table.add_bot()
    table.start(0.0)
    now = 0.0
    while now < 3.0:  # the bot's first moves
        wake = table.next_wakeup()
        now = 3.0 if wake is None or wake > 3.0 else wake
        table.tick(now)
    assert table.moves > 0
    store.touched(table, 3.0)
    (ident,) = store.unfinished()
    return store.load(ident), {"Ann": ann.token, "Bob": bob.token}


@contextlib.contextmanager
def http_server():
    """``python -m http.server`` on 127.0.0.1, in a thread; yields its port."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class Watched:
    """A member's inbox that checks, at the moment of delivery, that it holds no card
    the seat may not see, no deck order and no seed before the end."""

    def __init__(self, table, seat, problems):
        self.table, self.seat, self.problems = table, seat, problems
        self.messages = []
        self.bot = BotSeat("normal", random.Random(seat))

    def deliver(self, message):
        self.messages.append(message)
        data = msgspec.to_builtins(message)
        table = self.table
        if table.seed and table.phase == "playing" and table.seed in json.dumps(data):
            self.problems.append(("seed before the end", self.seat, message))
        if longest_card_list(data) > 6:
            self.problems.append(("a list of more than six cards", self.seat, message))
        round_ = table.driver.match.round if table.driver is not None else None
        if round_ is not None:
            allowed = set()
            if self.seat is not None:
                allowed |= {(c.name, c.variant) for c in round_.hands[self.seat]}
            revealed = data.get("view", {}).get("revealed") or []
            for event in data.get("events", []):
                if event.get("type") == "revealed":
                    revealed += event["hand"]
            allowed |= set(cards_in(revealed))
            leaked = set(cards_in(data)) - allowed
            if leaked:
                self.problems.append(("cards of another seat", self.seat, leaked, message))
        self.bot.receive(message)


#: Whole matches between bots end by the table's round cap (the house rule), so a
#: change to the bots cannot make a match run on (issue 44).
ROUND_CAP = 40


GRACE = 20.0


def longest_card_list(obj):
    if isinstance(obj, dict):
        return max((longest_card_list(v) for v in obj.values()), default=0)
    if isinstance(obj, list):
        here = sum(1 for v in obj if isinstance(v, dict) and "variant" in v)
        return max([here, *(longest_card_list(v) for v in obj)])
    return 0
