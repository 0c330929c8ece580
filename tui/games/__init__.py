"""Each game's app side, in a folder of its own, and the registry that finds it.

``tui.games.<key>`` (the catalogue's ``GameSpec.app``) holds a game's table screen, its replay
screen and the widgets only it draws; shared screens and widgets (``tui.screens``,
``tui.widgets``) know no game. The app asks :func:`game_of` for a game's side by key
and calls the functions every game module offers:

- ``table_screen(context: TableContext) -> TableScreen``: the table of a game that
  has started (or is running when this app arrives);
- ``replay_screen(replay, seat, *, ascii_mode) -> Screen``: a kept game, step by step;
- ``settings_line(settings) -> str``: its own settings, for the lobby's line;
- ``length_line(settings, players) -> str`` (optional): how long a game lasts at a
  table so set with that many players, for the lobby (the game's own measurements);
- ``guide() -> object`` (optional): the guided first round, an object whose
  ``words(table_screen) -> str | None`` says the step in front of the person (None:
  the guided part is over);
- ``describe(event, names) -> str | None``: one of its events in words, for the log;
- ``RULES = (key, anchor)``: the key that jumps to its section of the rules screen
  and that section's anchor; ``ADVISOR = True`` where it has an advisor panel.

A game module imports its screens only when asked, so the menu loads no table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

from net.catalogue import games, spec


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


def game_of(key: str) -> ModuleType:
    """The app side of the game ``key``; raises ``net.catalogue.UnknownGame``."""
    return importlib.import_module(spec(key).app)


def length_words(info) -> str:
    """How long a game lasts at this table (``info``, a ``TableInfo``), in the game's
    own words (its ``length_line``), at the players seated once enough are, until then
    at the table's seats; "" where the game measures none."""
    length = getattr(game_of(info.game), "length_line", None)
    if length is None:
        return ""
    seated = len(info.seats)
    return length(info.settings, seated if seated >= spec(info.game).low else
                  info.settings.seats)


def with_advisor() -> tuple[str, ...]:
    """The titles of the games that have an advisor (``ADVISOR = True`` in their app
    side)."""
    return tuple(g.title for g in games() if getattr(game_of(g.key), "ADVISOR", False))
