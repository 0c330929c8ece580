"""What every game module under the host provides: a driver, a brain and a codec.

A :class:`Driver` wraps one game of the pure rules; it is the only place that applies a
game's actions, and the table (``net.table``) treats every game alike. A
:class:`Brain` is a bot at a seat. A :class:`Codec` is the pair of translations
between the wire's action messages (``net.protocol``) and the rules' own actions:
``to_rules`` for what a person or a bot sends, ``to_wire`` for what a bot decides.
"""

from __future__ import annotations

from typing import Any

from net.moves import BadArgs, Moves, MoveSpec, Refused, UnknownMove
from net.views import to_view

__all__ = ["BadArgs", "Brain", "Codec", "Driver", "HostGame", "PluginError", "Refused",
           "WrongGame", "check_hooks"]


#: a move of another game (or a message that is no move)
WrongGame = UnknownMove


class Codec:
    """Wire moves to rules actions and back, for one game. Derived from the game's
    declarations (``net.moves``): :meth:`decode` checks a wire move against them, and a
    game writes only :meth:`rules`, the rules action for a checked move."""

    #: the game's declared moves, and its title (for the refusal of another game's move)
    moves: Moves = Moves()
    title: str = ""

    def decode(self, message: Any) -> tuple[MoveSpec, Any]:
        """The declaration and checked arguments of a wire move; raises
        :class:`WrongGame` (a move this game does not have) or :class:`BadArgs`."""
        return self.moves.decode(message, self.title)

    def to_rules(self, message: Any, seat: int) -> Any:
        """The rules action for a wire move played at ``seat``; raises
        :class:`WrongGame` for another game's move, :class:`BadArgs` for arguments the
        declaration does not admit and :class:`Refused` for one that names what does not
        exist (a card not in the deck)."""
        move, args = self.decode(message)
        return self.rules(move.name, args, seat)

    def rules(self, move: str, args: Any, seat: int) -> Any:
        """The rules action for a declared ``move`` with its checked ``args``."""
        raise NotImplementedError

    def races(self, message: Any) -> bool:
        return self.moves.races(message)

    def to_wire(self, action: Any, seat: int | None = None) -> Any:
        """The wire message a client would send for a rules action."""
        raise NotImplementedError


class Driver:
    """One game under the host: apply actions, time-outs, views, result."""

    game: str
    first: int
    codec: Codec
    #: the version of the game's rules it plays (``GameSpec.rules``; set by
    #: ``net.games.make_driver``, which hands it to a game of more than one version)
    rules: int = 1

    def start(self, now: float) -> list[dict[str, Any]]:
        raise NotImplementedError

    def act(
        self, seat: int, action: Any, now: float, acted: float | None = None, lag: float = 0.0
    ) -> list[dict[str, Any]]:
        """Apply a wire action for ``seat``; raises :class:`WrongGame` or :class:`Refused`
        (the rules' refusals under the host's name) with a message for a person,
        changing nothing. ``acted`` and ``lag`` time a race action (:meth:`races`) corrected
        for the player's network delay; other actions ignore them."""
        raise NotImplementedError

    def check(
        self, seat: int, action: Any, now: float, acted: float | None = None, lag: float = 0.0
    ) -> None:
        """Raise what :meth:`act` would raise now, changing nothing (on a copy)."""
        import copy

        copy.deepcopy(self).act(seat, action, now, acted, lag)

    def races(self, action: Any) -> bool:
        """Whether a wire move is one of the game's races (its declaration says so),
        which the table orders by when the person acted (lag-fair races,
        ``docs/PROTOCOL.md``)."""
        return self.codec.races(action)

    def deadline(self) -> float | None:
        """When the game next changes on its own (``tick``), or None."""
        return None

    def seated(self, levels: list[str | None]) -> bool:
        """Who plays each seat now: a bot's level (its difficulty, a stand-in's too) or
        None for a person. The table says so as the game begins and whenever a seat
        changes hands (a stand-in takes it, its person takes it back). A game whose
        views depend on it keeps it (Gold Nuggets: the kind of table its odds are
        calibrated for); returns whether the views changed (the table then sends
        them again). Never part of the rules' view: a save replays without it."""
        return False

    def tick(self, now: float) -> list[dict[str, Any]]:
        return []

    def repace(self, settings: Any) -> None:
        """The game's own settings again (one of its settings Struct,
        ``GameSpec.options``: ``Settings.own`` at the table's new pace, in a game): what
        is dealt or timed from now on takes its windows from them; a window already
        running keeps its own. A game whose settings have no time window
        (``Setting.paced``) has nothing to change."""

    def opening_over(self, people: list[int]) -> bool:
        """Whether the game's guided opening (the part a first-timer's guide covers,
        ``tui.games.<key>.guided``) is over for the seats of ``people``, at a boundary
        between rounds: a guided table's pace changes then (``net.table.guided``). A
        game with no opening of its own: at once."""
        return True

    def view(self, seat: int | None) -> dict[str, Any]:
        """The rules' own view (what bots read, what a save's digest covers)."""
        raise NotImplementedError

    def wire_view(self, seat: int | None) -> dict[str, Any]:
        """The view ``seat`` is sent: the rules' view, plus what the driver keeps beside
        the rules from the game's history (Fool's Gold: the slots of the hand), so a
        replay of the log gives it again."""
        return self.view(seat)

    def state_view(self, seat: int | None) -> Any:
        """:meth:`wire_view` as its ``net.views`` Struct, what a ``state`` carries. A
        driver may build it once per change of the game and hand the same object out
        until the next ``start``, ``act`` or ``tick``: treat it as read-only."""
        return to_view(self.wire_view(seat))

    @property
    def over(self) -> bool:
        raise NotImplementedError

    def result(self) -> tuple[list[int], list[int]]:
        """(winners, scores) once over."""
        raise NotImplementedError


class Brain:
    """A bot at a seat: ``plan(view, now)`` returns ``(wire action, at)`` or None."""

    def plan(self, view: dict[str, Any], now: float) -> tuple[Any, float] | None:
        raise NotImplementedError


# a game's host side as one object, and the check of it (``net.games.plugin``: the
# catalogue reads them without importing the protocol)
from net.games.plugin import HostGame, PluginError, check_hooks  # noqa: E402
