"""The client side: :class:`Browser` merges what DNS-SD and the beacon report into
one list of tables, forgetting the stale; :func:`browse` yields it on every change."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from zeroconf import ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo

from net.discovery import sockets
from net.discovery.addresses import _usable_addresses
from net.discovery.records import (
    _MDNS_TIMEOUT,
    BEACON_GROUP,
    BEACON_PORT,
    MAX_ENTRIES,
    SERVICE_TYPE,
    STALE_AFTER,
    Announcement,
    parse_datagram,
    parse_txt,
)
from net.discovery.sockets import _listener_socket

log = logging.getLogger("net.discovery")


# -- browsing --------------------------------------------------------------------------


@dataclass
class _Entry:
    announcement: Announcement
    addresses: tuple[str, ...]  # every address the host gave (mDNS); for merging
    expires: float | None  # clock time, for beacon entries


class Browser:
    """Lists the tables announced on the LAN, live.

    ``games`` is the current list; ``changes()`` yields it again on every change.
    ``interfaces``, ``mdns`` and ``beacon`` as for ``Announcer``. A beacon table not
    heard for ``stale_after`` seconds of ``clock`` is dropped. Network trouble is logged
    once as a warning and never raised: the list just stays empty.
    """

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None = None,
        mdns: bool = True,
        beacon: tuple[str, int] | None = (BEACON_GROUP, BEACON_PORT),
        stale_after: float = STALE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._interfaces = None if interfaces is None else list(interfaces)
        self._mdns = mdns
        self._beacon = beacon
        self._stale_after = stale_after
        self._clock = clock
        self._entries: dict[tuple, _Entry] = {}
        self._games: list[Announcement] = []
        self._version = 0
        self._changed = asyncio.Event()
        self._closed = False
        self._transport: asyncio.DatagramTransport | None = None
        self._sweep_task: asyncio.Task | None = None
        self._zc = None
        self._zc_browser = None
        self._lookups: dict[str, asyncio.Task] = {}
        self._started = False
        self.ignored = 0  # datagrams and TXT records thrown away as malformed

    @property
    def games(self) -> list[Announcement]:
        """The tables found, sorted by game, table, host and port."""
        return list(self._games)

    @property
    def active(self) -> bool:
        """Whether at least one path (mDNS or beacon) is listening."""
        return self._zc is not None or self._transport is not None

    @property
    def beacon_port(self) -> int | None:
        """The UDP port the beacon listener is bound to (useful with port 0)."""
        if self._transport is None:
            return None
        return self._transport.get_extra_info("sockname")[1]

    async def __aenter__(self) -> Browser:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start listening. Never raises for network trouble."""
        if self._started:
            raise RuntimeError("this Browser was already started")
        self._started = True
        loop = asyncio.get_running_loop()
        if self._beacon is not None:
            try:
                sock = _listener_socket(self._beacon, self._interfaces)
                self._transport, _ = await loop.create_datagram_endpoint(
                    lambda: _BeaconProtocol(self), sock=sock
                )
            except OSError as exc:
                log.warning("LAN beacon listener unavailable: %s", exc)
            else:
                self._sweep_task = asyncio.create_task(self._sweep_loop())
        if self._mdns:
            try:
                self._zc = sockets.new_zeroconf(self._interfaces)
                self._zc_browser = AsyncServiceBrowser(
                    self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_service]
                )
            except Exception as exc:  # any failure of the mDNS stack costs only discovery
                log.warning(
                    "LAN discovery (mDNS) unavailable (%s); players can join by address", exc
                )
                await self._close_zeroconf()

    async def close(self) -> None:
        """Stop listening; ``changes()`` iterators end."""
        if self._closed:
            return
        self._closed = True
        tasks = [t for t in (self._sweep_task, *self._lookups.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._transport is not None:
            self._transport.close()
            # The socket is closed only once the protocol hears of it: wait, so the
            # port is free when close() returns.
            await self._transport.get_protocol().closed
        await self._close_zeroconf()
        self._changed.set()

    async def changes(self) -> AsyncIterator[list[Announcement]]:
        """Yield the current list now, then again after every change, until closed."""
        seen = -1
        while not self._closed:
            changed = self._changed
            if seen != self._version:
                seen = self._version
                yield self.games
                continue
            await changed.wait()

    async def _close_zeroconf(self) -> None:
        browser, zc = self._zc_browser, self._zc
        self._zc_browser = self._zc = None
        try:
            if browser is not None:
                await browser.async_cancel()
            if zc is not None:
                await asyncio.wait_for(zc.async_close(), _MDNS_TIMEOUT)
        except Exception as exc:
            log.warning("LAN discovery (mDNS) did not close cleanly: %s", exc)

    # beacon path

    def _datagram(self, data: bytes, addr: tuple) -> None:
        result = parse_datagram(data, addr[0])
        if result is None:
            self.ignored += 1
        elif isinstance(result, Announcement):
            key = ("beacon", result.host, result.port, result.table)
            self._put(key, result, (result.host,), self._clock() + self._stale_after)
        else:
            table, port = result
            if self._entries.pop(("beacon", addr[0], port, table), None) is not None:
                self._refresh()

    async def _sweep_loop(self) -> None:
        # The clock decides what is stale; this only looks every so often.
        while True:
            await asyncio.sleep(min(0.25, self._stale_after / 4))
            now = self._clock()
            stale = [
                k for k, e in self._entries.items() if e.expires is not None and e.expires <= now
            ]
            for key in stale:
                del self._entries[key]
            if stale:
                self._refresh()

    # mDNS path

    def _on_service(self, zeroconf, service_type: str, name: str, state_change) -> None:

        if self._closed:
            return
        if state_change is ServiceStateChange.Removed:
            task = self._lookups.pop(name, None)
            if task is not None:
                task.cancel()
            if self._entries.pop(("mdns", name), None) is not None:
                self._refresh()
            return
        previous = self._lookups.get(name)
        if previous is not None:
            previous.cancel()
        elif len(self._lookups) >= MAX_ENTRIES:  # a flood of names: let it pass by
            self.ignored += 1
            return
        self._lookups[name] = asyncio.create_task(self._lookup(service_type, name))

    async def _lookup(self, service_type: str, name: str) -> None:

        try:
            info = AsyncServiceInfo(service_type, name)
            if not await info.async_request(self._zc.zeroconf, int(_MDNS_TIMEOUT * 1000)):
                return
            addresses = _usable_addresses(info.parsed_scoped_addresses())
            announcement = None
            if addresses and type(info.port) is int and 1 <= info.port <= 65535:
                announcement = parse_txt(info.properties, addresses[0], info.port)
            if announcement is None:
                self.ignored += 1
                return
            self._put(("mdns", name), announcement, tuple(addresses), None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a hostile record must not take the browser down
            self.ignored += 1
            log.debug("mDNS record for %r ignored: %s", name, exc)
        finally:
            if self._lookups.get(name) is asyncio.current_task():
                del self._lookups[name]

    # the merged list

    def _put(self, key: tuple, announcement: Announcement, addresses: tuple, expires) -> None:
        if key not in self._entries and len(self._entries) >= MAX_ENTRIES:
            self.ignored += 1
            return
        self._entries[key] = _Entry(announcement, addresses, expires)
        self._refresh()

    def _refresh(self) -> None:
        """Recompute the list; wake ``changes()`` if it differs. A table heard over both
        paths (same port and table name, an address in common) is listed once."""
        merged: dict[tuple, Announcement] = {}
        entries = sorted(self._entries.items(), key=lambda item: item[0][0])  # beacon first
        for _, entry in entries:
            a = entry.announcement
            if any((addr, a.port, a.table) in merged for addr in entry.addresses):
                continue
            merged[(a.host, a.port, a.table)] = a
        games = sorted(merged.values(), key=lambda a: (a.game, a.table, a.host, a.port))
        if games != self._games:
            self._games = games
            self._version += 1
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()


class _BeaconProtocol(asyncio.DatagramProtocol):
    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self.closed = asyncio.get_running_loop().create_future()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def datagram_received(self, data: bytes, addr: tuple) -> None:
        self._browser._datagram(data, addr)

    def error_received(self, exc: Exception) -> None:
        log.debug("beacon listener: %s", exc)


async def browse(**options) -> AsyncIterator[list[Announcement]]:
    """Yield the list of tables on the LAN now and after every change; options as for
    ``Browser``. Closing the iterator (``aclose``, or leaving ``async for``) stops it."""
    async with Browser(**options) as browser:
        async for games in browser.changes():
            yield games
