"""Every connection to the web door, counted in the process's ledger
(``net.budgets``) from accept to close, per address (:class:`Conn`), and screened before
aiohttp builds its protocol (:class:`Counted`, as the SSH door's ``Screen``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from net import budgets as b
from serve.web.guard import address_of
from serve.wrapped import Wrapped


class Counted(Wrapped):
    """aiohttp's protocol for one connection, counted in the ledger (it has slots: it
    cannot be patched, so it is wrapped). aiohttp's protocol is built only for a
    connection the ledger admits: a loop opening sockets is turned away for the cost of
    a write and a close."""

    def __init__(self, ledger: b.Ledger, conns: dict[Any, Conn],
                 make_inner: Callable[[], Any]) -> None:
        self.ledger = ledger
        self.conns = conns  # the door's connections, by transport
        self.make_inner = make_inner

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        conn = Conn(self.ledger, transport)
        self.conns[transport] = conn
        if conn.arrive():
            self.inner = self.make_inner()
            self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        conn = self.conns.get(self.transport)
        if conn is not None and data:
            conn.arriving()
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        conn = self.conns.pop(self.transport, None)
        if conn is not None:
            conn.gone()
        super().connection_lost(exc)


class Conn:
    """One TCP connection to the web door, in the ledger from accept to close: pending
    until it is a tab's websocket. A request must arrive whole within ``header_timeout``
    seconds of its first byte, or it is answered 503 and closed (slow headers). A
    connection that sends nothing for that long (a browser's pre-opened socket, an idle
    keep-alive) is closed without a word: an answer nobody asked for would be read as
    the reply to the browser's next request."""

    def __init__(self, ledger: b.Ledger, transport: Any) -> None:
        self.ledger = ledger
        self.transport = transport
        self.address = address_of(transport)
        self.stage: str | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.active = 0
        self.begun = False  # a request has begun to arrive (and is not answered yet)

    def arrive(self) -> bool:
        """A new connection: pending (True), or turned away at once (a loop opening
        sockets)."""
        why = self.ledger.arrive(self, Conn.refuse)
        if why is not None:
            self.refuse(why)
            return False
        self.arm()
        return True

    def enter(self, stage: str) -> bool:
        return self.ledger.settle(self, stage, Conn.refuse)

    def arm(self) -> None:
        self.disarm()
        self.timer = asyncio.get_running_loop().call_later(
            self.ledger.budgets.header_timeout, self._too_slow)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def arriving(self) -> None:
        """Bytes came in: the first of a request starts its deadline afresh."""
        if not self.begun and self.active == 0 and self.stage == b.PENDING:
            self.begun = True
            self.arm()

    def _too_slow(self) -> None:
        if self.active != 0 or self.stage != b.PENDING:
            return
        if not self.begun:  # idle: closed without a word (nobody asked anything)
            with contextlib.suppress(Exception):
                self.transport.close()
            return
        self.refuse("A request must arrive whole within "
                    f"{self.ledger.budgets.header_timeout:g} seconds.")

    def refuse(self, why: str) -> None:
        with contextlib.suppress(Exception):
            body = why.encode()
            self.transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                                 b"text/plain; charset=utf-8\r\nConnection: close\r\n"
                                 b"Content-Length: " + str(len(body)).encode() +
                                 b"\r\n\r\n" + body)
            self.transport.close()

    def busy(self) -> None:
        self.active += 1
        self.disarm()

    def done(self) -> None:
        self.active -= 1
        if self.active == 0 and self.stage == b.PENDING:
            self.begun = False  # answered: the connection is idle until its next request
            self.arm()  # the next request on a kept-alive connection must be quick too

    def playing(self) -> None:
        """A tab's websocket: it plays (the door's session caps count those)."""
        self.disarm()
        self.enter(b.SEATED)

    def gone(self) -> None:
        self.disarm()
        self.ledger.settle(self, None, Conn.refuse)
