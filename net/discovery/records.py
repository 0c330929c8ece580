"""What a table's announcement says and how it travels: the :class:`Announcement`,
the TXT record of DNS-SD and the beacon datagrams. Pure functions, no sockets; every
parser treats its input as hostile and returns None rather than raising."""

from __future__ import annotations

import ipaddress
import json
import re
from dataclasses import dataclass

from net.catalogue import spec
from net.text import TABLE_NAME_MAX, clean_text

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
