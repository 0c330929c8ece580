"""The sockets discovery uses: multicast senders and the beacon listener, and the
zeroconf instance (``new_zeroconf``: tests put a fake in its place)."""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Sequence

from zeroconf import InterfaceChoice
from zeroconf.asyncio import AsyncZeroconf

from net.catalogue import title
from net.discovery.addresses import _local_ipv4
from net.discovery.records import Announcement, _parse_ip

log = logging.getLogger("net.discovery")


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


def new_zeroconf(interfaces: Sequence[str] | None) -> AsyncZeroconf:
    return AsyncZeroconf(interfaces=InterfaceChoice.All if interfaces is None else list(interfaces))


def _instance_name(announcement: Announcement) -> str:
    """A DNS-SD instance name (what avahi-browse shows): at most 63 bytes, no dots."""
    name = f"{announcement.table} ({title(announcement.game)})".replace(".", " ")
    raw = name.encode()[:63]
    return raw.decode("utf-8", errors="ignore").strip()
