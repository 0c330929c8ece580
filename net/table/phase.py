"""The table's life as a state machine, written down in one place (as h11 keeps its
connection's): a table is in the lobby, playing a game, or over (between games), and
moves only by the events below, through ``Table.transition``; anything else is a bug in
the host and raises :class:`PhaseError`.

    lobby   --start-->           playing   (the owner starts, or all are ready)
    over    --start-->           playing   (play again)
    playing --finish-->          over      (the game ended)
    lobby   --restore_playing--> playing   (a save of a game in play comes back)
    lobby   --restore_over-->    over      (a save between games comes back)

Every other module reads ``table.phase`` and compares it with a :class:`Phase`; none
assigns it (``tests/net/test_phase.py``)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """Where a table is in its life (the wire's ``TableInfo.phase`` says the value)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class PhaseError(RuntimeError):
    """A move the table's state machine has no transition for: the host's own bug."""


#: (phase, event) -> the phase after it
TRANSITIONS: dict[tuple[Phase, str], Phase] = {
    (Phase.LOBBY, "start"): Phase.PLAYING,
    (Phase.OVER, "start"): Phase.PLAYING,
    (Phase.PLAYING, "finish"): Phase.OVER,
    (Phase.LOBBY, "restore_playing"): Phase.PLAYING,
    (Phase.LOBBY, "restore_over"): Phase.OVER,
}


def after(phase: Phase, event: str, table: str = "") -> Phase:
    """The phase ``event`` leads to from ``phase``; raises :class:`PhaseError`."""
    found = TRANSITIONS.get((phase, event))
    if found is None:
        raise PhaseError(f"table {table!r}: no {event!r} from {phase.value!r} "
                         f"(the host's state machine, net.table.phase)")
    return found


class Life:
    """The table's life (a base of ``net.table.core.TableCore``): its ``phase``, moved
    only by :meth:`transition`, and :meth:`restore` for a save."""

    name: str
    phase: Phase = Phase.LOBBY  # every table starts in the lobby

    def transition(self, event: str) -> Phase:
        """Move the state machine by ``event``; raises :class:`PhaseError` for a move
        it has no transition for."""
        self.phase = after(self.phase, event, self.name)
        return self.phase

    def restore(self, snapshot: Any) -> None:
        """Put a new table (in the lobby, nobody at it) in the state of a save
        (``snapshot``: a ``net.table.snapshot.Snapshot``)."""
        snapshot.put(self)
