"""The sans-I/O NDJSON framing of the wire protocol.

One JSON object per line, UTF-8, over a byte stream (TCP or the in-process
transport). Every object has a ``"type"``; messages are msgspec Structs in two tagged
unions, one per direction (``ClientMessage``: client to host, ``HostMessage``: host to
client). ``docs/PROTOCOL.md`` documents every message, field and error code.

The framing is sans-I/O, like h11: a :class:`Connection` never touches a socket.

    conn = Connection(HOST)           # or Connection(CLIENT)
    conn.receive_data(chunk)          # bytes in (b"" means end of stream)
    msg = conn.next_message()         # a message, NEED_DATA or CLOSED
    data = conn.send(Welcome(...))    # message in, bytes out

Rules of the framing state machine:

- A line ends at ``\\n`` (a ``\\r`` before it is dropped, so ``nc -C`` works); blank
  lines are ignored. A partial line at end of stream is dropped.
- A bad line (malformed JSON, not UTF-8, NaN or Infinity, nesting deeper than
  ``max_depth``, unknown type, wrong or missing fields) raises
  :class:`RemoteProtocolError` with a stable :class:`Code`; the line is consumed and
  the next line decodes normally, so one bad line costs nothing else.
- A line longer than ``max_line`` bytes raises ``RemoteProtocolError(LINE_TOO_LONG)``
  and is fatal: the connection enters ``ERROR`` and every later ``next_message``
  raises the same error. The owner sends the error and closes.
- Sending something that cannot go on the wire (a message over the limit, a value
  JSON cannot hold, a message of the wrong direction) raises
  :class:`LocalProtocolError`: we broke it, not the peer.
- Versions: a connection speaks ``version`` (the latest until the hello names one;
  the owner sets it from the hello). Every message type carries the version that
  brought it in (``since``). A message of a later version than the connection speaks
  is refused when it arrives (``UNKNOWN_TYPE``: that peer cannot have meant it), and
  is never sent: :meth:`Connection.send` refuses it, and the host, which encodes a
  message once for every peer, drops it for a peer of an older version
  (``net.peer.Peer.send``). So adding a message needs no version gate of its own.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Protocol

import msgspec
from msgspec import Struct

from net.protocol.errors import Code, LocalProtocolError, RemoteProtocolError
from net.protocol.messages import (
    PROTOCOL_VERSION,
    ClientMessage,
    HostMessage,
    State,
    TableUpdate,
    Welcome,
)
from net.text import clean_text, quote_peer, strip_controls

DEFAULT_MAX_LINE = 64 * 1024
DEFAULT_MAX_DEPTH = 32


# ---------------------------------------------------------------------------
# Framing


class Role(StrEnum):
    HOST = "host"
    CLIENT = "client"


HOST = Role.HOST
CLIENT = Role.CLIENT


class _Sentinel:
    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name


NEED_DATA = _Sentinel("NEED_DATA")
CLOSED = _Sentinel("CLOSED")

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_NONFINITE = re.compile(rb"(?<![A-Za-z0-9_])-?(?:NaN|Infinity)(?![A-Za-z0-9_])")

_ENCODER = msgspec.json.Encoder()
_DECODERS = {
    HOST: msgspec.json.Decoder(ClientMessage),
    CLIENT: msgspec.json.Decoder(HostMessage),
}
_SENDABLE = {
    HOST: HostMessage.__args__,
    CLIENT: ClientMessage.__args__,
}
_RECEIVABLE_TYPES = {
    HOST: frozenset(m.__struct_config__.tag for m in ClientMessage.__args__),
    CLIENT: frozenset(m.__struct_config__.tag for m in HostMessage.__args__),
}


def nesting_depth(line: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped)."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub(b"", line)):
        if m.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class _TypeOnly(Struct):
    type: Any = None


# A \u escape of a surrogate: high ones must be followed by a low one, which msgspec
# refuses with a puzzling "truncated" when they are not.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _peer_type(line: bytes) -> Any:
    """The ``type`` of a line that is JSON (the last one if given twice), else None."""
    try:
        return msgspec.json.decode(line, type=_TypeOnly).type
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def _classify_decode_error(
    line: bytes, exc: Exception, known: frozenset[str] = frozenset()
) -> RemoteProtocolError:
    """The coded error for a line the decoder refused. No message quotes the peer's
    text uncleaned (``net.text.quote_peer``); ``ref`` is the message type when the line
    names one of ``known`` and the fault is in its fields."""
    text = clean_text(str(exc))  # msgspec's words may quote the peer (enum values)
    if len(text) > 200:  # keep the path at the end: it says which field
        text = f"{text[:120]}…{text[-60:]}"
    if isinstance(exc, msgspec.ValidationError):
        kind = _peer_type(line)
        ref = kind if isinstance(kind, str) and kind in known else None
        if "Number out of range" in text:
            return RemoteProtocolError(Code.BAD_NUMBER, f"a number is out of range: {text}", ref)
        if text.startswith("Expected `object`") and "- at `$" not in text:  # the line itself
            return RemoteProtocolError(Code.BAD_JSON, "each line must be one JSON object")
        # the message's own type (not an event's: those are fields of a state)
        if text == "Object missing required field `type`" or text.endswith("at `$.type`"):
            if not isinstance(kind, str):
                message = 'a message needs a "type", a string'
            elif ref is not None:
                message = '"type" is given twice, with different values'
            else:
                message = f"unknown message type {quote_peer(kind)}"
            return RemoteProtocolError(
                Code.UNKNOWN_TYPE, f"{message}; types: {', '.join(sorted(known))}"
            )
        if "missing required field" in text:
            return RemoteProtocolError(Code.MISSING_FIELD, text, ref)
        return RemoteProtocolError(Code.BAD_FIELD, text, ref)
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return RemoteProtocolError(Code.BAD_UTF8, "the line is not valid UTF-8")
    if _NONFINITE.search(_STRING.sub(b"", line)):
        return RemoteProtocolError(Code.BAD_NUMBER, "NaN and Infinity are not JSON numbers")
    if _SURROGATE_ESCAPE.search(line) and ("surrogate" in text or "truncated" in text):
        return RemoteProtocolError(
            Code.BAD_JSON,
            "malformed JSON: a \\u escape names a lone surrogate (\\ud800-\\udfff "
            "without its pair), which is not a character",
        )
    return RemoteProtocolError(Code.BAD_JSON, f"malformed JSON: {text}")


_STATE = frozenset(("state",))
# the messages that carry a table (``TableInfo``), whose game a client must know
_WITH_TABLE = (Welcome, TableUpdate)


class Games(Protocol):
    """What the framing asks of the games, which it does not know: a ``state``'s view and
    events decoded by their own types, and whether a table's game is one this version
    knows. ``net.protocol`` sets :data:`games` to ``net.views.WIRE`` when it is
    imported; the framing itself needs no registry of games."""

    def decode_view(self, raw: Any) -> Any: ...

    def decode_events(self, raw: Any) -> list[Any]: ...

    def known(self, game: str) -> bool: ...


#: the games' side of the wire (:class:`Games`); None: views stay raw and any game is
#: known (a framing used on its own)
games: Games | None = None


def _decode_state(state: State, line: bytes) -> None:
    """Decode a ``state``'s view and events by the games' own types (:data:`games`),
    in place; raises the coded error of a view or event that does not fit."""
    if games is None:
        return
    where = "view"
    try:
        state.view = games.decode_view(state.view)
        where = "events"
        state.events = games.decode_events(state.events)
    except msgspec.ValidationError as exc:
        # the path as it is in the whole line: `$.view.holdings`, not `$.holdings`
        text = str(exc).replace("`$", f"`$.{where}")
        if "- at `" not in text:
            text += f" - at `$.{where}`"
        raise _classify_decode_error(line, msgspec.ValidationError(text), _STATE) from None
    if problem := state.view.check():
        raise RemoteProtocolError(Code.BAD_FIELD, f"an impossible view: {problem}", "state")


class Connection:
    """One end of an NDJSON message stream, without any I/O (see the module docstring)."""

    def __init__(
        self,
        role: Role,
        *,
        max_line: int = DEFAULT_MAX_LINE,
        max_depth: int = DEFAULT_MAX_DEPTH,
        version: int = PROTOCOL_VERSION,
    ) -> None:
        self.role = Role(role)
        #: the protocol version this connection speaks (see the module docstring)
        self.version = version
        self.max_line = max_line
        self.max_depth = max_depth
        self._buffer = bytearray()
        self._start = 0  # where the next line starts in _buffer (the rest is read)
        self._scanned = 0  # bytes of _buffer known to hold no newline
        self._eof = False
        self._error: RemoteProtocolError | None = None
        self._decoder = _DECODERS[self.role]
        self._sendable = _SENDABLE[self.role]
        self._known = _RECEIVABLE_TYPES[self.role]

    def speaks(self, message: Any) -> bool:
        """Whether the peer's version knows this message (or message type)."""
        return message.since <= self.version

    @property
    def errored(self) -> bool:
        """True after a fatal error (an oversize line): close the connection."""
        return self._error is not None

    def receive_data(self, data: bytes) -> None:
        """Feed bytes from the peer; ``b""`` means the peer closed its side."""
        if self._eof:
            if data:
                raise LocalProtocolError(Code.INTERNAL, "data received after end of stream")
            return
        if data:
            self._buffer += data
        else:
            self._eof = True

    def next_message(self) -> Any:
        """The next complete message, ``NEED_DATA`` or ``CLOSED``.

        Raises :class:`RemoteProtocolError` for a bad line (see the module docstring).
        """
        buffer = self._buffer
        while True:
            if self._error is not None:
                raise self._error
            start = self._start
            newline = buffer.find(b"\n", self._scanned)
            if newline < 0:
                if start:
                    # the lines read go at once, not one memmove of the rest per line
                    del buffer[:start]
                    self._start = 0
                self._scanned = len(buffer)
                # +1: the line may still end in "\r\n"
                if len(buffer) > self.max_line + 1:
                    self._fail_long()
                if self._eof:
                    buffer.clear()
                    self._scanned = 0
                    return CLOSED
                return NEED_DATA
            end = newline
            if end > start and buffer[end - 1] == 13:  # "\r\n"
                end -= 1
            # the one copy of the line (slicing the bytearray, then bytes(), made two)
            with memoryview(buffer) as view:
                line = bytes(view[start:end])
            self._start = self._scanned = newline + 1
            if len(line) > self.max_line:
                self._fail_long()
            if not line.strip():
                continue
            message = self._decode(line)
            if message.since > self.version:
                raise RemoteProtocolError(
                    Code.UNKNOWN_TYPE,
                    f"{message.__struct_config__.tag!r} is a message of protocol "
                    f"{message.since}; this connection speaks protocol {self.version}",
                    message.__struct_config__.tag,
                )
            if message.__class__ is State:
                _decode_state(message, line)
            elif message.__class__ in _WITH_TABLE and games is not None \
                    and not games.known(message.table.game):
                raise RemoteProtocolError(
                    Code.BAD_FIELD, f"a game this version does not know: {message.table.game!r}",
                    message.__struct_config__.tag)  # fmt: skip
            if self.role is Role.CLIENT and _suspect(line):
                # The host cleans peer text, but a client trusts no host with its
                # terminal: escapes and controls go from every string it receives.
                message = _defang(message)
            return message

    def _fail_long(self) -> None:
        self._buffer.clear()
        self._start = self._scanned = 0
        self._error = RemoteProtocolError(
            Code.LINE_TOO_LONG, f"a line is longer than the limit of {self.max_line} bytes"
        )
        raise self._error

    def _decode(self, line: bytes) -> Any:
        # Count brackets before scanning: a cheap bound that skips the scan for
        # ordinary small messages.
        if line.count(b"[") + line.count(b"{") > self.max_depth:
            if nesting_depth(line) > self.max_depth:
                raise RemoteProtocolError(
                    Code.TOO_DEEP, f"nesting deeper than {self.max_depth} levels"
                )
        try:
            return self._decoder.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _classify_decode_error(line, exc, self._known) from None
        except RecursionError:
            raise RemoteProtocolError(Code.TOO_DEEP, "nesting too deep") from None

    def send(self, message: Any) -> bytes:
        """The bytes of one message, newline included."""
        if not isinstance(message, self._sendable):
            raise LocalProtocolError(
                Code.INTERNAL, f"a {self.role.value} cannot send {type(message).__name__}"
            )
        if message.since > self.version:
            raise LocalProtocolError(
                Code.INTERNAL, f"a {type(message).__name__} is a message of protocol "
                f"{message.since}; this connection speaks protocol {self.version}")  # fmt: skip
        return encode(message, max_line=self.max_line)


# What a line must hold for a string in it to carry a control or bidi character: a JSON
# \u escape, or the raw UTF-8 of a C1 control, a bidi control or a BOM.
_SUSPECT = re.compile(
    rb"\\u|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]|\xef\xbb\xbf"
)


def _suspect(line: bytes) -> bool:
    """``_SUSPECT.search(line)``, with the common case first: an ASCII line (isascii is
    a fast scan) can only hold a control as a \\u escape."""
    if line.isascii():
        # a lone backslash first: finding one byte is a memchr, several times faster
        # than looking for the pair, and most lines hold no backslash at all
        return line.find(b"\\") >= 0 and b"\\u" in line
    return _SUSPECT.search(line) is not None


def _defang(value: Any) -> Any:
    if isinstance(value, str):
        return strip_controls(value)
    if isinstance(value, list):
        return [_defang(v) for v in value]
    if isinstance(value, dict):
        return {_defang(k): _defang(v) for k, v in value.items()}
    if isinstance(value, Struct):
        fields = {f: _defang(getattr(value, f)) for f in value.__struct_fields__}
        return msgspec.structs.replace(value, **fields)
    return value


def encode(message: Struct, *, max_line: int = DEFAULT_MAX_LINE) -> bytes:
    """One message as a line of bytes; raises LocalProtocolError if it cannot be sent."""
    try:
        data = _ENCODER.encode(message)
    except (TypeError, ValueError, OverflowError) as exc:
        raise LocalProtocolError(Code.INTERNAL, f"cannot encode {message!r}: {exc}") from None
    if len(data) > max_line:
        raise LocalProtocolError(
            Code.INTERNAL,
            f"a {type(message).__name__} of {len(data)} bytes exceeds the line limit",
        )
    return data + b"\n"
