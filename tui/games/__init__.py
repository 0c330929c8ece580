"""Each game's app side, in a folder of its own, and the registry that finds it.

``tui.games.<key>`` (the catalogue's key) holds a game's table screen, its replay
screen and the widgets only it draws; shared screens and widgets (``tui.screens``,
``tui.widgets``) know no game. The app asks :func:`game_of` for a game's side by key
and calls the functions every game module offers:

- ``table_screen(context: TableContext) -> TableScreen``: the table of a game that
  has started (or is running when this app arrives);
- ``replay_screen(replay, seat, *, ascii_mode) -> Screen``: a kept game, step by step;
- ``settings_line(settings) -> str``: its own settings, for the lobby's line.

A game module imports its screens only when asked, so the menu loads no table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

from net.catalogue import spec


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
    return importlib.import_module(f"{__name__}.{spec(key).key}")
