"""Who is at a table: a connection's presence (:class:`Member`, with its resume
token), a seat (:class:`Seat`: a person's, a local player's or a bot's), and the
refusal a table answers a request with."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.games import Brain
from net.protocol import ProtocolError

#: bots' names: no word of any card's (a bot called Nell beside the card Nugget Nell
#: would make "Nell called Fool's Gold!" read as a card); tests/net/test_names.py checks
BOT_NAMES = (
    "Hattie", "Zeke", "Klondike", "Sluice", "Amos", "Ore", "Cassidy", "Jubal",
)  # fmt: skip
_member_ids = itertools.count(1)


def keep_ids_above(highest: int) -> None:
    """New members get ids above ``highest`` (a restored table's members keep theirs)."""
    global _member_ids
    _member_ids = itertools.count(max(next(_member_ids), highest + 1))


class Refusal(ProtocolError):
    """A request the host refuses, sent back as an ``error`` with this code. It is a
    :class:`~net.protocol.ProtocolError` (``code, message, ref``): the table's refusals
    and the framing's are one type with one argument order."""


def noop(message: Any) -> None:
    pass


@dataclass(eq=False)
class Member:
    """One connection's presence at a table (a player or a spectator)."""

    name: str
    deliver: Callable[[Any], None] = noop
    close: Callable[[str], None] = lambda reason: None
    spectator: bool = False
    id: int = field(default_factory=lambda: next(_member_ids))
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    connected: bool = True
    table: Any = None  # the net.table.Table it is at
    link: object = None  # the shell's connection now serving this member
    chat_at: float = -1e9  # host time of its last chat line (the chat limits)
    chat_notice_at: float = -1e9  # ... and of the last "too much chat" it was told
    react_at: float = -1e9  # host time of its last reaction (``net.table.reactions``)
    # the one-way network delay of the person behind this connection (seconds), as
    # the shell measures it (``net.latency``); 0 when unknown (a protocol 1 client).
    # The table corrects race actions by it, up to ``Settings.lag_cap``.
    lag: float = 0.0
    #: the person has an identity on this host (``net.league.seats``): a key proved in
    #: the hello (protocol 4), or this machine's own app; without one a seat is a guest
    verified: bool = False

    @property
    def token(self) -> str | None:
        """The resume token: ``<id>.<secret>``, 192 random bits from ``secrets``."""
        return None if self.spectator else f"{self.id}.{self.secret}"


@dataclass(eq=False)
class Seat:
    name: str
    kind: str  # "human", "local" (hot-seat, controlled by a human's connection) or "bot"
    member: Member | None = None
    ready: bool = False
    difficulty: str = "normal"
    brain: Brain | None = None
    standin: bool = False
    away_since: float | None = None
    plan: tuple[Any, float] | None = None


