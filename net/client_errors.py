"""The client's errors: every failure :class:`net.client.Client` raises is a
:class:`NetError`, with a message for a person (never an ``[Errno 111]``)."""

from __future__ import annotations

__all__ = ["ConnectionLost", "NetError", "NotAHost", "Rejected", "TableFull", "Unreachable",
           "VersionMismatch"]


class NetError(Exception):
    """A network failure, with a message for a person; ``code`` is the host's error code
    (``net.protocol.Code``) when it sent one. The client's one error type: the code is
    keyword-only, since most failures (nothing answers, the line dropped) have none."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Unreachable(NetError):
    """Nothing answers at that address (refused, unreachable, timed out)."""


class NotAHost(NetError):
    """Something answered at that address, but not a Motherlode host: it sent what is
    not the protocol (an HTTP answer, garbage, the wrong messages), or closed or went
    quiet part way through an answer. Usually a mistyped port."""


class VersionMismatch(NetError):
    """The host speaks another protocol version."""


class TableFull(NetError):
    """Every seat is taken, or the game has started (join as a spectator instead)."""


class Rejected(NetError):
    """The host refused the hello for another reason (see ``code``)."""


class ConnectionLost(NetError):
    """The connection dropped and could not be resumed."""
