"""The client's hello: open a connection, say hello, read up to the host's welcome.

It holds to h11's rule: whatever a peer sends (garbage, an HTTP answer, messages of the
wrong kind, a line that never ends, nothing at all) and however it sends it (whole, a
byte at a time, then closing or stalling), :func:`handshake` either returns a welcome
or raises a :class:`~net.client_errors.NetError`, and within a bounded time:
``ANSWER_TIMEOUT`` for the first byte after the hello and for any pause inside the
answer, ``HANDSHAKE_TIMEOUT`` for the whole exchange.
``tests/net/test_client_handshake.py`` fuzzes it. :class:`net.client.Client` says
hello through it when it opens and each time it resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from net import protocol as p
from net.client_errors import NotAHost, Rejected, TableFull, Unreachable, VersionMismatch
from net.protocol import Code

Opener = Callable[[], Awaitable[tuple[asyncio.StreamReader, Any]]]
#: called with the reader, the writer and the connection the moment a welcome is read
Opened = Callable[[asyncio.StreamReader, Any, p.Connection], None]

HANDSHAKE_TIMEOUT = 15.0  # connect, hello and welcome, at most
# A host answers a hello at once (it builds the welcome without waiting on anything),
# so silence this long after the hello means a stuck host or another kind of server.
ANSWER_TIMEOUT = 5.0
# Messages a peer may send before its welcome: a host sends none (a refusal is an
# error, which ends the hello); a flood of them is not a host.
MAX_EARLY = 16

_HELLO_ERRORS = {
    Code.BAD_VERSION: VersionMismatch,
    Code.TABLE_FULL: TableFull,
}


def format_address(host: str, port: int) -> str:
    """``host:port`` as a person types it (an IPv6 host in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def why_unreachable(host: str, port: int, exc: BaseException, timeout: float) -> str:
    """Why a connection could not open, in words (never an ``[Errno 111]``)."""
    where = format_address(host, port)
    if isinstance(exc, ConnectionRefusedError):
        return f"Nothing answers at {where}: is the host running, and is the port right?"
    if isinstance(exc, TimeoutError):
        return (f"No answer from {where} within {timeout:g} s: is the address right, and "
                "the host on this network (a firewall may block the port)?")
    if isinstance(exc, socket.gaierror):
        return f"No machine called {host!r} is known here: check the address."
    reason = getattr(exc, "strerror", None) or type(exc).__name__
    return f"Cannot reach {where}: {reason[:1].lower()}{reason[1:]}."


def _what_it_said(first: bytes) -> str:
    """A few words on what a peer that is not a host sent; never its bytes (hostile)."""
    if first.startswith(b"HTTP/") or first[:1] == b"<":
        return "it speaks HTTP"
    if first.startswith(b"SSH-"):
        return "it speaks SSH"
    return "what it sent is not the Motherlode protocol"


def drain(conn: p.Connection) -> list[Any]:
    """The messages already in ``conn``; a bad line stops it (the pump reads on)."""
    out = []
    with contextlib.suppress(p.RemoteProtocolError):
        while (message := conn.next_message()) not in (p.NEED_DATA, p.CLOSED):
            out.append(message)
    return out


async def handshake(opener: Opener, hello: p.Hello, opened: Opened, *, address: str,
                    max_line: int, answer_timeout: float = ANSWER_TIMEOUT,
                    handshake_timeout: float = HANDSHAKE_TIMEOUT,
                    signer: Callable[[str], str] | None = None,
                    ) -> tuple[p.Welcome, list[Any]]:
    """Say hello and read up to the welcome; raises only NetError (see the module
    docstring), within ``handshake_timeout``. Returns the welcome and what came with
    it, the welcome first (for the stream); ``opened`` gets the connection as the
    welcome is read. ``address`` is how messages name the peer. ``signer`` answers
    the host's ``challenge`` (protocol 4): the nonce in, the signature out."""
    hello_to = _Hello(address, max_line, answer_timeout)
    hello_to.signer = signer
    answered = [False]  # set once any byte arrived: a stall then means "not a host"
    try:
        return await asyncio.wait_for(hello_to.greet(opener, hello, opened, answered),
                                      handshake_timeout)
    except TimeoutError:
        if answered[0]:
            raise hello_to.not_a_host(
                f"its answer was not a welcome after {handshake_timeout:g} s"
            ) from None
        raise Unreachable(f"No answer from {address} within {handshake_timeout:g} s.") from None


class _Hello:
    """One hello to ``address``."""

    def __init__(self, address: str, max_line: int, answer_timeout: float) -> None:
        self.address = address
        self.max_line = max_line
        self.answer_timeout = answer_timeout
        self.signer: Callable[[str], str] | None = None

    def not_a_host(self, why: str) -> NotAHost:
        return NotAHost(f"{self.address} answered, but it is not a Motherlode host ({why}).")

    async def greet(self, opener: Opener, hello: p.Hello, opened: Opened,
                    answered: list[bool]) -> tuple[p.Welcome, list[Any]]:
        reader, writer = await opener()
        conn = p.Connection(p.CLIENT, max_line=self.max_line, version=hello.protocol)
        first = b""  # the first bytes received, to say what answered
        try:
            writer.write(conn.send(hello))
            await writer.drain()
            early: list[Any] = []
            while True:
                try:
                    message = conn.next_message()
                except p.RemoteProtocolError:
                    raise self.not_a_host(_what_it_said(first)) from None
                if message is p.NEED_DATA:
                    try:
                        # A host writes its welcome at once: a pause this long, before
                        # the first byte or inside the answer, is not a host's.
                        async with asyncio.timeout(self.answer_timeout):
                            data = await reader.read(65536)
                    except TimeoutError:
                        if answered[0]:
                            raise self.not_a_host(
                                f"it went quiet for {self.answer_timeout:g} s in the middle "
                                "of its answer"
                            ) from None
                        raise Unreachable(
                            f"{self.address} accepted the connection but said nothing "
                            f"for {self.answer_timeout:g} s after the hello: a stuck "
                            "host, or not a Motherlode host."
                        ) from None
                    if data:
                        answered[0] = True
                        first = first or data[:64]
                    conn.receive_data(data)
                    continue
                if message is p.CLOSED:
                    if answered[0]:
                        raise self.not_a_host("it closed the connection without a welcome")
                    raise Unreachable(
                        f"{self.address} closed the connection without answering the hello."
                    )
                if isinstance(message, p.Welcome):
                    opened(reader, writer, conn)
                    # what the host sent after the welcome stays for the stream
                    return message, [message, *early, *drain(conn)]
                if isinstance(message, p.Error):
                    kind = _HELLO_ERRORS.get(message.code, Rejected)
                    raise kind(message.message, code=message.code)
                if isinstance(message, p.Challenge) and self.signer is not None:
                    try:
                        signature = self.signer(message.nonce)
                    except ValueError:
                        raise self.not_a_host("its challenge is not 32 bytes") from None
                    writer.write(conn.send(p.Prove(signature=signature)))
                    await writer.drain()
                    self.signer = None  # one challenge a hello
                    continue
                if isinstance(message, p.Bye):  # shutting down as we said hello
                    raise Unreachable(f"{self.address} is closing ({message.reason[:40]}).")
                early.append(message)
                if len(early) > MAX_EARLY:
                    raise self.not_a_host("it sent message after message but no welcome")
        except (ConnectionError, OSError) as exc:
            writer.close()
            if answered[0]:  # it spoke, then reset: not a host's way
                raise self.not_a_host("it dropped the connection without a welcome") from None
            # the host went away during the hello (e.g. killed between accept and
            # welcome): the same as unreachable, so a reconnect tries again
            raise Unreachable(
                f"{self.address} dropped the connection during the hello: {exc}"
            ) from None
        except BaseException:
            writer.close()
            raise
