"""A table: its state and people (``core``), and the two objects it holds: its
requests (``lobby``) and its game loop (``play``)."""

from __future__ import annotations

from typing import Any

from net import protocol as p
from net.table.core import TableCore
from net.table.lobby import Lobby
from net.table.people import Member, Refusal
from net.table.play import Play


class Table(TableCore):
    """One table: a game, its seats, its members, its lobby and its log."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lobby = Lobby(self)
        self.play = Play(self)

    # what the host and its tests call (the rest is the lobby's and the loop's own)

    def handle(self, member: Member, message: Any, now: float) -> None:
        """One message from a member: a move goes to the game loop, any other request
        to the lobby; a refusal goes back as an ``error``."""
        self.called_at = now
        try:
            if isinstance(message, p.Move):
                self.play.act(member, message, now)
            else:
                self.lobby.handle(member, message, now)
        except Refusal as refusal:
            member.deliver(p.Error(code=refusal.code, message=refusal.message,
                                   ref=p.refers(message)))

    def add_bot(self, difficulty: str | None = None) -> int:
        """Seat a bot (host API, and the owner's ``add_bot``); returns the seat."""
        return self.lobby.add_bot(difficulty)

    def start(self, now: float) -> None:
        """Start the game now (host API: e.g. a table of bots); raises Refusal."""
        self.play.start(now)

    def tick(self, now: float) -> None:
        """Whatever is due at host time ``now`` (``next_wakeup``)."""
        self.play.tick(now)

    def hold(self, now: float) -> None:
        """A restored game waits for its people (``net.table``'s docstring)."""
        self.play.hold(now)

    def close(self, reason: str) -> None:
        self.play.close(reason)

    def waiting_message(self) -> str:
        return self.play.waiting_message()
