"""LAN discovery: a host announces its tables, clients list what they find.

Two paths carry the same announcement, and a browser merges what they report:

- DNS-SD over multicast DNS (python-zeroconf), service type ``_motherlode._tcp.local.``,
  so ``avahi-browse -r _motherlode._tcp`` shows the games. The SRV and A/AAAA records
  give the address and port; the TXT record gives ``txtvers``, ``protocol``, ``game``,
  ``table``, ``free`` and ``seats``.
- A UDP beacon: one small JSON datagram per table every ``BEACON_INTERVAL`` seconds to
  ``BEACON_GROUP:BEACON_PORT`` (TTL 1, never routed off the LAN), and a ``bye``
  datagram when a table is withdrawn. The address is the datagram's source address.
  It works where another mDNS responder holds port 5353 for itself, and a browser
  forgets a beacon table it has not heard for ``STALE_AFTER`` seconds.

Everything received is hostile: text is stripped of escape sequences and control
characters and capped; garbage, oversize or ill-typed TXT records and datagrams are
ignored (and counted), never raised. Where multicast is unavailable, discovery logs one
warning and carries on empty: nothing is raised to the caller, and the printed
``host:port`` addresses and manual entry still work.

Usage, host side (``listen``: where the host listens, e.g. its bound addresses)::

    async with Announcer(listen=[addr for addr, _ in host.sockets]) as announcer:
        await announcer.update(Announcement(game="nuggets", table="Ann's table",
                                            seats_free=3, seats_total=4,
                                            port=7777, protocol=1))
        ...                                  # update() again whenever seats change
        await announcer.withdraw("Ann's table")

Client side::

    async for games in browse():             # the whole current list, on every change
        show(games)
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass

import ifaddr
from zeroconf import InterfaceChoice, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.catalogue import spec, title
from net.text import TABLE_NAME_MAX, clean_text

log = logging.getLogger(__name__)

SERVICE_TYPE = "_motherlode._tcp.local."
BEACON_GROUP = "239.255.77.77"  # organisation-local scope (RFC 2365): stays on the LAN
BEACON_PORT = 7777  # UDP; the game itself is TCP, so the default port numbers can match
BEACON_INTERVAL = 2.0
STALE_AFTER = 7.0  # three missed beacons, plus a margin
MAX_SEATS = 64
MAX_DATAGRAM = 1024  # bytes; a beacon is well under 300
MAX_ENTRIES = 256  # tables a browser keeps, so a flood cannot grow it without bound
TXT_VERSION = "1"
BEACON_VERSION = 1
_TTL = 120  # seconds for every mDNS record: a crashed host vanishes in minutes, not 75
_MDNS_TIMEOUT = 5.0  # seconds for one registration or lookup

_DIGITS = re.compile(r"[0-9]{1,5}")


def _clean(text: str) -> str:
    """Peer text made safe to show, cut to a table name's length."""
    return clean_text(text)[:TABLE_NAME_MAX].rstrip()


@dataclass(frozen=True, kw_only=True)
class Announcement:
    """One table as announced on the LAN.

    ``host`` is the address to connect to; on the announcing side ``""`` (or
    ``0.0.0.0``/``::``) means every local address. ``table`` is cleaned and capped on
    construction, so any announcement is safe to show. Bad values raise ``ValueError``.
    """

    game: str
    table: str
    seats_free: int
    seats_total: int
    port: int
    protocol: int
    host: str = ""

    def __post_init__(self) -> None:
        spec(self.game)  # raises UnknownGame, a ValueError
        if not isinstance(self.table, str):
            raise ValueError(f"table name must be text, not {self.table!r}")
        table = _clean(self.table)
        if not table:
            raise ValueError(f"table name {self.table!r} is empty once cleaned")
        object.__setattr__(self, "table", table)
        _check_int("seats_total", self.seats_total, 1, MAX_SEATS)
        _check_int("seats_free", self.seats_free, 0, self.seats_total)
        _check_int("port", self.port, 1, 65535)
        _check_int("protocol", self.protocol, 0, 65535)
        if not isinstance(self.host, str):
            raise ValueError(f"host must be text, not {self.host!r}")
        if self.host and _parse_ip(self.host) is None:
            raise ValueError(f"host {self.host!r} is not an IP address")

    @property
    def address(self) -> str:
        """``host:port`` as a person types it (IPv6 in brackets)."""
        return format_address(self.host, self.port)


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def format_address(host: str, port: int) -> str:
    """``host:port``, with an IPv6 host in brackets: ``[fd00::2]:7777``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def local_addresses() -> list[str]:
    """This machine's non-loopback addresses, IPv4 first, for printing ``host:port``
    lines. IPv6 link-local addresses are left out: they need a zone to be usable."""
    v4: list[str] = []
    v6: list[str] = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError as exc:  # no /proc, a sandbox: say so, print nothing
        log.warning("cannot list network interfaces: %s", exc)
        return []
    for adapter in adapters:
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            addr = _parse_ip(text)
            if addr is None or addr.is_loopback or addr.is_unspecified:
                continue
            if addr.version == 6 and addr.is_link_local:
                continue
            (v4 if addr.version == 4 else v6).append(str(addr))
    return list(dict.fromkeys(v4 + v6))


def _all_local_addresses() -> list[str]:
    """Every local address, loopback included, IPv6 link-local left out (it needs a
    zone); IPv4 first."""
    v4: list[str] = []
    v6: list[str] = []
    with contextlib.suppress(OSError):
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
                addr = _parse_ip(text)
                if addr is None or (addr.version == 6 and addr.is_link_local):
                    continue
                (v4 if addr.version == 4 else v6).append(str(addr))
    return list(dict.fromkeys(v4 + v6))


def _resolve(listen: str) -> list[str]:
    """The IP addresses a ``listen`` entry stands for: itself, or a host name's
    addresses (``localhost``); ``""`` is every address, as for ``start_server``."""
    if listen == "":
        return ["0.0.0.0", "::"]
    if _parse_ip(listen) is not None:
        return [str(_parse_ip(listen))]
    try:
        infos = socket.getaddrinfo(listen, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        log.warning("LAN discovery: cannot resolve the listen address %r", listen)
        return []
    return list(dict.fromkeys(str(_parse_ip(info[4][0])) for info in infos))


def announce_on(listen: Iterable[str], local: Sequence[str]) -> list[str]:
    """Of the ``local`` addresses, those a host listening on ``listen`` answers on, so
    the only ones to announce: ``0.0.0.0`` stands for every IPv4 address, ``::`` for
    every IPv6 one (asyncio binds it IPv6-only), anything else for itself. Loopback
    addresses are left out unless the host listens on loopback only or names a
    loopback address: a LAN announcement of 127.0.0.1 reaches nobody."""
    wanted = [ip for entry in listen for ip in _resolve(entry)]
    parsed = [_parse_ip(w) for w in wanted]
    chosen = []
    for text in local:
        addr = _parse_ip(text)
        if addr is None:
            continue
        for want in parsed:
            if want is None:
                continue
            if want == addr or (want.is_unspecified and want.version == addr.version):
                chosen.append(str(addr))
                break
    named_loopback = any(w is not None and w.is_loopback for w in parsed)
    if not named_loopback:
        outside = [a for a in chosen if not _parse_ip(a).is_loopback]
        chosen = outside or chosen
    return list(dict.fromkeys(chosen))


def _mdns_interfaces(addresses: Sequence[str]) -> list[str]:
    """The IPv4 addresses mDNS is sent on to announce ``addresses``: those of the
    interfaces that hold them (mDNS goes over IPv4, as with every interface; the
    records still give the IPv6 addresses), so an IPv6 listen address is announced on
    its own interface only (``::1`` on loopback)."""
    wanted = {str(_parse_ip(a)) for a in addresses if _parse_ip(a) is not None}
    out = [a for a in addresses if ":" not in a]
    with contextlib.suppress(OSError):
        for adapter in ifaddr.get_adapters():
            texts = [ip.ip if isinstance(ip.ip, str) else ip.ip[0] for ip in adapter.ips]
            if any(str(_parse_ip(t)) in wanted for t in texts if _parse_ip(t) is not None):
                out += [t for t in texts if isinstance(t, str) and ":" not in t]
    return list(dict.fromkeys(out))


def _local_ipv4() -> list[str]:
    """Every local IPv4 address, loopback included (for joining multicast groups)."""
    found = []
    with contextlib.suppress(OSError):
        for adapter in ifaddr.get_adapters():
            found += [ip.ip for ip in adapter.ips if isinstance(ip.ip, str)]
    return list(dict.fromkeys(found))


# -- the wire formats: pure functions, tested on their own -----------------------------


def txt_properties(announcement: Announcement) -> dict[str, str]:
    """The TXT record of an announcement."""
    a = announcement
    return {
        "txtvers": TXT_VERSION,
        "protocol": str(a.protocol),
        "game": a.game,
        "table": a.table,
        "free": str(a.seats_free),
        "seats": str(a.seats_total),
    }


def _txt_value(properties: dict, key: str) -> str | None:
    value = properties.get(key.encode())
    if not isinstance(value, bytes) or len(value) > 255:
        return None
    return value.decode("utf-8", errors="replace")


def _small_int(text: object) -> int | None:
    if isinstance(text, str) and _DIGITS.fullmatch(text):
        return int(text)
    return None


def parse_txt(properties: dict, host: str, port: int) -> Announcement | None:
    """An announcement from a received TXT record (``{bytes: bytes | None}``), or
    None when anything is missing, ill-typed or out of range."""
    if not isinstance(properties, dict) or _txt_value(properties, "txtvers") != TXT_VERSION:
        return None
    table = _txt_value(properties, "table")
    game = _txt_value(properties, "game")
    numbers = [_small_int(_txt_value(properties, key)) for key in ("protocol", "free", "seats")]
    if table is None or game is None or None in numbers:
        return None
    protocol, free, seats = numbers
    try:
        return Announcement(
            game=game,
            table=table,
            seats_free=free,
            seats_total=seats,
            port=port,
            protocol=protocol,
            host=host,
        )
    except ValueError:
        return None


def beacon_datagram(announcement: Announcement) -> bytes:
    """The beacon datagram that announces a table."""
    a = announcement
    return json.dumps(
        {
            "motherlode": BEACON_VERSION,
            "protocol": a.protocol,
            "game": a.game,
            "table": a.table,
            "free": a.seats_free,
            "seats": a.seats_total,
            "port": a.port,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()


def bye_datagram(table: str, port: int) -> bytes:
    """The beacon datagram that withdraws a table."""
    return json.dumps(
        {"motherlode": BEACON_VERSION, "bye": True, "table": table, "port": port},
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()


def parse_datagram(data: bytes, source: str) -> Announcement | tuple[str, int] | None:
    """A received beacon: an ``Announcement`` (host = ``source``), a withdrawal
    ``(table, port)``, or None for anything else (garbage, oversize, wrong types)."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or type(obj.get("motherlode")) is not int:
        return None
    if obj["motherlode"] != BEACON_VERSION:
        return None
    table, port = obj.get("table"), obj.get("port")
    if not isinstance(table, str) or type(port) is not int or not 1 <= port <= 65535:
        return None
    if obj.get("bye") is True:
        table = _clean(table)
        return (table, port) if table else None
    try:
        return Announcement(
            game=obj.get("game"),
            table=table,
            seats_free=obj.get("free"),
            seats_total=obj.get("seats"),
            port=port,
            protocol=obj.get("protocol"),
            host=source,
        )
    except ValueError:
        return None


# -- sockets ---------------------------------------------------------------------------


def _is_multicast(host: str) -> bool:
    addr = _parse_ip(host)
    return addr is not None and addr.is_multicast


def _sender_sockets(
    beacon: tuple[str, int], interfaces: Sequence[str] | None, bound: bool = False
) -> list:
    """UDP sockets to send beacons from: one per IPv4 interface for a multicast group
    (a multicast datagram leaves by one interface only), else one plain socket, bound
    to the first IPv4 interface when ``bound`` (the source address is the address a
    browser lists)."""
    group, _ = beacon
    if not _is_multicast(group):
        source = None
        if bound:
            v4 = [i for i in interfaces or [] if _parse_ip(i) and _parse_ip(i).version == 4]
            if not v4:
                return []
            source = v4[0]
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.setblocking(False)
            if source is not None:
                sock.bind((source, 0))
        except OSError:
            sock.close()
            raise
        return [sock]
    if interfaces is None:
        everything = _local_ipv4()
        interfaces = [a for a in everything if not a.startswith("127.")] or everything
    socks = []
    for iface in interfaces:
        if _parse_ip(iface) is None or _parse_ip(iface).version != 4:
            continue
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(iface))
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            sock.bind((iface, 0))
        except OSError as exc:
            log.debug("beacon: cannot send on %s: %s", iface, exc)
            sock.close()
            continue
        socks.append(sock)
    return socks


def _listener_socket(beacon: tuple[str, int], interfaces: Sequence[str] | None) -> socket.socket:
    """The UDP socket a browser hears beacons on; raises OSError when it cannot."""
    group, port = beacon
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setblocking(False)
        if not _is_multicast(group):
            sock.bind((group, port))
            return sock
        # Several browsers on one machine (two TUIs) all hear the group.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            sock.bind((group, port))  # Linux: only the group's datagrams
        except OSError:
            sock.bind(("", port))
        joined = 0
        for iface in interfaces if interfaces is not None else _local_ipv4():
            if _parse_ip(iface) is None or _parse_ip(iface).version != 4:
                continue
            try:
                mreq = socket.inet_aton(group) + socket.inet_aton(iface)
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
                joined += 1
            except OSError as exc:
                log.debug("beacon: cannot join %s on %s: %s", group, iface, exc)
        if not joined:
            raise OSError(f"could not join multicast group {group} on any interface")
        return sock
    except BaseException:
        sock.close()
        raise


def _new_zeroconf(interfaces: Sequence[str] | None) -> AsyncZeroconf:
    return AsyncZeroconf(interfaces=InterfaceChoice.All if interfaces is None else list(interfaces))


def _instance_name(announcement: Announcement) -> str:
    """A DNS-SD instance name (what avahi-browse shows): at most 63 bytes, no dots."""
    name = f"{announcement.table} ({title(announcement.game)})".replace(".", " ")
    raw = name.encode()[:63]
    return raw.decode("utf-8", errors="ignore").strip()


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
                self._zc = _new_zeroconf(interfaces)
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
                self._zc = _new_zeroconf(self._interfaces)
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


def _usable_addresses(addresses: Iterable[str], networks: Sequence | None = None) -> list[str]:
    """Addresses a client could connect to (no multicast or unspecified ones), best
    first: those on one of our own networks (not, say, the host's docker bridge), then
    IPv4 before IPv6. ``networks`` defaults to this machine's."""
    if networks is None:
        networks = _local_networks()
    good = []
    for text in dict.fromkeys(addresses):
        addr = _parse_ip(text)
        if addr is not None and not addr.is_multicast and not addr.is_unspecified:
            near = any(addr.version == n.version and addr in n for n in networks)
            good.append((not near, addr.version == 6, text))
    return [text for *_, text in sorted(good, key=lambda item: item[:2])]


def _local_networks() -> list:
    """The networks this machine is on, e.g. 192.168.1.0/24."""
    networks = []
    with contextlib.suppress(OSError):
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
                with contextlib.suppress(ValueError):
                    networks.append(ipaddress.ip_network(f"{text}/{ip.network_prefix}", False))
    return networks


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


__all__ = [
    "BEACON_GROUP",
    "BEACON_INTERVAL",
    "BEACON_PORT",
    "SERVICE_TYPE",
    "STALE_AFTER",
    "Announcement",
    "Announcer",
    "Browser",
    "beacon_datagram",
    "browse",
    "bye_datagram",
    "format_address",
    "local_addresses",
    "parse_datagram",
    "parse_txt",
    "txt_properties",
]
