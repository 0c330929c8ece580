"""This machine's addresses: which to print for friends to type, which to announce
on (only where the host listens), and which a browser can reach."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
from collections.abc import Iterable, Sequence

import ifaddr

from net.discovery.records import _parse_ip

log = logging.getLogger("net.discovery")


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
