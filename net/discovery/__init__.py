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

from net.discovery.addresses import announce_on, local_addresses
from net.discovery.announcer import Announcer
from net.discovery.browser import Browser, browse
from net.discovery.records import (
    BEACON_GROUP,
    BEACON_INTERVAL,
    BEACON_PORT,
    BEACON_VERSION,
    MAX_DATAGRAM,
    MAX_ENTRIES,
    MAX_SEATS,
    SERVICE_TYPE,
    STALE_AFTER,
    TXT_VERSION,
    Announcement,
    beacon_datagram,
    bye_datagram,
    format_address,
    parse_datagram,
    parse_txt,
    txt_properties,
)

__all__ = [
    "BEACON_GROUP",
    "BEACON_INTERVAL",
    "BEACON_PORT",
    "BEACON_VERSION",
    "MAX_DATAGRAM",
    "MAX_ENTRIES",
    "MAX_SEATS",
    "SERVICE_TYPE",
    "STALE_AFTER",
    "TXT_VERSION",
    "Announcement",
    "Announcer",
    "Browser",
    "announce_on",
    "beacon_datagram",
    "browse",
    "bye_datagram",
    "format_address",
    "local_addresses",
    "parse_datagram",
    "parse_txt",
    "txt_properties",
]
