"""The Motherlode wire protocol: typed messages and the sans-I/O NDJSON framing.

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
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from net.text import clean_text, quote_peer, strip_controls
from net.views import Event, View
from net.views import check as check_view

PROTOCOL_VERSION = 1
DEFAULT_MAX_LINE = 64 * 1024
DEFAULT_MAX_DEPTH = 32


class Code(StrEnum):
    """Stable error codes: the ``code`` of an ``error`` message (all in PROTOCOL.md)."""

    # framing and validation
    BAD_JSON = "bad_json"
    BAD_UTF8 = "bad_utf8"
    BAD_NUMBER = "bad_number"
    TOO_DEEP = "too_deep"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    MISSING_FIELD = "missing_field"
    LINE_TOO_LONG = "line_too_long"
    # the life of a connection
    BAD_VERSION = "bad_version"
    HELLO_FIRST = "hello_first"
    HELLO_TWICE = "hello_twice"
    HELLO_TIMEOUT = "hello_timeout"
    SERVER_FULL = "server_full"
    NO_SUCH_TABLE = "no_such_table"
    TABLE_FULL = "table_full"
    BAD_TOKEN = "bad_token"
    BAD_NAME = "bad_name"
    BAD_TEXT = "bad_text"
    RATE_LIMITED = "rate_limited"
    # the lobby
    NOT_OWNER = "not_owner"
    NOT_IN_LOBBY = "not_in_lobby"
    BAD_SETTING = "bad_setting"
    NO_SUCH_SEAT = "no_such_seat"
    HOTSEAT_OFF = "hotseat_off"
    NOT_READY = "not_ready"
    TOO_FEW_PLAYERS = "too_few_players"
    # the game
    NOT_PLAYING = "not_playing"
    NOT_SEATED = "not_seated"
    NOT_YOUR_SEAT = "not_your_seat"
    WAITING = "waiting"
    WRONG_GAME = "wrong_game"
    ILLEGAL_ACTION = "illegal_action"
    # the host itself
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A protocol violation, with a stable :class:`Code` and a message for a person;
    ``ref`` is the type of the message refused, when it is known."""

    def __init__(self, code: Code, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def to_message(self) -> Error:
        return Error(code=self.code, message=self.message, ref=self.ref)


class LocalProtocolError(ProtocolError):
    """We broke the protocol (a bug on this side, or a value that cannot be sent)."""


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol."""


# ---------------------------------------------------------------------------
# Field types

Seat = Annotated[int, Meta(ge=0, le=63)]
# Lengths on the wire are generous bounds against abuse; the host cleans peer text
# and applies the real limits (names 1-20, chat 1-200) with clear errors.
Text = Annotated[str, Meta(max_length=1000)]
Token = Annotated[str, Meta(max_length=200)]


class _Msg(Struct, tag_field="type", kw_only=True, omit_defaults=False):
    pass


class CardRef(Struct, kw_only=True):
    """A Fool's Gold card named by the client: ``name`` and ``variant`` identify it."""

    name: Text
    variant: Text
    kind: Text | None = None


# ---------------------------------------------------------------------------
# Client to host


class Hello(_Msg, tag="hello"):
    """First message of every connection."""

    protocol: int
    name: Text
    token: Token | None = None
    table: Text | None = None
    spectate: bool = False


class Ready(_Msg, tag="ready"):
    ready: bool = True


class Configure(_Msg, tag="configure"):
    """The owner changes table settings in the lobby; absent fields stay as they are."""

    seats: int | UnsetType = UNSET
    difficulty: Text | UnsetType = UNSET
    first_player: Seat | None | UnsetType = UNSET
    seed: Text | None | UnsetType = UNSET
    grab_timeout: float | UnsetType = UNSET
    call_window: float | UnsetType = UNSET
    grace: float | UnsetType = UNSET
    bot_pace: float | UnsetType = UNSET
    hotseat: bool | UnsetType = UNSET
    supply: int | UnsetType = UNSET


class AddBot(_Msg, tag="add_bot"):
    difficulty: Text | None = None


class RemoveBot(_Msg, tag="remove_bot"):
    seat: Seat


class AddLocal(_Msg, tag="add_local"):
    """Hot-seat: seat another player controlled by this same connection."""

    name: Text


class Start(_Msg, tag="start"):
    pass


class Chat(_Msg, tag="chat"):
    text: Text


class Leave(_Msg, tag="leave"):
    """Leave the table. ``keep_seat`` during a game: step away, a stand-in plays the
    seat at once, and the resume token takes it back later."""

    keep_seat: bool = False


class Ping(_Msg, tag="ping"):
    id: int | Text | None = None


# Game actions. ``seat`` is needed only by a client controlling several seats.


class Roll(_Msg, tag="roll"):
    """Gold Nuggets: roll the remaining dice (the host rolls them)."""

    seat: Seat | None = None


class Keep(_Msg, tag="keep"):
    faces: Annotated[list[Text], Meta(max_length=7)]
    seat: Seat | None = None


class Stop(_Msg, tag="stop"):
    steal_from: Seat | None = None
    seat: Seat | None = None


class Draw(_Msg, tag="draw"):
    seat: Seat | None = None


class Discard(_Msg, tag="discard"):
    card: CardRef
    seat: Seat | None = None


class Grab(_Msg, tag="grab"):
    seat: Seat | None = None


class Call(_Msg, tag="call"):
    seat: Seat | None = None


GameAction = Roll | Keep | Stop | Draw | Discard | Grab | Call
GAME_ACTIONS = (Roll, Keep, Stop, Draw, Discard, Grab, Call)

ClientMessage = (
    Hello
    | Ready
    | Configure
    | AddBot
    | RemoveBot
    | AddLocal
    | Start
    | Chat
    | Leave
    | Ping
    | Roll
    | Keep
    | Stop
    | Draw
    | Discard
    | Grab
    | Call
)


# ---------------------------------------------------------------------------
# Host to client


class SeatInfo(Struct, kw_only=True):
    seat: int
    name: str
    kind: Literal["human", "bot", "local"]
    ready: bool
    connected: bool
    standin: bool = False


class TableSettings(Struct, kw_only=True):
    seats: int
    difficulty: str
    first_player: int | None
    seeded: bool
    grab_timeout: float
    call_window: float
    grace: float
    bot_pace: float
    hotseat: bool
    supply: int = 77


class TableInfo(Struct, kw_only=True):
    name: str
    game: Literal["nuggets", "foolsgold"]
    phase: Literal["lobby", "playing", "over"]
    owner: int | None
    seats: list[SeatInfo]
    settings: TableSettings
    spectators: int
    seed_hash: str | None = None
    # a restored game waiting for its people: their seats, and the seconds left (at
    # the time this was sent) before it goes on without them
    waiting: list[int] = []
    wait_left: float | None = None


class Welcome(_Msg, tag="welcome"):
    protocol: int
    name: str
    seat: int | None
    seats: list[int]
    token: str | None
    resumed: bool
    table: TableInfo


class TableUpdate(_Msg, tag="table"):
    table: TableInfo


class Notice(_Msg, tag="notice"):
    """Something happened to a person: joined, left, away, back, standin, owner, bot."""

    event: str
    name: str
    seat: int | None = None


class Started(_Msg, tag="started"):
    seed_hash: str
    players: list[str]
    first: int


class State(_Msg, tag="state"):
    """A seat's view after a change, with the events that explain it (``net.views``)."""

    seat: int | None
    view: View
    events: list[Event]
    at: float


class ChatLine(_Msg, tag="chat"):
    name: str
    seat: int | None
    text: str
    at: float


class Over(_Msg, tag="over"):
    winners: list[int]
    scores: list[int]
    seed: str
    seed_hash: str


class Error(_Msg, tag="error"):
    """A refusal. Its ``message`` is cleaned on construction (``net.text.clean_text``),
    so no error ever echoes a peer's escape sequences, controls or invisible text,
    whoever built it from whatever a peer sent."""

    code: str
    message: str
    ref: str | None = None

    def __post_init__(self) -> None:
        self.message = clean_text(self.message)


class Bye(_Msg, tag="bye"):
    reason: str


class Pong(_Msg, tag="pong"):
    id: int | str | None = None
    at: float | None = None


HostMessage = (
    Welcome | TableUpdate | Notice | Started | State | ChatLine | Over | Error | Bye | Pong
)


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


class Connection:
    """One end of an NDJSON message stream, without any I/O (see the module docstring)."""

    def __init__(
        self,
        role: Role,
        *,
        max_line: int = DEFAULT_MAX_LINE,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> None:
        self.role = Role(role)
        self.max_line = max_line
        self.max_depth = max_depth
        self._buffer = bytearray()
        self._scanned = 0  # bytes of _buffer known to hold no newline
        self._eof = False
        self._error: RemoteProtocolError | None = None
        self._decoder = _DECODERS[self.role]
        self._sendable = _SENDABLE[self.role]
        self._known = _RECEIVABLE_TYPES[self.role]

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
        while True:
            if self._error is not None:
                raise self._error
            newline = self._buffer.find(b"\n", self._scanned)
            if newline < 0:
                self._scanned = len(self._buffer)
                # +1: the line may still end in "\r\n"
                if len(self._buffer) > self.max_line + 1:
                    self._fail_long()
                if self._eof:
                    self._buffer.clear()
                    self._scanned = 0
                    return CLOSED
                return NEED_DATA
            line = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            self._scanned = 0
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.max_line:
                self._fail_long()
            if not line.strip():
                continue
            message = self._decode(line)
            if message.__class__ is State and (problem := check_view(message.view)):
                raise RemoteProtocolError(Code.BAD_FIELD, f"an impossible view: {problem}", "state")
            if self.role is Role.CLIENT and _suspect(line):
                # The host cleans peer text, but a client trusts no host with its
                # terminal: escapes and controls go from every string it receives.
                message = _defang(message)
            return message

    def _fail_long(self) -> None:
        self._buffer.clear()
        self._scanned = 0
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
        return b"\\u" in line
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


def message_type(message: Struct) -> str:
    """The wire ``type`` of a message."""
    return type(message).__struct_config__.tag
