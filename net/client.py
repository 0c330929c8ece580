"""The client side, for the TUI and for bots: one small async API over TCP or in-process.

    client = await Client.connect("192.168.1.20", 7777, "Ann")     # TCP
    client = await Client.local(host, "Ann")                        # in-process host
    await client.send(Ready())
    async for message in client:          # host messages, plus Reconnecting/Reconnected
        ...                               # the stream ends after a Bye or Disconnected
    await client.close()

Both ways carry the same bytes through the same framing (``net.protocol``), so a game
looks the same to the TUI whichever way it is played. If the connection drops, the
client reconnects with its resume token and back-off, and says so in the stream.
Failures are typed: :class:`Unreachable`, :class:`NotAHost`, :class:`VersionMismatch`,
:class:`TableFull`, :class:`Rejected`, :class:`ConnectionLost`, all :class:`NetError`
(``net.client_errors``; every name here is importable from this module).

The hello (``net.client_hello``) holds to h11's rule: whatever a peer sends and however
it sends it, :meth:`Client.connect` either gets a welcome or raises a :class:`NetError`,
and within a bounded time: ``answer_timeout`` (5 s) for the first byte after the hello
and for any pause inside the answer, ``handshake_timeout`` (15 s) for the whole
exchange. ``tests/net/test_client_handshake.py`` fuzzes it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from net import protocol as p
from net.asks import Asks
from net.client_errors import (
    ConnectionLost,
    NetError,
    NotAHost,
    Rejected,
    TableFull,
    Unreachable,
    VersionMismatch,
)
from net.client_hello import (
    ANSWER_TIMEOUT,
    HANDSHAKE_TIMEOUT,
    Opener,
    format_address,
    handshake,
    why_unreachable,
)
from net.clock import Clock, RealClock

__all__ = ["ANSWER_TIMEOUT", "BACKOFF", "HANDSHAKE_TIMEOUT", "RETRY_EVERY", "Client",
           "ConnectionLost", "Disconnected", "NetError", "NotAHost", "Reconnected",
           "Reconnecting", "Rejected", "TableFull", "Unreachable", "VersionMismatch"]

BACKOFF = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0)  # seconds before each attempt
# A client that keeps trying (``retry_for``): the same start, then one attempt every
# RETRY_EVERY seconds, short enough to be back within a restored game's wait (15 s).
RETRY_EVERY = 5.0


@dataclass(frozen=True)
class Reconnecting:
    """Stream item: the connection dropped; attempt ``attempt`` follows in ``delay`` s.
    ``failed`` says why the attempt before it failed (None for the first)."""

    attempt: int
    delay: float
    reason: str
    failed: str | None = None


@dataclass(frozen=True)
class Reconnected:
    """Stream item: the seat is back; ``welcome`` is the host's fresh welcome."""

    welcome: p.Welcome


@dataclass(frozen=True)
class Disconnected:
    """Stream item, always the last: the connection is over (``error`` says why, if
    it failed; None after a ``bye`` or ``close()``)."""

    reason: str
    error: NetError | None = None


async def _close_gracefully(reader: Any, writer: Any, timeout: float = 1.0) -> None:
    """Half-close, read until the host closes (at most ``timeout``), then close.

    Closing a TCP socket while the host's messages sit unread in it makes the kernel
    send a reset, and the host can then lose what we sent last (a ``leave``): it reads
    a reset instead. ``tests/hardening/test_leave.py`` shows it."""
    with contextlib.suppress(Exception):
        if writer.can_write_eof():
            writer.write_eof()
            async with asyncio.timeout(timeout):
                while await reader.read(65536):
                    pass
    with contextlib.suppress(Exception):
        writer.close()


class Client:
    """A connection to a host (see the module docstring)."""

    #: run (as a task) after every handshake, the first and each resume, with the
    #: client: a served app binds its connection to its door's measurement of the
    #: person's link (lag-fair races, ``net.served``). None everywhere else.
    after_handshake: Callable[[Client], Awaitable[None]] | None = None

    def __init__(
        self,
        opener: Opener,
        hello: p.Hello,
        *,
        reconnect: bool = True,
        retry_for: float | None = None,
        clock: Clock | None = None,
        max_line: int = p.DEFAULT_MAX_LINE,
        address: str = "the host",
        answer_timeout: float = ANSWER_TIMEOUT,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
    ) -> None:
        self._opener = opener
        self._hello = hello
        self._identity: Any = None  # a net.identity.Identity that proves the hello's key
        self._address = address  # how messages name the peer, e.g. "127.0.0.1:8000"
        self._answer_timeout = answer_timeout
        self._handshake_timeout = handshake_timeout
        self._reconnect = reconnect
        self._retry_for = retry_for
        self._clock = clock
        self._max_line = max_line
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._reader: asyncio.StreamReader | None = None
        self._writer: Any = None
        self._conn: p.Connection | None = None
        self._task: asyncio.Task | None = None
        self._closed = False
        self._ended = False
        self._awake = asyncio.Event()  # cleared while suspended (nobody at the keyboard)
        self._awake.set()
        self._kick = asyncio.Event()  # set by retry_now: the next attempt at once
        self.welcome: p.Welcome | None = None
        #: host clock minus local clock, from the last ``state`` (bots plan in host time)
        self.offset = 0.0
        self.asks = Asks()  # questions the host answers (``net.asks``): ``standings``

    # -- opening -----------------------------------------------------------------------

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        table: str | None = None,
        spectate: bool = False,
        reconnect: bool = True,
        retry_for: float | None = None,
        timeout: float = 10.0,
        clock: Clock | None = None,
        protocol: int = p.PROTOCOL_VERSION,
        token: str | None = None,
        answer_timeout: float = ANSWER_TIMEOUT,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        identity: Any = None,
    ) -> Client:
        """Join a host over TCP. Raises Unreachable, NotAHost, VersionMismatch,
        TableFull or Rejected (all NetError, nothing else); on success
        ``client.welcome`` holds the host's welcome. ``timeout`` bounds the TCP
        connect, ``answer_timeout`` the wait for the first byte after the hello (and
        any pause in the answer),
        ``handshake_timeout`` the whole hello. ``retry_for``: after a drop, keep trying
        this many seconds (``math.inf``: until the host answers or ``close()``); None
        gives up after the short ``BACKOFF``. (``protocol`` is for tests: it claims
        another protocol version.) ``identity`` (a ``net.identity.Identity``) proves
        the player's key in the hello: without one the player is a guest there."""

        async def opener() -> tuple[asyncio.StreamReader, Any]:
            try:
                return await asyncio.wait_for(
                    asyncio.open_connection(host, port, limit=1 << 16), timeout
                )
            except (TimeoutError, OSError) as exc:
                raise Unreachable(why_unreachable(host, port, exc, timeout)) from None

        key = identity.public if identity is not None and protocol >= 4 else None
        hello = p.Hello(protocol=protocol, name=name, table=table, spectate=spectate, token=token,
                        key=key)
        client = cls(
            opener,
            hello,
            reconnect=reconnect,
            retry_for=retry_for,
            clock=clock,
            address=format_address(host, port),
            answer_timeout=answer_timeout,
            handshake_timeout=handshake_timeout,
        )
        client._identity = identity
        await client._open()
        return client

    @classmethod
    async def local(
        cls,
        host: Any,
        name: str,
        *,
        table: str | None = None,
        spectate: bool = False,
        clock: Clock | None = None,
        token: str | None = None,
        identity: Any = None,
    ) -> Client:
        """Join an in-process ``net.host.Host`` (local play) through the same protocol;
        ``token`` takes a seat back (e.g. a saved hot-seat game); ``identity`` proves a
        key as ``connect``'s does."""

        async def opener() -> tuple[asyncio.StreamReader, Any]:
            return host.open_local()

        hello = p.Hello(protocol=p.PROTOCOL_VERSION, name=name, table=table, spectate=spectate,
                        token=token, key=None if identity is None else identity.public)
        client = cls(opener, hello, clock=clock)
        client._identity = identity
        await client._open()
        return client

    async def _open(self) -> None:
        welcome, leftovers = await self._handshake(self._hello)
        self.welcome = welcome
        for message in leftovers:
            if not self._answered(message):
                self._queue.put_nowait(message)
        self._handshaken()
        self._task = asyncio.get_running_loop().create_task(self._pump())

    async def _handshake(self, hello: p.Hello) -> tuple[p.Welcome, list[Any]]:
        """Say hello and read up to the welcome (``net.client_hello``)."""
        identity = self._identity
        signer = None if identity is None else lambda nonce: identity.prove(nonce, hello.name)
        return await handshake(self._opener, hello, self._opened, address=self._address,
                               max_line=self._max_line, answer_timeout=self._answer_timeout,
                               handshake_timeout=self._handshake_timeout, signer=signer)

    def _opened(self, reader: asyncio.StreamReader, writer: Any, conn: p.Connection) -> None:
        self._reader, self._writer, self._conn = reader, writer, conn

    # -- using -------------------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """This client's (first) seat, or None for a spectator."""
        return None if self.welcome is None else self.welcome.seat

    @property
    def protocol(self) -> int:
        """The protocol version this connection speaks: its hello's, or the host's if older."""
        host = self.welcome.protocol if self.welcome is not None else self._hello.protocol
        return min(self._hello.protocol, host)

    @property
    def address(self) -> str:
        """The host, as messages name it (``192.168.1.20:7777``; "the host" in-process)."""
        return self._address

    @property
    def seats(self) -> list[int]:
        """Every seat this client controls (several at a hot-seat table)."""
        return [] if self.welcome is None else list(self.welcome.seats)

    async def send(self, message: Any) -> None:
        """Send a client message (``net.protocol``: Ready, Chat, Move, ...).

        While reconnecting the message is dropped: the host sends a fresh state when
        the seat is back, so act on that. Raises ConnectionLost once the stream ended."""
        if self._ended or self._closed:
            raise ConnectionLost("The connection is closed.")
        if self._writer is None or self._conn is None:
            return
        data = self._conn.send(message)
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (ConnectionError, OSError):
            pass  # the reading side notices and reconnects

    @property
    def local_port(self) -> int | None:
        """The local TCP port of the connection now open (None in-process)."""
        name = self._writer.get_extra_info("sockname") if self._writer is not None else None
        return name[1] if isinstance(name, tuple) and len(name) >= 2 else None

    def _handshaken(self) -> None:
        hook = type(self).after_handshake
        if hook is not None:
            task = asyncio.get_running_loop().create_task(hook(self))
            self._hooks = getattr(self, "_hooks", set())
            self._hooks.add(task)
            task.add_done_callback(self._hooks.discard)

    def _answered(self, message: Any) -> bool:
        """Answer the host's probe at once, without waiting for the app (lag-fair
        races: the host times the round trip); True if ``message`` was one."""
        if not isinstance(message, p.Probe):
            return False
        if self._writer is not None and self._conn is not None:
            try:
                self._writer.write(self._conn.send(p.ProbeReply(id=message.id)))
            except (ConnectionError, OSError, p.LocalProtocolError):
                pass  # the reading side notices a broken line
        return True

    async def recv(self) -> Any:
        """The next stream item; raises ConnectionLost after the stream ended."""
        if self._ended and self._queue.empty():
            raise ConnectionLost("The connection is closed.")
        return await self._queue.get()

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        while not (self._ended and self._queue.empty()):
            item = await self.recv()
            yield item
            if isinstance(item, Disconnected):
                return

    async def close(self) -> None:
        """Close the connection (the seat is kept for the grace period; send Leave
        first to give it up)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._writer is not None:
            await _close_gracefully(self._reader, self._writer)
        if not self._ended:
            self._end(Disconnected("closed"))

    # -- the background reader ---------------------------------------------------------

    def _end(self, item: Disconnected) -> None:
        self._ended = True
        self._queue.put_nowait(item)

    @property
    def clock(self) -> Clock:
        if self._clock is None:
            self._clock = RealClock()
        return self._clock

    async def _pump(self) -> None:
        while True:
            ended, reason = await self._read_until_gone()
            if ended is not None:  # a bye: the host ended it on purpose
                self._end(Disconnected(ended))
                return
            if not self._reconnect or self.welcome is None:
                self._end(
                    Disconnected(reason, ConnectionLost("The connection to the host was lost."))
                )
                return
            if not await self._resume(reason):
                return

    async def _read_until_gone(self) -> tuple[str | None, str]:
        """Read messages into the queue until the connection ends: the bye's reason
        (None if the line dropped, or the host stopped keeping the table), and why."""
        assert self._conn is not None
        conn, reader = self._conn, self._reader
        while True:
            try:
                message = conn.next_message()
            except p.RemoteProtocolError:
                return None, "connection lost"  # a broken host stream: resume
            if message is p.NEED_DATA:
                try:
                    data = await reader.read(65536)
                except (ConnectionError, OSError):
                    data = b""
                conn.receive_data(data)
                continue
            if message is p.CLOSED:
                return None, "suspended" if not self._awake.is_set() else "connection lost"
            if isinstance(message, p.Bye) and message.reason == p.SUSPENDED \
                    and self._retry_for is not None:
                return None, "the host stopped; it keeps the table"  # wait for its return
            if self._answered(message) or self.asks.answered(message):
                continue
            if isinstance(message, p.State):
                self.offset = message.at - self.clock.now()
            elif isinstance(message, p.Welcome):
                self.welcome = message  # e.g. after add_local: the new list of seats
            self._queue.put_nowait(message)
            if isinstance(message, p.Bye):
                return message.reason, message.reason

    # -- away and back ------------------------------------------------------------------

    def suspend(self) -> None:
        """Nobody is at this client (its served terminal detached): drop the connection
        as a dropped line would, so the host marks the seat away at once, and make no
        attempt to come back until :meth:`wake`."""
        if self._ended or self._closed or not self._awake.is_set():
            return
        self._awake.clear()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()

    def wake(self) -> None:
        """The person is back: reconnect (and take the seat back) at once."""
        self._awake.set()
        self._kick.set()

    def retry_now(self) -> None:
        """While reconnecting, make the next attempt now instead of after its delay."""
        self._kick.set()

    def _delay(self, attempt: int, since: float) -> float | None:
        """Seconds before attempt ``attempt`` (from 1), or None: no more attempts."""
        if attempt <= len(BACKOFF):
            return BACKOFF[attempt - 1]
        if self._retry_for is None or self.clock.now() - since >= self._retry_for:
            return None
        return RETRY_EVERY

    async def _pause(self, delay: float) -> None:
        """Wait ``delay`` seconds (cut short by ``retry_now``), then while suspended."""
        if delay > 0 and not self._kick.is_set():
            waits = [asyncio.ensure_future(self._kick.wait()),
                     asyncio.ensure_future(self.clock.sleep_until(self.clock.now() + delay))]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()
        self._kick.clear()
        await self._awake.wait()

    async def _resume(self, reason: str) -> bool:
        assert self.welcome is not None
        self._writer = self._conn = None
        if self.welcome.token is None:  # a spectator has no seat: it just watches again
            hello = msgspec.structs.replace(self._hello, table=self.welcome.table.name)
        else:
            hello = p.Hello(
                protocol=p.PROTOCOL_VERSION,
                name=self.welcome.name,
                token=self.welcome.token,
                table=self.welcome.table.name,
            )
        error: NetError | None = None
        self._kick.clear()  # a j (or wake) from before this drop skips no back-off now
        await self._awake.wait()  # a suspended client tries once its person is back
        since = self.clock.now()
        attempt = 0
        while (delay := self._delay(attempt + 1, since)) is not None:
            attempt += 1
            self._queue.put_nowait(Reconnecting(attempt, delay, reason,
                                                error.message if error else None))
            await self._pause(delay)
            try:
                welcome, leftovers = await self._handshake(hello)
            except Unreachable as exc:
                error = exc
                continue
            except NetError as exc:  # the seat is gone (stale token), refused, not a host
                error = exc
                break
            self.welcome = welcome
            self._queue.put_nowait(Reconnected(welcome))
            for message in leftovers:
                if not self._answered(message):
                    self._queue.put_nowait(message)
            self._handshaken()
            return True
        lost = ConnectionLost(
            f"The connection was lost and could not be resumed: {error.message if error else ''}",
            code=error.code if error else None,
        )
        self._end(Disconnected(reason, lost))
        return False
