"""A table: its state and people (``core``), and the objects it holds: its requests
(``lobby``), its game loop (``play``), its rematch offer (``rematch``) and its
reactions (``reactions``)."""

from __future__ import annotations

from typing import Any

from net import protocol as p
from net.table.core import TableCore
from net.table.lobby import Lobby
from net.table.people import Member, Refusal
from net.table.phase import Phase
from net.table.play import Play
from net.table.reactions import react
from net.table.rematch import Rematch


class Table(TableCore):
    """One table: a game, its seats, its members, its lobby and its log."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lobby = Lobby(self)
        self.play = Play(self)
        self.rematch = Rematch(self)

    # what the host and its tests call (the rest is the lobby's and the loop's own)

    def handle(self, member: Member, message: Any, now: float) -> None:
        """One message from a member: a move goes to the game loop, a rematch's answer
        to the offer, any other request to the lobby; a refusal goes back as an
        ``error``. The offer hears of every change (a leave, a game begun)."""
        self.called_at = now
        try:
            if isinstance(message, p.Move):
                self.play.act(member, message, now)
            elif isinstance(message, p.React):
                react(self, member, message, now)
            elif isinstance(message, p.Again):
                self.rematch.answer(member, message, now)
            elif isinstance(message, p.Start) and member is self.owner and \
                    self.rematch.start(member, now):
                pass  # the owner started the offered game with those who said yes
            else:
                self.lobby.handle(member, message, now)
        except Refusal as refusal:
            member.deliver(p.Error(code=refusal.code, message=refusal.message,
                                   ref=p.refers(message)))
        self.rematch.settle(now)

    def join(self, member: Member, now: float) -> None:
        if not member.spectator and self.phase == Phase.OVER:
            self.rematch.make_room()  # a declined seat is a free place
        super().join(member, now)
        if not self.rematch.settle(now):  # a new seat waits too: everyone told, else
            self.rematch.tell_one(member)  # the newcomer alone

    def resume(self, old: Member, secret: str, new: Member, now: float) -> Member:
        back = super().resume(old, secret, new, now)
        self.rematch.tell_one(back)
        return back

    def add_bot(self, difficulty: str | None = None) -> int:
        """Seat a bot (host API, and the owner's ``add_bot``); returns the seat."""
        return self.lobby.add_bot(difficulty)

    def start(self, now: float) -> None:
        """Start the game now (host API: e.g. a table of bots); raises Refusal."""
        self.play.start(now)

    def tick(self, now: float) -> None:
        """Whatever is due at host time ``now`` (``next_wakeup``)."""
        self.play.tick(now)
        self.rematch.settle(now)  # a seat away too long was freed

    def hold(self, now: float) -> None:
        """A restored game waits for its people (``net.table``'s docstring)."""
        self.play.hold(now)

    def close(self, reason: str) -> None:
        self.play.close(reason)

    def waiting_message(self) -> str:
        return self.play.waiting_message()
