"""What the kernel knows about a TCP connection's round trip (Linux ``TCP_INFO``).

Lag-fair races correct a race action by its sender's one-way delay
(:mod:`net.latency`). The protocol's estimate comes from answers the client writes, so
a client can hold them back and look farther away than it is. The kernel's own round
trip for the connection comes from TCP's acknowledgements, which the kernel sends at
once, whatever the program above it does: ``tcpi_min_rtt``, the least round trip the
connection has seen (what ``ss -ti`` prints as ``minrtt``). The smoothed ``tcpi_rtt``
is not used: delayed acknowledgements move it by 0.3-11 ms even on loopback.

Where the kernel has no ``TCP_INFO`` (another OS, a Unix socket, a closed socket),
:func:`min_rtt` is None and the protocol's estimate stands alone
(:data:`AVAILABLE` says which).
"""

from __future__ import annotations

import socket
import struct
import sys
from typing import Any

#: whether this kernel reports ``tcpi_min_rtt`` (Linux 4.6 and later)
AVAILABLE = sys.platform.startswith("linux") and hasattr(socket, "TCP_INFO")

#: byte offset of ``tcpi_min_rtt`` (microseconds, u32) in ``struct tcp_info``
#: (linux/tcp.h: 8 one-byte fields, 24 u32 fields, ``tcpi_total_retrans``, 4 u64
#: fields, ``tcpi_segs_out``, ``tcpi_segs_in``, ``tcpi_notsent_bytes``)
_MIN_RTT = 148
_UNKNOWN = 0xFFFFFFFF  # no sample yet


def min_rtt(sock: Any) -> float | None:
    """The least round trip, in seconds, the kernel has measured on TCP socket
    ``sock`` (a :class:`socket.socket` or asyncio's ``TransportSocket``), or None
    where it cannot say."""
    if not AVAILABLE or sock is None:
        return None
    try:
        if sock.family not in (socket.AF_INET, socket.AF_INET6) or \
                sock.type != socket.SOCK_STREAM:  # fmt: skip
            return None
        raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    except (OSError, AttributeError, ValueError):
        return None
    if len(raw) < _MIN_RTT + 4:
        return None  # a kernel older than the field
    (micros,) = struct.unpack_from("I", raw, _MIN_RTT)
    if micros == _UNKNOWN:
        return None
    return micros / 1e6


def of_transport(transport: Any) -> float | None:
    """:func:`min_rtt` of an asyncio transport's socket (None if it has none)."""
    if transport is None:
        return None
    try:
        return min_rtt(transport.get_extra_info("socket"))
    except (AttributeError, RuntimeError):
        return None
