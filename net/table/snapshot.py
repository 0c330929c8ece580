"""A table as a save holds it (:class:`Snapshot`), and how a new table takes that state
(``Table.restore``): ``net.saves.saved`` builds one from a save and hands it over,
rather than writing the table's fields itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from net.table.people import Member, Seat
from net.table.phase import Phase

if TYPE_CHECKING:
    from net import protocol as p
    from net.games import Driver

#: the transition that brings a table back in each phase (none: it starts in the lobby)
_RESTORED = {Phase.PLAYING: "restore_playing", Phase.OVER: "restore_over"}


@dataclass
class Snapshot:
    """A table as a save holds it. ``phase``: lobby, playing (a game in play, its
    ``driver`` replayed to the save) or over (between games, its ``result`` kept)."""

    phase: Phase
    games_played: int
    seats: list[Seat]
    members: list[Member]
    owner: Member | None
    seed: str | None = None
    seed_hash: str | None = None
    result: p.Over | None = None
    driver: Driver | None = None
    held: float = 0.0  # how far the table's clock stands behind the host's
    log_base: int = 0  # the game's log entries stored already

    def put(self, table: Any) -> None:
        """Give ``table`` (new: in the lobby, nobody at it) this state."""
        if table.seats or table.members or table.phase is not Phase.LOBBY:
            raise ValueError(f"table {table.name!r}: only a new table is restored")
        if self.phase in _RESTORED:
            table.transition(_RESTORED[self.phase])
        table.games_played = self.games_played
        table.seats, table.members = list(self.seats), list(self.members)
        table.owner = self.owner
        table.seed, table.seed_hash, table.result = self.seed, self.seed_hash, self.result
        table.driver, table.held = self.driver, self.held
        table.log, table.log_base = [], self.log_base
