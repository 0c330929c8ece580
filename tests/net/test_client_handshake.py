"""The client's handshake against peers that are not Motherlode hosts (issue 10, point 4).

h11's rule, applied to ``Client.connect``: whatever a peer on 127.0.0.1 sends (random
bytes, messages of the wrong kind, an HTTP answer, partial and huge lines) and however
(whole, cut into pieces, or a byte per read), then closing, resetting or stalling,
the client either gets a welcome or raises a ``NetError`` subclass, never anything
else, and within a bounded time. Plus the cases a person meets: a mistyped port that
reaches a web server (``python -m http.server``), a silent service, and a reconnect
that lands on one.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net import protocol as p
from net.client import (
    Client,
    ConnectionLost,
    Disconnected,
    NetError,
    NotAHost,
    Reconnecting,
    Rejected,
    Unreachable,
)
from tests.net.helpers import http_server

ANSWER = 0.05  # seconds: the fuzz's answer time-out (the default is 5 s)
HANDSHAKE = 0.3  # seconds: the fuzz's whole-hello time-out (the default is 15 s)
SLACK = 3.0  # seconds over the time-out a refusal may take on a busy machine


def _table() -> p.TableInfo:
    return p.TableInfo(
        name="Saloon",
        game="nuggets",
        phase="lobby",
        owner=0,
        seats=[p.SeatInfo(seat=0, name="Ann", kind="human", ready=False, connected=True)],
        settings=p.TableSettings(
            seats=2,
            difficulty="normal",
            first_player=None,
            seeded=False,
            game={"grab_timeout": 10.0, "call_window": 5.0}, grace=30.0,
            bot_pace=0.9,
            hotseat=False,
        ),
        spectators=0,
    )


WELCOME = p.encode(
    p.Welcome(protocol=3, name="Ann", seat=0, seats=[0], token="1.x", resumed=False, table=_table())
)
HOST_LINES = [
    p.encode(p.Pong(id=1, at=0.0)),
    p.encode(p.Notice(event="joined", name="Ann", seat=0)),
    p.encode(p.ChatLine(name="\x1b[31mEve", seat=None, text="hi", at=1.0)),
    p.encode(p.TableUpdate(table=_table())),
    p.encode(p.Over(winners=[0], scores=[5], seed="s", seed_hash="h")),
    p.encode(p.State(seat=0, view={"game": "nuggets"}, events=[], at=0.0)),
    p.encode(p.Error(code="table_full", message="full", ref="hello")),
    p.encode(p.Error(code="bad_version", message="old", ref="hello")),
    p.encode(p.Error(code="no_such_table", message="\x1b]0;x\x07no", ref="hello")),
    p.encode(p.Bye(reason="shutdown")),
    WELCOME,
]
HTTP = (
    b"HTTP/1.0 400 Bad request version\r\nServer: SimpleHTTP/0.6 Python/3.11\r\n"
    b"Content-Type: text/html;charset=utf-8\r\nContent-Length: 9\r\n\r\n<html>\r\n\r\n"
)
OTHERS = [
    HTTP,
    b"SSH-2.0-OpenSSH_9.6\r\n",
    b"220 mail.example ESMTP ready\r\n",
    b'{"jsonrpc":"2.0","id":1,"error":{"code":-32700}}\n',
    b"\x16\x03\x01\x00\xa5\x01\x00\x00",  # a TLS record
    b"\x1b[2J\x1b]0;owned\x07\xc2\x9b31m\xe2\x80\xae",
]


def _json_object(draw_value):
    keys = st.sampled_from(["type", "code", "message", "table", "seat", "name", "x"])
    return st.dictionaries(keys, draw_value, max_size=5).map(
        lambda d: msgspec.json.encode(d) + b"\n"
    )


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["welcome", "error", "bye", "state", "table", "pong", "hello"]),
)
_json_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)

PART = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(HOST_LINES),
    st.sampled_from(OTHERS),
    _json_object(_json_values),
    st.sampled_from(HOST_LINES).map(lambda line: line[: len(line) // 2]),  # partial line
    st.sampled_from([b"x" * 70_000, b"[" * 40 + b"]" * 40 + b"\n", b"\n" * 100, b"{}\n" * 20]),
)
ENDING = st.sampled_from(["close", "close", "reset", "stall"])


@contextlib.asynccontextmanager
async def peer(parts: list[bytes], ending: str, cuts: list[int] | None = None, read_hello=True):
    """A TCP server on 127.0.0.1 that answers any connection with ``parts`` (cut at
    ``cuts``), then closes, resets or stalls; yields its port."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            if read_hello:
                with contextlib.suppress(asyncio.LimitOverrunError, ValueError):
                    await reader.readline()
            data = b"".join(parts)
            points = sorted({c % (len(data) + 1) for c in cuts or []})
            edges = [0, *points, len(data)]
            for a, b in zip(edges, edges[1:], strict=False):
                if a < b:
                    writer.write(data[a:b])
                    await writer.drain()
                    await asyncio.sleep(0)
            if ending == "stall":
                await reader.read()  # until the client gives up and closes
            elif ending == "reset":
                writer.transport.abort()
                return
            writer.close()
        except (ConnectionError, OSError):
            writer.transport.abort()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 1.0)


async def _connect(port: int, answer: float = ANSWER) -> Client | NetError:
    try:
        return await Client.connect(
            "127.0.0.1",
            port,
            "Ann",
            reconnect=False,
            answer_timeout=answer,
            handshake_timeout=max(HANDSHAKE, 3 * answer),
        )
    except NetError as error:
        return error


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    parts=st.lists(PART, max_size=6),
    ending=ENDING,
    cuts=st.lists(st.integers(0, 10**6), max_size=12),
    read_hello=st.booleans(),
)
@pytest.mark.slow
def test_any_peer_gives_a_welcome_or_a_net_error_in_bounded_time(parts, ending, cuts, read_hello):
    async def run() -> None:
        async with peer(parts, ending, cuts, read_hello) as port:
            started = time.monotonic()
            outcome = await _connect(port)
            elapsed = time.monotonic() - started
            if isinstance(outcome, Client):
                assert isinstance(outcome.welcome, p.Welcome)
                await outcome.close()
            else:
                assert isinstance(outcome, NetError), outcome
                assert outcome.message  # a sentence for a person
                assert "\x1b" not in outcome.message and "\x9b" not in outcome.message
            assert elapsed < HANDSHAKE + SLACK

    asyncio.run(run())


class _Writer:
    """The client's end for writing, in memory: it swallows what the client says."""

    def __init__(self) -> None:
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.closed:
            raise ConnectionResetError("closed")

    async def drain(self) -> None:
        pass

    def can_write_eof(self) -> bool:
        return False

    def write_eof(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(parts=st.lists(PART, max_size=4), ending=st.sampled_from(["close", "stall"]))
@pytest.mark.slow
def test_any_answer_fed_byte_by_byte_gives_a_welcome_or_a_net_error(parts, ending):
    """The same rule with every byte its own read: the handshake sees each boundary."""
    data = b"".join(parts)[:3000]  # a huge line is the whole-write test's

    async def run() -> None:
        reader = asyncio.StreamReader()
        feeding: list[asyncio.Task] = []

        async def feed() -> None:
            for i in range(len(data)):
                reader.feed_data(data[i : i + 1])
                await asyncio.sleep(0)
            if ending == "close":
                reader.feed_eof()

        async def opener():
            feeding.append(asyncio.get_running_loop().create_task(feed()))
            return reader, _Writer()

        hello = p.Hello(protocol=3, name="Ann")
        client = Client(opener, hello, reconnect=False, answer_timeout=ANSWER,
                        handshake_timeout=HANDSHAKE)  # fmt: skip
        try:
            await client._open()
        except NetError as error:
            assert error.message
        else:
            assert isinstance(client.welcome, p.Welcome)
            await client.close()
        finally:
            for task in feeding:
                task.cancel()

    asyncio.run(run())


# -- the cases a person meets -----------------------------------------------------------


async def test_a_web_server_is_not_a_motherlode_host():
    with http_server() as port:
        with pytest.raises(NotAHost) as info:
            await Client.connect("127.0.0.1", port, "Ann")
    assert info.value.message == (
        f"127.0.0.1:{port} answered, but it is not a Motherlode host (it speaks HTTP)."
    )
    assert isinstance(info.value, NetError)


@pytest.mark.parametrize(
    ("parts", "ending", "kind", "words"),
    [
        ([b"\xff\xfe garbage\n"], "close", NotAHost, "not the Motherlode protocol"),
        ([b"SSH-2.0-OpenSSH_9.6\r\n"], "stall", NotAHost, "it speaks SSH"),
        ([b'{"type":"welc'], "close", NotAHost, "closed the connection without a welcome"),
        ([b'{"type":"welc'], "stall", NotAHost, "went quiet for 0.5 s in the middle"),
        ([b"x" * 70_000], "stall", NotAHost, "not the Motherlode protocol"),
        ([p.encode(p.Pong(id=1, at=0.0)) * 20], "stall", NotAHost, "no welcome"),
        ([], "close", Unreachable, "closed the connection without answering"),
        ([], "stall", Unreachable, "said nothing for 0.5 s after the hello"),
        (
            [p.encode(p.Error(code="no_such_table", message="none", ref="hello"))],
            "stall",
            Rejected,
            "none",
        ),
    ],
)
@pytest.mark.slow
async def test_each_kind_of_wrong_peer_has_its_error(parts, ending, kind, words):
    async with peer(parts, ending) as port:
        outcome = await _connect(port, answer=0.5)  # time enough for the peer to answer
    assert type(outcome) is kind and words in outcome.message, outcome


async def test_a_silent_peer_is_reported_within_the_answer_time_out():
    async with peer([], "stall") as port:
        started = time.monotonic()
        with pytest.raises(Unreachable) as info:
            await Client.connect("127.0.0.1", port, "Ann", answer_timeout=0.2)
        elapsed = time.monotonic() - started
    assert 0.2 <= elapsed < 0.2 + SLACK
    assert f"127.0.0.1:{port} accepted the connection but said nothing for 0.2 s" in str(info.value)


async def test_a_peer_that_trickles_forever_is_cut_off_by_the_handshake_time_out():
    async def trickle(reader, writer):
        await reader.readline()
        with contextlib.suppress(ConnectionError):
            while True:  # a byte every 10 ms: never a pause, never a line
                writer.write(b"x")
                await writer.drain()
                await asyncio.sleep(0.01)  # the time is what is tested: a byte at a time

    server = await asyncio.start_server(trickle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        started = time.monotonic()
        with pytest.raises(NotAHost) as info:
            await Client.connect("127.0.0.1", port, "Ann", handshake_timeout=0.5)
        elapsed = time.monotonic() - started
    finally:
        server.close()
    assert 0.5 <= elapsed < 0.5 + SLACK
    assert "its answer was not a welcome after 0.5 s" in info.value.message


async def test_a_reconnect_that_lands_on_another_server_ends_the_stream():
    """The host's port is taken over by something else while the client is away: the
    reconnect says so once and ends, rather than looping or crashing its task."""
    answers = [[WELCOME], [HTTP]]

    async def serve(reader, writer):
        await reader.readline()
        writer.write(b"".join(answers.pop(0) if answers else [HTTP]))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        client = await Client.connect("127.0.0.1", port, "Ann")
        items = []
        while not isinstance(items[-1] if items else None, Disconnected):
            items.append(await asyncio.wait_for(client.recv(), 10))
    finally:
        server.close()
    assert isinstance(items[0], p.Welcome)
    assert [i.attempt for i in items if isinstance(i, Reconnecting)] == [1]
    error = items[-1].error
    assert isinstance(error, ConnectionLost)
    assert f"127.0.0.1:{port} answered, but it is not a Motherlode host" in error.message
