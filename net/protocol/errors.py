"""The protocol's errors: stable codes, and one exception type with one argument order,
``(code, message, ref)``, as on the wire's ``error`` message. As in h11, a
:class:`LocalProtocolError` is ours to fix and a :class:`RemoteProtocolError` the peer's.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from net.protocol.messages import Error


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
    # lag-fair races (protocol 2): a probe_reply to no probe of this connection
    BAD_PROBE = "bad_probe"
    # protocol 4: ``standings`` names a season the host's league does not have
    NO_SUCH_SEASON = "no_such_season"
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
        from net.protocol.messages import Error

        return Error(code=self.code, message=self.message, ref=self.ref)


class LocalProtocolError(ProtocolError):
    """We broke the protocol (a bug on this side, or a value that cannot be sent)."""


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol."""
