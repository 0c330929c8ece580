"""The host side: :class:`Announcer` keeps a host's tables announced over DNS-SD and
the beacon, and withdraws them when they close."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import Sequence

from zeroconf.asyncio import AsyncServiceInfo

from net.discovery import sockets
from net.discovery.addresses import (
    _all_local_addresses,
    _mdns_interfaces,
    announce_on,
    local_addresses,
)
from net.discovery.records import (
    _MDNS_TIMEOUT,
    _TTL,
    BEACON_GROUP,
    BEACON_INTERVAL,
    BEACON_PORT,
    SERVICE_TYPE,
    Announcement,
    _parse_ip,
    beacon_datagram,
    bye_datagram,
    txt_properties,
)
from net.discovery.sockets import _instance_name, _is_multicast, _sender_sockets

log = logging.getLogger("net.discovery")


# -- announcing ------------------------------------------------------------------------


class Announcer:
    """Announces a host's tables on the LAN until closed.

    ``listen``: where the host listens, an address or a list of them, as bound
    (``host.sockets``' addresses; ``0.0.0.0``, ``::`` or ``""`` for every one) or as
    given to ``--bind`` (a host name is resolved). An announcement then carries only
    those addresses and goes out only on their interfaces (mDNS and beacon alike), so
    a host bound to 127.0.0.1 is announced on loopback alone, for this machine, and no
    other machine lists it (see :func:`announce_on`). Default None: every interface,
    as a host that listens everywhere.
    ``interfaces``: the local IP addresses to announce on (default: every interface;
    with ``listen``, those of them the host listens on).
    ``mdns``: announce over DNS-SD. ``beacon``: the ``(address, port)`` the beacon goes
    to (a multicast group, or a unicast address), or None for no beacon. Network
    trouble is logged once as a warning and never raised: the host goes on without
    discovery.
    """

    def __init__(
        self,
        *,
        listen: str | Sequence[str] | None = None,
        interfaces: Sequence[str] | None = None,
        mdns: bool = True,
        beacon: tuple[str, int] | None = (BEACON_GROUP, BEACON_PORT),
        interval: float = BEACON_INTERVAL,
    ) -> None:
        self._listen = [listen] if isinstance(listen, str) else listen
        self._interfaces = None if interfaces is None else list(interfaces)
        self._mdns = mdns
        self._beacon = beacon
        self._interval = interval
        self._tables: dict[str, Announcement] = {}
        self._started = False
        self._closed = False
        self._socks: list[socket.socket] = []
        self._send_failed = False
        self._beacon_task: asyncio.Task | None = None
        self._zc = None
        self._infos: dict[str, object] = {}  # table -> registered AsyncServiceInfo
        self._dirty = asyncio.Event()
        self._mdns_task: asyncio.Task | None = None
        self._mdns_failed = False

    @property
    def tables(self) -> list[Announcement]:
        """The tables being announced."""
        return list(self._tables.values())

    @property
    def active(self) -> bool:
        """Whether at least one path (mDNS or beacon) is announcing."""
        return self._zc is not None or bool(self._socks)

    async def __aenter__(self) -> Announcer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self, *announcements: Announcement) -> None:
        """Open the sockets and announce the given tables (more come with ``update``)."""
        if self._started:
            raise RuntimeError("this Announcer was already started")
        self._started = True
        for announcement in announcements:
            self._tables[announcement.table] = announcement
        if self._listen is not None:
            local = self._interfaces if self._interfaces is not None else _all_local_addresses()
            self._interfaces = announce_on(self._listen, local)
            if not self._interfaces:
                log.warning(
                    "LAN discovery: the host listens on %s, no address of this machine's "
                    "interfaces; not announcing",
                    ", ".join(self._listen),
                )
                return
        if self._beacon is not None:
            try:
                self._socks = _sender_sockets(
                    self._beacon, self._interfaces, bound=self._listen is not None
                )
            except OSError as exc:
                self._socks = []
                log.warning("LAN beacon unavailable (%s); players can still join by address", exc)
            if self._socks:
                self._beacon_task = asyncio.create_task(self._beacon_loop())
            elif _is_multicast(self._beacon[0]):
                log.warning(
                    "LAN beacon unavailable (no IPv4 interface); players can join by address"
                )
        if self._mdns:
            interfaces = self._interfaces
            if self._listen is not None:
                interfaces = _mdns_interfaces(self._interfaces)
            try:
                self._zc = sockets.new_zeroconf(interfaces)
            except Exception as exc:  # any failure of the mDNS stack costs only discovery
                log.warning(
                    "LAN discovery (mDNS) unavailable (%s); players can join by address", exc
                )
                self._zc = None
            else:
                self._mdns_task = asyncio.create_task(self._mdns_loop())
                self._dirty.set()

    async def update(self, announcement: Announcement) -> None:
        """Announce a table, or its new state, keyed by its (cleaned) table name: call
        it whenever seats change. Returns at once; the network follows in the background."""
        if self._closed:
            return
        self._tables[announcement.table] = announcement
        self._send(beacon_datagram(announcement))
        self._dirty.set()

    async def withdraw(self, table: str) -> None:
        """Stop announcing a table (it closed or started its game)."""
        announcement = self._tables.pop(table, None)
        if announcement is not None and not self._closed:
            self._send(bye_datagram(announcement.table, announcement.port))
            self._dirty.set()

    async def close(self) -> None:
        """Withdraw every table (mDNS goodbyes and beacon byes) and close the sockets."""
        if self._closed:
            return
        self._closed = True
        for task in (self._beacon_task, self._mdns_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for announcement in self._tables.values():
            self._send(bye_datagram(announcement.table, announcement.port))
        for sock in self._socks:
            sock.close()
        self._socks = []
        if self._zc is not None:
            zc, self._zc = self._zc, None
            try:
                # sends the goodbyes (TTL 0) for every registered table
                await asyncio.wait_for(zc.async_close(), _MDNS_TIMEOUT)
            except Exception as exc:
                log.warning("LAN discovery (mDNS) did not close cleanly: %s", exc)

    def _send(self, datagram: bytes) -> None:
        if self._beacon is None:
            return
        for sock in self._socks:
            try:
                sock.sendto(datagram, self._beacon)
            except OSError as exc:  # no route, EPERM from a firewall, a full buffer
                if not self._send_failed:
                    self._send_failed = True
                    log.warning(
                        "LAN beacon could not be sent (%s); players can join by address", exc
                    )

    async def _beacon_loop(self) -> None:
        while True:
            for announcement in list(self._tables.values()):
                self._send(beacon_datagram(announcement))
            await asyncio.sleep(self._interval)

    async def _mdns_loop(self) -> None:
        """Bring the registered services in line with ``_tables``, one change at a
        time, so ``update`` never waits on the network."""

        zc = self._zc
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            try:
                for table in [t for t in self._infos if t not in self._tables]:
                    info = self._infos.pop(table)
                    await asyncio.wait_for(zc.async_unregister_service(info), _MDNS_TIMEOUT)
                for table, announcement in list(self._tables.items()):
                    old = self._infos.get(table)
                    name = (
                        old.name
                        if old is not None
                        else (f"{_instance_name(announcement)}.{SERVICE_TYPE}")
                    )
                    info = AsyncServiceInfo(
                        SERVICE_TYPE,
                        name,
                        port=announcement.port,
                        properties=txt_properties(announcement),
                        server=_server_name(),
                        host_ttl=_TTL,
                        other_ttl=_TTL,
                        parsed_addresses=self._addresses(announcement),
                    )
                    if old is None:
                        self._infos[table] = info
                        await asyncio.wait_for(
                            zc.async_register_service(info, allow_name_change=True),
                            _MDNS_TIMEOUT,
                        )
                    elif (old.properties, old.port) != (info.properties, info.port):
                        self._infos[table] = info
                        await zc.async_update_service(info)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a time-out, a socket error: try again on the next change
                if not self._mdns_failed:
                    self._mdns_failed = True
                    log.warning("LAN discovery (mDNS) failed: %s", exc)

    def _addresses(self, announcement: Announcement) -> list[str]:
        host = _parse_ip(announcement.host) if announcement.host else None
        if host is not None and not host.is_unspecified:
            return [announcement.host]
        if self._interfaces is not None:
            return list(self._interfaces)
        return local_addresses() or ["127.0.0.1"]


def _server_name() -> str:
    """The mDNS host name of the SRV record; its own name, so that it never contends
    with the A records the system's responder (avahi) defends for the machine."""
    label = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0])[:40] or "host"
    return f"motherlode-{label}.local."
