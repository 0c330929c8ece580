"""A game's app side as one typed object (:class:`AppGame`), and the app's registry
of them (:func:`game_of`). The catalogue's ``GameSpec.app`` names the object
(``"tui.games.nuggets:APP"``); the registry imports it the first time the app asks for
that game, and checks it: an object that is not an :class:`AppGame`, that leaves a
required hook out, or that defines a public name the base does not know (a misspelt
hook, ``plain_sheet`` for ``plain_seat``) is refused with a sentence
(:class:`PluginError`). :func:`check_all` runs the check for every game at the app's
start, so a broken plugin fails there, not in the middle of a game.

The hooks (every optional one has its default here, so the app never asks whether a
game has one):

- ``table_screen(context)``: the table of a game that has started (required);
- ``replay_screen(replay, seat, *, ascii_mode)``: a kept game, step by step (required);
- ``describe(event, names, view=None)``: one of its events in words, for the log, or
  None when the event is not one of its own (required);
- ``settings_line(settings)``: its own settings for the lobby's line ("");
- ``length_line(settings, players)``: how long a game lasts at such a table ("");
- ``guide()``: the guided first round (an object whose ``words(table_screen)`` says
  the step in front of the person), or None where it has none;
- ``plain_seat(moves)``: its adapter at the plain seat, a ``tui.plain.words.Generic``
  of its own, or None (the default): the plain seat's ``Generic`` reads every move from
  the declarations alone;
- ``rules``: ``(key, anchor)``, the key that jumps to its section of the rules screen;
- ``advisor``: True where its table has an advisor panel (the Settings' toggle).

A game's object imports its screens only when asked, so the menu loads no table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.catalogue import games, spec
from net.games.plugin import PluginError as PluginError  # the app says it too
from net.games.plugin import load


@dataclass(frozen=True)
class TableContext:
    """What the app knows when a game starts, for a game's table screen."""

    seats: list[int]  # the seats this app plays (empty: a spectator)
    names: list[str]  # every seat's name
    ascii_mode: bool = False
    advisor: bool = True  # the person's setting: show the advisor (where a game has one)
    hotseat: bool = False  # several people share this keyboard
    turn_pause: float | None = None  # the hand-over pause between hot-seat turns
    host_now: Callable[[], float] | None = field(default=None, compare=False)


class AppGame:
    """One game's app side: subclass it, define the required hooks, and name an
    instance in the game's ``GameSpec.app`` (see the module docstring)."""

    #: the key that jumps to its section of the rules screen, and the section's anchor
    rules: tuple[str, str] | None = None
    #: its table has an advisor panel
    advisor: bool = False

    #: the hooks a game must define itself
    REQUIRED = ("table_screen", "replay_screen", "describe")

    def table_screen(self, context: TableContext) -> Any:
        raise NotImplementedError

    def replay_screen(self, replay: Any, seat: int | None = None, *,
                      ascii_mode: bool = False) -> Any:  # fmt: skip
        raise NotImplementedError

    def describe(self, event: Any, names: Any, view: Any = None) -> str | None:
        raise NotImplementedError

    def settings_line(self, settings: Any) -> str:
        return ""

    def length_line(self, settings: Any, players: int) -> str:
        return ""

    def guide(self) -> Any:
        return None

    def alert(self, event: Any, seats: list[int], names: list[str]) -> str | None:
        """The words of an alert when ``event`` needs the person at ``seats`` (their
        turn, a race, something aimed at them), or None (``tui.alerts``)."""
        return None

    def plain_seat(self, moves: Any) -> Any:
        """Its adapter at the plain seat, new for each seat (a ``tui.plain.words.Generic``
        of its own), or None: the plain seat's own ``Generic``, which reads every move
        from the declarations alone."""
        return None


_found: dict[str, tuple[str, AppGame]] = {}


def game_of(key: str) -> AppGame:
    """The app side of the game ``key``, checked; raises ``net.catalogue.UnknownGame``
    or :class:`PluginError`."""
    where = spec(key).app
    cached = _found.get(key)
    if cached is not None and cached[0] == where:
        return cached[1]
    found: AppGame = load(spec(key).title, "app", where, AppGame)
    _found[key] = (where, found)
    return found


def check_all() -> None:
    """Every game's app side, checked now (the app's start): raises PluginError."""
    for game in games():
        game_of(game.key)


def length_words(info: Any) -> str:
    """How long a game lasts at this table (``info``, a ``TableInfo``), in the game's
    own words, at the players seated once enough are, until then at the table's seats;
    "" where the game measures none."""
    seated = len(info.seats)
    return game_of(info.game).length_line(
        info.settings, seated if seated >= spec(info.game).low else info.settings.seats)


def with_advisor() -> tuple[str, ...]:
    """The titles of the games that have an advisor panel."""
    return tuple(g.title for g in games() if game_of(g.key).advisor)
