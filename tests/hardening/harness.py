"""Shared harness of the adversarial suites: the CI tests (``tests/hardening``) and the
long versions (``bench/stress_*.py``) drive a real host through the same code.

Nothing here is a mock: peers are real TCP sockets on 127.0.0.1, the host is
``net.host.Host``, and the oracles are the sans-I/O protocol core and the pure rules.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import msgspec

from net import protocol as p
from net.client import Client, Disconnected
from net.host import Host
from net.protocol import Code
from net.saves import Store
from net.table import Settings, Table, Tables
from tests.net import helpers
from tests.net.helpers import greedy_nuggets
from tests.waiting import settle  # noqa: F401 - the suite's one, shared from here

# The codes the framing itself gives a bad line (net.protocol); every other code comes
# from the host's tables or the connection's life.
FRAMING_CODES = frozenset(
    {
        Code.BAD_JSON,
        Code.BAD_UTF8,
        Code.BAD_NUMBER,
        Code.TOO_DEEP,
        Code.UNKNOWN_TYPE,
        Code.BAD_FIELD,
        Code.MISSING_FIELD,
    }
)
ALL_CODES = frozenset(Code)




async def drive(clock, done, limit: int = 200_000, step: float = 0.1) -> None:
    """Advance a fake clock by at most ``step`` at a time, letting I/O settle between,
    until ``done()``."""
    for _ in range(limit):
        await settle()
        if done():
            return
        due = clock.next_due()
        clock.advance(step if due is None else min(max(due - clock.now(), 0.0), step))
    raise AssertionError("drive: never done")


class Raw(helpers.Raw):
    """A hand-driven TCP peer (see ``tests/net/helpers.py``) that can also cut the line."""

    def abort(self) -> None:
        self.writer.transport.abort()


# ---------------------------------------------------------------------------
# Hostile frames


def oracle(line: bytes, max_line: int = p.DEFAULT_MAX_LINE) -> Any:
    """What the host's framing makes of one line: a Code, a message, or None (ignored)."""
    conn = p.Connection(p.HOST, max_line=max_line)
    conn.receive_data(line + b"\n")
    try:
        message = conn.next_message()
    except p.RemoteProtocolError as exc:
        return exc.code
    return None if message is p.NEED_DATA else message


VALID_LINES = [
    b'{"type":"hello","protocol": 3,"name":"Ann","table":"Saloon"}',
    b'{"type":"chat","text":"howdy"}',
    b'{"type":"move","move":"keep","args":{"faces":["nugget","3","3"]},"seat":1}',
    b'{"type":"move","move":"discard","args":{"card":{"name":"Owl","variant":"a"}}}',
    b'{"type":"configure","seats":4,"grace":12.5,"seed":null}',
    b'{"type":"ping","id":42}',
    b'{"type":"move","move":"stop","args":{"steal_from":2}}',
    b'{"type":"remove_bot","seat":3}',
    b'{"type":"add_bot","difficulty":"hard"}',
    b'{"type":"ready","ready":false}',
]


def _mutate(rng: random.Random, line: bytes) -> bytes:
    data = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:  # flip a bit
            i = min(at, len(data) - 1)
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert a random byte
            data.insert(at, rng.randrange(256))
        elif op == 2 and data:  # delete a byte
            del data[min(at, len(data) - 1)]
        elif op == 3:  # truncate
            del data[at:]
        else:  # splice in a JSON-ish token
            token = rng.choice([b"NaN", b"-Infinity", b"[", b"{", b'"', b"\\", b"1e999", b"\xff"])
            data[at:at] = token
    return bytes(data)


def _nested(rng: random.Random, depth: int) -> bytes:
    kinds = [rng.random() < 0.5 for _ in range(depth)]  # True: an array, False: an object
    opens = b"".join(b"[" if k else b'{"k":' for k in kinds)
    closes = b"".join(b"]" if k else b"}" for k in reversed(kinds))
    return b'{"type":"chat","text":' + opens + b"1" + closes + b"}"


def hostile_frame(rng: random.Random, max_line: int) -> tuple[str, bytes]:
    """One hostile line (no newline), with the family it comes from."""
    kind = rng.choice(
        ["mutated", "random", "nan", "deep", "utf8", "type", "field", "missing", "notobj"]
    )
    if kind == "mutated":
        line = _mutate(rng, rng.choice(VALID_LINES))
    elif kind == "random":
        line = bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))
    elif kind == "nan":
        token = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e999"])
        line = rng.choice(
            [
                b'{"type":"ping","id":' + token + b"}",
                b'{"type":"configure","grace":' + token + b"}",
                b'{"type":"chat","text":"x","extra":[' + token + b"]}",
            ]
        )
    elif kind == "deep":
        line = _nested(rng, rng.randint(p.DEFAULT_MAX_DEPTH + 1, 3000))
    elif kind == "utf8":
        bad = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])
        line = b'{"type":"chat","text":"a' + bad + b'b"}'
    elif kind == "type":
        line = json.dumps({"type": rng.choice(["fly", "", "HELLO", 7, None, "welcome"])}).encode()
    elif kind == "field":
        line = rng.choice(
            [
                b'{"type":"chat","text":5}',
                b'{"type":"move","move":"keep","args":"333"}',
                b'{"type":"remove_bot","seat":-1}',
                b'{"type":"hello","protocol":"1","name":"A"}',
                b'{"type":"move","move":"Keep!"}',
                b'{"type":"chat","text":"' + b"x" * 1001 + b'"}',
            ]
        )
    elif kind == "missing":
        line = rng.choice(
            [b'{"type":"chat"}', b'{"type":"hello","name":"A"}', b'{"type":"move"}']
        )
    else:
        line = rng.choice([b"[]", b"1", b'"hello"', b"null", b"true", b"{", b"}"])
    line = line.replace(b"\n", b" ")[:max_line]
    if not line.strip():
        line = b"?"
    return kind, line


def oversize_frame(max_line: int) -> bytes:
    return b'{"type":"chat","text":"' + b"x" * (max_line + 10) + b'"}'


# ---------------------------------------------------------------------------
# Scripted Gold Nuggets players and the reference game


async def play_nuggets(client: Client, seen: list | None = None) -> p.Over:
    """Play the client's seat with ``greedy_nuggets`` until the game is over."""
    async for message in client:
        if seen is not None:
            seen.append(message)
        if isinstance(message, p.State) and message.seat == client.seat:
            view = message.view
            if not view.over and view.current == message.seat:
                await client.send(greedy_nuggets(view))
        elif isinstance(message, p.Over):
            return message
        elif isinstance(message, Disconnected):
            raise AssertionError(f"disconnected: {message}")
    raise AssertionError("the stream ended before the game did")


def reference_nuggets(seed: str, names: list[str], first: int = 0) -> p.Over:
    """The same seeded game of greedy players, played sans-I/O at a bare table."""
    tables = Tables()
    table = tables.add(
        Table("Ref", "nuggets", Settings(seats=len(names), seed=seed, first_player=first))
    )
    inboxes: list[list] = []
    members = []
    for name in names:
        inbox: list = []
        members.append(tables.hello(p.Hello(protocol=3, name=name), inbox.append, print, 0.0))
        inboxes.append(inbox)
    for member in members:
        table.handle(member, p.Ready(), 0.0)
    for _ in range(100_000):
        if table.phase != "playing":
            break
        view = table.driver.view(None)
        seat = view["current"]
        own = [m for m in inboxes[seat] if isinstance(m, p.State)][-1].view
        table.handle(members[seat], greedy_nuggets(own), 0.0)
    overs = [m for m in inboxes[0] if isinstance(m, p.Over)]
    assert len(overs) == 1, "the reference game did not end"
    return overs[0]


def builtins(message: Any) -> Any:
    return msgspec.to_builtins(message)


def rss_kib(pid: int | str = "self") -> int:
    """Resident set size of a process, in KiB (Linux)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ---------------------------------------------------------------------------
# The TCP fuzzer


class FuzzTally:
    """What a fuzzing run sent and what came back."""

    def __init__(self) -> None:
        self.frames = 0
        self.by_kind: dict[str, int] = {}
        self.errors: dict[str, int] = {}
        self.decoded = 0
        self.oversize = 0
        self.closes = 0
        self.connections = 0
        self.mismatches: list[tuple] = []

    def add(self, other: FuzzTally) -> None:
        self.frames += other.frames
        self.decoded += other.decoded
        self.oversize += other.oversize
        self.closes += other.closes
        self.connections += other.connections
        self.mismatches += other.mismatches
        for mine, theirs in ((self.by_kind, other.by_kind), (self.errors, other.errors)):
            for key, value in theirs.items():
                mine[key] = mine.get(key, 0) + value


async def fuzz_over_tcp(
    port: int,
    rng: random.Random,
    frames: int,
    *,
    max_line: int,
    table: str = "Fuzz",
    batch: int = 40,
    oversize_every: int = 400,
    name: str = "Fuzzer",
) -> FuzzTally:
    """Send ``frames`` hostile lines to a live host as a spectator at ``table``.

    Lines go in batches, each closed by a ``ping`` marker; the host's answers up to the
    marker's ``pong`` must hold exactly the framing error the sans-I/O core gives each
    line, in order. Every ``oversize_every`` frames an oversize line ends the batch: it
    must get ``line_too_long`` and then a close, and the fuzzer connects again."""
    tally = FuzzTally()
    raw: Raw | None = None
    since_open = 0
    marker = 0
    while tally.frames < frames:
        if raw is None:
            raw = await Raw.open(port)
            await raw.hello(name, table=table, spectate=True)
            tally.connections += 1
            since_open = 0
        batch_lines = []
        expected: list[Code] = []
        decoded = 0
        for _ in range(min(batch, frames - tally.frames)):
            kind, line = hostile_frame(rng, max_line)
            outcome = oracle(line, max_line)
            if isinstance(outcome, p.Leave | p.Hello):
                continue  # a mutation that says leave or hello: not hostile, just a message
            tally.by_kind[kind] = tally.by_kind.get(kind, 0) + 1
            tally.frames += 1
            since_open += 1
            batch_lines.append(line + b"\n")
            if isinstance(outcome, Code):
                expected.append(outcome)
            elif outcome is not None:
                decoded += 1
        tally.decoded += decoded
        fatal = since_open >= oversize_every
        marker += 1
        if fatal:
            tally.oversize += 1
            tally.frames += 1
            tail = oversize_frame(max_line) + b"\n"
        else:
            tail = p.encode(p.Ping(id=f"m{marker}"))
        await raw.send(b"".join(batch_lines) + tail)
        got: list[str] = []
        while True:
            message = await raw.recv()
            if message is None:
                break
            if isinstance(message, p.Error):
                got.append(message.code)
                tally.errors[message.code] = tally.errors.get(message.code, 0) + 1
            elif isinstance(message, p.Pong) and message.id == f"m{marker}":
                break
        framing = [c for c in got if c in FRAMING_CODES]
        other = [c for c in got if c not in FRAMING_CODES]
        if fatal:
            if got[-1:] != [Code.LINE_TOO_LONG]:
                tally.mismatches.append(("oversize: no line_too_long last", got))
            other = other[:-1] if other[-1:] == [Code.LINE_TOO_LONG] else other
            if message is not None:
                tally.mismatches.append(("not closed after an oversize line", got))
            tally.closes += 1
            raw = None
        elif message is None:
            tally.mismatches.append(("closed without cause", got))
            raw = None
        if framing != expected:
            tally.mismatches.append(("framing codes", expected, framing))
        if len(other) > decoded or any(c not in ALL_CODES for c in other):
            tally.mismatches.append(("other codes", decoded, other))
    if raw is not None:
        raw.close()
    return tally


class Player:
    """A scripted Gold Nuggets player on a raw TCP connection (it can resume by token)."""

    def __init__(self, raw: Raw, welcome: p.Welcome) -> None:
        self.raw, self.welcome = raw, welcome
        self.seen: list = []
        self.over: p.Over | None = None

    @classmethod
    async def join(cls, port: int, name: str, token: str | None = None) -> Player:
        raw = await Raw.open(port)
        welcome = await raw.hello(name, token=token)
        return cls(raw, welcome)

    async def play(self) -> None:
        """Play until the game is over."""
        while self.over is None:
            message = await self.raw.recv()
            if message is None:
                return
            self.seen.append(message)
            if isinstance(message, p.Over):
                self.over = message
            elif isinstance(message, p.State) and message.seat == self.welcome.seat:
                view = message.view
                if not view.over and view.current == message.seat:
                    await self.raw.send(greedy_nuggets(view))


async def start_nuggets(clock, store, supply=12):
    host = saving_host(clock, store)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Saloon", "nuggets", seats=3, bots=1, seed="s", supply=supply,
                              bot_pace=0.5)  # fmt: skip
    ann = await Player.join(host.port, "Ann")
    bob = await Player.join(host.port, "Bob")
    await ann.raw.send(p.Ready())
    await bob.raw.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    return host, table, ann, bob


async def line_of(stream, pattern: str):
    while True:
        line = (await asyncio.wait_for(stream.readline(), 20)).decode()
        assert line, f"the process ended before printing {pattern!r}"
        if match := re.search(pattern, line):
            return match


async def play_until(player: Raw, seat: int, done, first: p.State | None = None) -> p.State:
    """Play Gold Nuggets at ``seat`` (greedy) until ``done(state)``, starting from the
    state ``first`` if given; returns that state."""
    while True:
        message = first or await asyncio.wait_for(player.recv(), 20)
        first = None
        assert message is not None, "the host closed the connection"
        if isinstance(message, p.State) and message.seat == seat:
            if done(message):
                return message
            view = message.view
            if not view.over and view.current == seat:
                # a pace, not a wait: the time is what keeps the player within the host's
                # rate limit (20 a second, on the real clock of a separate process)
                await asyncio.sleep(0.06)
                await player.send(greedy_nuggets(view))


def saving_host(clock, store: Store) -> Host:
    return Host(clock=clock, store=store)
