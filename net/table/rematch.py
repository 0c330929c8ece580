"""The rematch everyone answers: at a game's end any seat offers the same game again
(the same seats, the same settings), and every seat and watcher sees the offer and who
answered what (``again`` both ways, protocol 4).

    no offer  --yes (a seat)-->      offered   (its seats accept)
    offered   --yes (a seat)-->      offered   (its seats accept)
    offered   --no (a seat)-->       offered   (its seats decline: freed at the start)
    offered   --every person answered, enough said yes--> started (those who said yes)
    offered   --owner's start-->     started   (with those who said yes; the rest freed)
    offered   --nobody left on yes-> ended     (those who accepted left or declined)

Bots keep their seats and never answer. A seat that declines keeps its number until
the game starts (so every screen shows who declined) and is freed then, or at once
when someone joins a full table; a seat that leaves is freed at once (the lobby's
``leave``). A person who declined stays as a watcher of the next game. The offer
lives only while the table is over: it is not saved, and a new game ends it.
"""

from __future__ import annotations

from typing import Any

from net import protocol as p
from net.protocol import Code
from net.table.people import Member, Refusal, Seat
from net.table.phase import Phase


class Rematch:
    """The offer at one table (:class:`net.table.Table` holds it)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.by: Seat | None = None
        self.yes: list[Seat] = []
        self.no: list[Seat] = []
        self._told: p.AgainState | None = None

    # -- requests ----------------------------------------------------------------------

    def answer(self, member: Member, message: p.Again, now: float) -> None:
        """A seat's ``again``; raises :class:`Refusal`."""
        table = self.table
        if table.phase != Phase.OVER:
            raise Refusal(Code.NOT_IN_LOBBY, "A rematch is offered at a game's end; "
                          + ("this game is still running." if table.phase == Phase.PLAYING
                             else "no game has been played at this table yet."))
        mine = [table.seats[i] for i in table.seats_of(member)]
        if not mine:
            raise Refusal(Code.NOT_SEATED, "Watchers have no seat to play again with.")
        if message.answer == "yes":
            if self.by is None:
                self.by = mine[0]
            self.yes += [s for s in mine if s not in self.yes]
            self.no = [s for s in self.no if s not in mine]
        else:
            if self.by is None:
                raise Refusal(Code.NOT_READY, "Nobody has offered a rematch: there is "
                              "nothing to decline (leave to go).")
            self.no += [s for s in mine if s not in self.no]
            self.yes = [s for s in self.yes if s not in mine]
        self.settle(now)

    def start(self, member: Member, now: float) -> bool:
        """The owner's ``start`` while an offer stands: the game starts with the seats
        that said yes (the owner's own included); the others are freed and watch.
        False when no offer stands (the lobby's own ``start`` decides)."""
        table = self.table
        if self.by is None or table.phase != Phase.OVER:
            return False
        self.yes += [table.seats[i] for i in table.seats_of(member)
                     if table.seats[i] not in self.yes]
        self._begin(now)
        return True

    # -- the offer's life ----------------------------------------------------------------

    def people(self) -> list[Seat]:
        """The seats whose person answers (every seat but a bot's)."""
        return [s for s in self.table.seats if s.kind != "bot"]

    def settle(self, now: float) -> bool:
        """After any request at the table: forget seats gone, end an offer nobody holds,
        start when every person said yes, and tell everyone what changed (True: told)."""
        table = self.table
        if self.by is None:
            return False
        if table.phase != Phase.OVER:  # a game began another way (ready, start)
            self._end(started=table.phase == Phase.PLAYING)
            return True
        seats = table.seats
        self.yes = [s for s in self.yes if s in seats]
        self.no = [s for s in self.no if s in seats]
        if not self.yes:
            self._end(started=False)
            return True
        if self.by not in seats or self.by not in self.yes:
            self.by = self.yes[0]
        staying = [s for s in seats if s not in self.no]
        if all(s in self.yes or s in self.no for s in self.people()) and \
                len(staying) >= table.spec.low:
            self._begin(now)
            return True
        return self.tell()

    def _begin(self, now: float) -> None:
        table = self.table
        staying = [s for s in table.seats if s.kind == "bot" or s in self.yes]
        if len(staying) < table.spec.low:
            raise Refusal(Code.TOO_FEW_PLAYERS,
                          f"{table.spec.title} needs at least {table.spec.low} players: "
                          "add a bot, or wait for another yes.")
        self.free([s for s in table.seats if s not in staying])
        self._end(started=True)
        table.play.begin(now)

    def free(self, gone: list[Seat]) -> None:
        """Free the seats of those who declined (or did not answer an offer the owner
        started): their people stay, as watchers."""
        table = self.table
        if not gone:
            return
        people = {s.member for s in gone if s.member is not None}
        for member in people:  # a watcher from now on: no seat, no token
            if all(table.seats[i] in gone for i in table.seats_of(member)):
                member.spectator = True
        table.drop_seats(lambda s: s not in gone)
        for member in people:
            if member.spectator and member.connected:
                member.deliver(table.welcome(member, resumed=False))
            if table.owner is member:
                table.owner = next((s.member for s in table.seats
                                    if s.kind == "human" and s.member is not None), None)
                if table.owner is not None:
                    table.notice("owner", table.owner.name, table.seats_of(table.owner)[0])

    def make_room(self) -> None:
        """A person joins a full table: the seats that declined are freed now."""
        table = self.table
        if self.no and len(table.seats) >= table.settings.seats:
            declined, self.no = self.no, []
            self.free(declined)

    def _end(self, started: bool) -> None:
        self.by, self.yes, self.no = None, [], []
        self.tell(started=started)

    # -- telling -------------------------------------------------------------------------

    def state(self, started: bool = False) -> p.AgainState:
        seats = self.table.seats

        def numbers(chosen: list[Seat]) -> list[int]:
            return [i for i, s in enumerate(seats) if s in chosen]

        if self.by is None:
            return p.AgainState(by=None, yes=[], no=[], waiting=[], started=started)
        waiting = [s for s in self.people() if s not in self.yes and s not in self.no]
        return p.AgainState(by=seats.index(self.by), yes=numbers(self.yes),
                            no=numbers(self.no), waiting=numbers(waiting), started=started)

    def tell(self, started: bool = False) -> bool:
        """Send the offer's state to every seat and watcher, when it changed (True)."""
        state = self.state(started)
        if state == self._told:
            return False
        self._told = state
        self.table.send_all(state)
        return True

    def tell_one(self, member: Member) -> None:
        """A member arrived (joined, watches, came back) while an offer stands."""
        if self.by is not None:
            member.deliver(self.state())
