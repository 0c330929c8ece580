"""Every socket at the SSH door, screened before asyncssh sees it (:class:`Screen`):
the ledger's ``knock`` (new connections per address, ``net.budgets``) turns a loop
opening sockets away for one write (a version line and a disconnect packet carrying the
words, :func:`refusal`) and a close."""

from __future__ import annotations

import asyncio
import struct
from typing import Any, Protocol

import asyncssh

from net import budgets as b
from serve.wrapped import Wrapped


class ScreenDoor(Protocol):
    """What a screen asks of its door."""

    ledger: b.Ledger
    options: Any  # asyncssh's server connection options, once the door listens
    lingering: int  # refused sockets waiting to be closed, at this door


def refusal(text: str) -> bytes:
    """What a connection turned away at accept is sent: an SSH version line, then a
    disconnect packet carrying ``text`` (sent in the clear, as packets are before the key
    exchange), so every client prints the words."""
    words = text.encode()
    payload = (struct.pack(">BI", 1, asyncssh.DISC_TOO_MANY_CONNECTIONS)  # DISCONNECT
               + struct.pack(">I", len(words)) + words + struct.pack(">I", 0))
    pad = 8 - (len(payload) + 5) % 8
    pad += 8 if pad < 4 else 0
    packet = struct.pack(">IB", len(payload) + pad + 1, pad) + payload + bytes(pad)
    return b"SSH-2.0-AsyncSSH_" + asyncssh.__version__.encode() + b"\r\n" + packet


class Screen(Wrapped):
    """One accepted socket, screened before asyncssh sees it (the web door's
    ``Counted``, for SSH): a loop opening sockets is turned away for the cost of one
    write and a close, and asyncssh builds its connection (and key exchange) only for a
    socket the ledger's knock admits.

    A refused socket is closed once the client's version line is in, or after
    ``LINGER`` seconds: OpenSSH writes its key exchange after reading ours, and had we
    closed first, that write fails ("Broken pipe") before it reads the words. At most
    ``LINGER_MAX`` refused sockets linger at once; past that they are closed at once."""

    LINGER = 0.5
    LINGER_MAX = 32

    def __init__(self, door: ScreenDoor) -> None:
        self.door = door
        self.linger: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        why = self.door.ledger.knock(str(peer[0]) if peer else "")
        if why is None:
            self.inner = asyncssh.SSHServerConnection(asyncio.get_running_loop(),
                                                      self.door.options)
            self.inner.connection_made(transport)
            return
        transport.write(refusal(why))
        if self.door.lingering < self.LINGER_MAX:
            self.door.lingering += 1
            self.linger = asyncio.get_running_loop().call_later(self.LINGER, self._close)
        else:
            transport.close()

    def _unlinger(self) -> None:
        if self.linger is not None:
            self.linger.cancel()
            self.linger = None
            self.door.lingering -= 1

    def _close(self) -> None:
        self._unlinger()
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)
        elif b"\n" in data:  # its version line: it reads the words next
            self._close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._unlinger()
