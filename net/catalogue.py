"""The catalogue: every fact about each game the suite offers, and the registry that
finds a game's parts. It names no game itself.

A game registers a :class:`GameSpec` (its title, seats, settings...) and says where its
parts live:

- ``host``: its host side, a package holding ``host`` (its driver, bot brain and wire
  codec: ``make_driver``, ``make_brain``, ``make_codec``), ``views`` (the typed shape
  of its views and events on the wire) and, where it has them, ``verify`` (checks a
  finished game from a client's messages) and ``stats`` (its columns in the player
  stats);
- ``app``: its app side, a package the TUI asks for its screens (``tui.games``).

The games that ship are registered by entry points in ``pyproject.toml`` (the group
:data:`GROUP`, each naming a ``GameSpec``), read the first time the catalogue is asked;
a plugin adds one the same way, or calls :func:`register` (tests do). Everything else
(the table, the host, discovery, the command line, the menus, the lobby, served play)
asks this module and names no game (``tests/test_game_boundary.py``).

Reading the catalogue imports each game's ``GameSpec`` module only (a game's package
``__init__``, data only), so the app's menu can list titles without loading a game's
rules (``tests/test_catalogue.py`` checks these facts against the rules packages).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

#: the entry-point group that names the games (``pyproject.toml``)
GROUP = "motherlode.games"

#: bot strengths, weakest first (every game offers all three)
DIFFICULTIES = ("easy", "normal", "hard")


class UnknownGame(ValueError):
    """A game key that is not in the catalogue."""

    def __init__(self, key: object) -> None:
        super().__init__(f"unknown game {key!r}: choose one of {', '.join(keys())}")
        self.key = key


@dataclass(frozen=True)
class GameSpec:
    """What the suite knows about one game, besides its rules and its driver."""

    key: str
    title: str
    low: int  # fewest seats
    high: int  # most seats
    grace: float  # seconds a dropped player's seat waits before a stand-in plays it
    solo_bots: int  # bots against one person, unless asked otherwise
    hotseat: bool  # can be played by several people on one keyboard
    letter: str  # its key in the menus (against bots; a new table where served)
    short: str  # a word for it in a footer ("Dice")
    kind: str  # what it is played with, before "table" ("a new dice table")
    host: str  # the package of its host side (see the module docstring)
    app: str  # the package of its app side (``tui.games``)
    order: int = 100  # its place in the menus, lowest first
    #: the game's own table settings and their defaults (``Settings`` fields)
    defaults: Mapping[str, object] = field(default_factory=dict)
    #: the highest value a person may set for each of its own whole-number settings
    limits: Mapping[str, int] = field(default_factory=dict)
    difficulties: tuple[str, ...] = DIFFICULTIES

    @property
    def module(self) -> str:
        """The module holding this game's driver, brain and codec."""
        return f"{self.host}.host"

    def part(self, name: str) -> ModuleType | None:
        """One part of its host side (``"host"``, ``"views"``, ``"verify"``,
        ``"stats"``), or None where the game has no such part."""
        try:
            return importlib.import_module(f"{self.host}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{self.host}.{name}":
                raise  # the part exists and fails to import: a bug, not an absence
            return None

    @property
    def moves(self) -> Any:
        """Its moves (``net.moves.Moves``), declared in its host side's ``moves``."""
        found = self.part("moves")
        if found is None:
            raise LookupError(f"{self.title} declares no moves ({self.host}.moves)")
        return found.MOVES

    @property
    def seats(self) -> str:
        """``"2-5 players"``: for labels."""
        return f"{self.low}-{self.high} players"

    @property
    def label(self) -> str:
        """``"Gold Nuggets (2-5 players)"``."""
        return f"{self.title} ({self.seats})"

    def check_seats(self, seats: int) -> str | None:
        """None if ``seats`` people can play, or why not, for a person."""
        if self.low <= seats <= self.high:
            return None
        return f"{self.title} seats {self.low} to {self.high} players, not {seats}"


_registered: dict[str, GameSpec] = {}
_loaded = False
#: bumped on every change, for the caches built from the games (``net.views``)
generation = 0


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for point in entry_points(group=GROUP):
        found = point.load()
        if not isinstance(found, GameSpec):
            raise TypeError(f"entry point {point.name!r} of {GROUP} is not a GameSpec")
        register(found)


def register(game: GameSpec) -> None:
    """Add a game (a plugin, a test); its key and title must be new."""
    global generation
    _load()
    clash = [g for g in _registered.values() if game.key == g.key or game.title == g.title]
    if clash and clash != [game]:
        raise ValueError(f"a game is already registered as {game.key!r} or {game.title!r}")
    _registered[game.key] = game
    generation += 1


def unregister(key: str) -> None:
    """Remove a game added by :func:`register` (tests)."""
    global generation
    _load()
    _registered.pop(key, None)
    generation += 1


def games() -> tuple[GameSpec, ...]:
    """Every game, in menu order."""
    _load()
    return tuple(sorted(_registered.values(), key=lambda g: (g.order, g.key)))


def keys() -> tuple[str, ...]:
    """Every game's key, in menu order (the wire's ``TableInfo.game``)."""
    return tuple(g.key for g in games())


def hotseat_games() -> tuple[GameSpec, ...]:
    """The games several people can play on one keyboard."""
    return tuple(g for g in games() if g.hotseat)


def setting_default(name: str) -> Any:
    """The default of a game's own table setting (the first game that has it)."""
    for game in games():
        if name in game.defaults:
            return game.defaults[name]
    raise KeyError(name)


def setting_limit(name: str) -> int:
    """The highest value of a game's own whole-number setting."""
    for game in games():
        if name in game.limits:
            return game.limits[name]
    raise KeyError(name)


def spec(key: object) -> GameSpec:
    """The entry for ``key``; raises :class:`UnknownGame` (a ``ValueError``)."""
    _load()
    found = _registered.get(key) if isinstance(key, str) else None
    if found is None:
        raise UnknownGame(key)
    return found


def title(key: object) -> str:
    """The game's title, or the key itself for a game this version does not know."""
    _load()
    found = _registered.get(key) if isinstance(key, str) else None
    return found.title if found else str(key)


def known(key: object) -> bool:
    _load()
    return isinstance(key, str) and key in _registered
