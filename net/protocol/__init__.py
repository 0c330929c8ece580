"""The Motherlode wire protocol: typed messages and the sans-I/O NDJSON framing.

One JSON object per line, UTF-8, over a byte stream (TCP or the in-process transport).
Three modules, one idea each:

- :mod:`net.protocol.errors`: the stable error codes and the protocol's exceptions;
- :mod:`net.protocol.messages`: every message, a msgspec Struct, in two tagged unions;
- :mod:`net.protocol.framing`: :class:`Connection`, the sans-I/O state machine that
  turns bytes into messages and messages into bytes, as h11 does for HTTP.

Everything is re-exported here, so callers write ``from net import protocol as p`` and
``p.Hello``, ``p.Connection``, ``p.Code``. ``docs/PROTOCOL.md`` documents every
message, field and error code, and ``docs/protocol.schema.json`` is generated from
these types.
"""

# the framing knows no game: the games' own types decode a state's view and events
# (``net.views``), handed to it here, once
from net import views as _views
from net.protocol import framing as _framing
from net.protocol.errors import Code, LocalProtocolError, ProtocolError, RemoteProtocolError
from net.protocol.framing import (
    CLIENT,
    CLOSED,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_LINE,
    HOST,
    NEED_DATA,
    Connection,
    Role,
    encode,
    nesting_depth,
)
from net.protocol.messages import *  # noqa: F403 (every message and field type)
from net.protocol.messages import __all__ as _messages

_framing.games = _views.WIRE

__all__ = [
    "CLIENT",
    "CLOSED",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_LINE",
    "HOST",
    "NEED_DATA",
    "Code",
    "Connection",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
    "Role",
    "encode",
    "nesting_depth",
    *_messages,
]
