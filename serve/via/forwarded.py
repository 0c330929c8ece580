"""One connection a relay forwards, handed to a door as if the door had accepted it.

The relay names who connected (SSH's forwarded-tcpip channel carries the originator's
address and port); :class:`Originators` turns that into the address the doors count:
per-address budgets, the password back-off, logs. :class:`ForwardedSession` joins the
SSH channel to the door's own protocol (asyncssh's for the SSH door, aiohttp's for the
web door, asyncio's streams for the LAN host) through :class:`ChannelTransport`, whose
``peername`` is that address and whose ``sockname`` is the relay's name and port, so
nothing of the door changes and no local socket is opened for it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import logging
from asyncio import constants, transports
from collections.abc import Awaitable, Callable
from typing import Any

import asyncssh

log = logging.getLogger(__name__)


class Originators:
    """Who a forwarded connection comes from, as the doors' budgets read it.

    - an address the relay names: itself (an IPv4-mapped one as IPv4);
    - the relay's own loopback (someone logged in on the relay): ``loopback@RELAY``,
      one address, and never this machine's own loopback, which the budgets trust;
    - no address (a relay that does not say): ``unnamed-N@RELAY``, a new one for each
      connection, so each is budgeted alone; ``report`` says so once."""

    def __init__(self, relay: str, report: Callable[[str], None]) -> None:
        self.relay = relay
        self.report = report
        self._numbers = itertools.count(1)
        self.unnamed = 0  # connections that came with no address

    def address(self, orig_host: str) -> str:
        try:
            ip = ipaddress.ip_address(orig_host.split("%", 1)[0])
        except ValueError:
            ip = None
        if ip is None or ip.is_unspecified:
            self.unnamed += 1
            if self.unnamed == 1:
                self.report(f"{self.relay} does not say who connects through it: each such "
                            "connection is budgeted alone, and logged without an address.")
            return f"unnamed-{next(self._numbers)}@{self.relay}"
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if ip.is_loopback:
            return f"loopback@{self.relay}"
        return str(ip)


class ChannelTransport(transports._FlowControlMixin, asyncio.Transport):
    """An asyncio transport over one forwarded SSH channel (``asyncssh.SSHTCPChannel``),
    with the relay's word for who is at the other end.

    It has no socket, as a TLS transport has none: ``loop.sendfile()`` (aiohttp's
    static files) then writes the file in chunks, which asyncio allows only for a
    transport in the FALLBACK mode with its flow-control base, as its TLS transport
    is; the channel's own flow control (asyncssh's) pauses whichever protocol the
    transport has at the moment."""

    _sendfile_compatible = constants._SendfileMode.FALLBACK

    def __init__(self, chan: Any, peername: tuple[str, int], sockname: tuple[str, int],
                 protocol: asyncio.BaseProtocol) -> None:
        super().__init__({"peername": peername, "sockname": sockname},
                         asyncio.get_running_loop())
        self._chan = chan
        self._protocol = protocol
        self._reading = True

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._protocol

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._protocol = protocol

    def write(self, data: Any) -> None:
        if data and not self._chan.is_closing():  # as a socket's: quiet once closing
            self._chan.write(bytes(data))

    def writelines(self, list_of_data: Any) -> None:
        self.write(b"".join(bytes(d) for d in list_of_data))

    def write_eof(self) -> None:
        if not self._chan.is_closing():
            self._chan.write_eof()

    def can_write_eof(self) -> bool:
        return True

    def close(self) -> None:
        self._chan.close()

    def abort(self) -> None:
        self._chan.abort()

    def is_closing(self) -> bool:
        return self._chan.is_closing()

    def pause_reading(self) -> None:
        self._reading = False
        self._chan.pause_reading()

    def resume_reading(self) -> None:
        self._reading = True
        self._chan.resume_reading()

    def is_reading(self) -> bool:
        return self._reading

    def get_write_buffer_size(self) -> int:
        return self._chan.get_write_buffer_size()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._chan.set_write_buffer_limits(high, low)


class ForwardedSession(asyncssh.SSHTCPSession):
    """The channel's events, passed to the door's protocol. A protocol that raises
    costs its own connection (the channel is aborted), never the tunnel: asyncssh
    would close the whole SSH connection, every friend's with it."""

    def __init__(self, protocol: asyncio.Protocol, peername: tuple[str, int],
                 sockname: tuple[str, int]) -> None:
        self.first = protocol
        self.peername = peername
        self.sockname = sockname
        self.transport: ChannelTransport | None = None

    @property
    def protocol(self) -> Any:
        """The transport's protocol now (``loop.sendfile`` swaps in its own a while)."""
        return self.transport.get_protocol() if self.transport is not None else self.first

    def connection_made(self, chan: Any) -> None:
        self.transport = ChannelTransport(chan, self.peername, self.sockname, self.first)
        self._guarded(self.first.connection_made, self.transport)

    def data_received(self, data: bytes, _datatype: Any) -> None:
        self._guarded(self.protocol.data_received, data)

    def eof_received(self) -> bool:
        return bool(self._guarded(self.protocol.eof_received))

    def connection_lost(self, exc: Exception | None) -> None:
        # a door handles what a socket raises: asyncssh's own ConnectionLost (the
        # tunnel dropped) becomes the ConnectionResetError a socket would give
        if exc is not None and not isinstance(exc, OSError):
            exc = ConnectionResetError(str(exc) or type(exc).__name__)
        self._guarded(self.protocol.connection_lost, exc)

    def pause_writing(self) -> None:
        self._guarded(self.protocol.pause_writing)

    def resume_writing(self) -> None:
        self._guarded(self.protocol.resume_writing)

    def _guarded(self, call: Callable[..., Any], *args: Any) -> Any:
        try:
            return call(*args)
        except Exception:
            log.exception("a forwarded connection from %s failed", self.peername[0])
            if self.transport is not None:
                self.transport.abort()
            return None


def stream_protocol(serve: Callable[[asyncio.StreamReader, asyncio.StreamWriter],
                                    Awaitable[None]],
                    limit: int = 1 << 16) -> asyncio.Protocol:
    """The protocol ``asyncio.start_server(serve, ...)`` builds for each connection (the
    LAN host listens so: ``net.host.Host.serve``)."""
    return asyncio.StreamReaderProtocol(asyncio.StreamReader(limit=limit), serve)
