"""The catalogue: every fact about each game the suite offers, and the registry that
finds a game's parts. It names no game itself.

A game registers a :class:`GameSpec` (its title, seats, settings...) and says where its
parts live:

- ``host``: its host side, one ``net.games.base.HostGame`` object (its driver, bot
  brain and wire codec, its moves, its views and events on the wire, and, where it has
  them, the check of a finished game and its player stats), named
  ``"package.module:NAME"`` and checked when first asked for (:attr:`GameSpec.game`);
- ``app``: its app side, one ``tui.plugin.AppGame`` object, named the same way and
  checked by the app (``tui.plugin``).

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
import os
import sys
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

#: the entry-point group that names the games (``pyproject.toml``)
GROUP = "motherlode.games"

#: bot strengths, weakest first (every game offers all three)
DIFFICULTIES = ("easy", "normal", "hard")
#: each strength in a few words, where it is chosen (true of every game's bots: the
#: benches in docs/BENCHMARKS.md measure a person against each)
DIFFICULTY_WORDS = {
    "easy": "slower than a person and loose, to learn at",
    "normal": "a person's pace and sense, a fair fight",
    "hard": "quicker and sharper, a challenge",
}


class UnknownGame(ValueError):
    """A game key that is not in the catalogue."""

    def __init__(self, key: object) -> None:
        super().__init__(f"unknown game {key!r}: choose one of {', '.join(keys())}")
        self.key = key


@dataclass(frozen=True)
class Setting:
    """One of a game's own table settings, declared with the game: its default, its
    limits and the words the lobby shows. The table, the wire (``TableSettings.game``,
    ``Configure.game``), the lobby and the saves read it; none of them names it."""

    name: str
    default: Any
    #: the lowest and highest value the owner may set
    low: float = 0
    high: float = 0
    #: the words for it, in the lobby and the ``terms`` notice ("grab time-out")
    label: str = ""
    #: the unit a value is shown with ("s", "nuggets", "rounds")
    unit: str = ""
    #: a whole number (else any number)
    whole: bool = False
    #: None is allowed, and means the rule is off
    optional: bool = False
    #: whether the owner may change it (else it is the game's own pace, shown only)
    configurable: bool = True
    #: a house rule's values, in the order the lobby steps through them
    choices: tuple[Any, ...] = ()
    #: a time window a person must act in: the table's pace stretches it (``relaxed``)
    paced: bool = False

    def rule(self) -> str:
        """``"grab_timeout is 1 to 120 seconds"``: what the owner may set, in words."""
        unit = {"s": "seconds"}.get(self.unit, self.unit)
        text = f"{self.name} is {_num(self.low)} to {_num(self.high)}"
        text += f" {unit}" if unit else ""
        return text + (" or null (off)" if self.optional else "")

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not one the owner may set, in words, or None."""
        if value is None:
            return None if self.optional else f"{self.rule()}, not null"
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or (self.whole and not isinstance(value, int)):
            kind = "a whole number" if self.whole else "a number"
            return f"{self.name} must be {kind}: {self.rule()}"
        if not self.low <= value <= self.high:
            return f"{self.rule()}, not {value!r}"
        return None

    def parse(self, text: str) -> Any:
        """A value typed on the command line (``--set round_cap=10``, ``off``); raises
        ValueError saying what the setting takes."""
        word = text.strip().casefold()
        if word in ("off", "none", "null") and self.optional:
            value: Any = None
        else:
            try:
                value = int(word) if self.whole else float(word)
            except ValueError:
                raise ValueError(f"{self.rule()}, not {text!r}") from None
        if problem := self.problem(value):
            raise ValueError(problem)
        return value

    def shown(self, value: Any) -> str:
        """A value as a person reads it: "10 s", "off", "40 rounds"."""
        if value is None:
            return "off"
        return f"{_num(value)} {self.unit}".strip()


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Limits:
    """A game setting's facts beyond its type and its default, written beside them in
    the game's settings Struct (:func:`declared`)::

        class PigSettings(msgspec.Struct, frozen=True, kw_only=True):
            target: Annotated[int, Limits(5, 100, label="target", unit="points")] = 12

    Its type says the rest: ``int`` is a whole number, ``X | None`` may be off (None)."""

    low: float = 0
    high: float = 0
    label: str = ""
    unit: str = ""
    configurable: bool = True
    choices: tuple[Any, ...] = ()
    paced: bool = False


def declared(kind: type) -> tuple[Setting, ...]:
    """The :class:`Setting` of each field of a game's settings Struct, in its order:
    the field's name and default, whether it is whole or may be off from its type, the
    rest from its :class:`Limits`. Raises TypeError for a field without a default or
    without ``Limits``, or of a type that is not a number."""
    hints = typing.get_type_hints(kind, include_extras=True)
    found = []
    for info in msgspec.structs.fields(kind):
        name, default, hint = info.name, info.default, hints[info.name]
        limits = next((m for m in typing.get_args(hint)[1:] if isinstance(m, Limits)), None)
        if limits is None or default is msgspec.NODEFAULT:
            raise TypeError(f"{kind.__name__}.{name} needs a default and Limits(...) in "
                            "its annotation")
        bare = typing.get_args(hint)[0]
        union = typing.get_origin(bare) in (typing.Union, types.UnionType)
        parts = set(typing.get_args(bare)) if union else {bare}
        optional = type(None) in parts
        parts.discard(type(None))
        if not parts or not parts <= {int, float}:
            raise TypeError(f"{kind.__name__}.{name} must be an int or a float (or None)")
        found.append(Setting(name, default, limits.low, limits.high, label=limits.label,
                             unit=limits.unit, whole=parts == {int}, optional=optional,
                             configurable=limits.configurable, choices=limits.choices,
                             paced=limits.paced))  # fmt: skip
    return tuple(found)


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
    host: str  # its host side, "package.module:NAME" (see the module docstring)
    app: str  # its app side, "package.module:NAME" (``tui.plugin``)
    order: int = 100  # its place in the menus, lowest first
    #: the game's own table settings, declared once: a frozen ``msgspec.Struct`` whose
    #: fields, with their defaults and :class:`Limits`, are the settings (in the order
    #: the lobby shows them); its driver is made with one of it (``make_driver``)
    options: type | None = None
    #: what :func:`declared` reads of ``options``: the table, the wire, the lobby and the
    #: saves read these; none of them names a setting
    settings: tuple[Setting, ...] = field(default=(), init=False)
    #: the names of its player statistics: what its ``stats`` part counts of a finished
    #: game, by seat (stored without a schema change per game, ``net.saves.stats``)
    stats: tuple[str, ...] = ()
    difficulties: tuple[str, ...] = DIFFICULTIES
    #: the version of its rules its driver plays now. A game raises it when a ruling
    #: changes how a recorded game plays out; each save records the version its game
    #: was played under (a save without one: version 1) and replays by it
    rules: int = 1
    #: a game with races: by bot difficulty, how many seconds after the first grab its
    #: bots have grabbed too at a normal pace (their slowest reaction): the plain seat
    #: tells a player who listens how long a race lasts, and what a slower pace gives
    race_seconds: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if self.options is not None:
            object.__setattr__(self, "settings", declared(self.options))

    def options_of(self, values: Mapping[str, Any]) -> Any:
        """Its settings Struct with ``values`` (its own settings' names; others are left
        out), the defaults for the rest; None for a game without settings."""
        if self.options is None:
            return None
        own = {k: v for k, v in values.items() if self.setting(k) is not None}
        return self.options(**own)

    @property
    def defaults(self) -> Mapping[str, object]:
        """Its own settings' defaults, by name."""
        return {s.name: s.default for s in self.settings}

    def setting(self, name: str) -> Setting | None:
        """Its own setting of that name, or None."""
        return next((s for s in self.settings if s.name == name), None)

    def parse_settings(self, pairs: list[str]) -> dict[str, Any]:
        """Its own settings from ``NAME=VALUE`` words (``--set``); raises ValueError
        naming the one that is wrong and what it takes."""
        found: dict[str, Any] = {}
        for pair in pairs:
            name, _, text = pair.partition("=")
            setting = self.setting(name.strip())
            if setting is None or not setting.configurable or not text:
                own = ", ".join(s.name for s in self.settings if s.configurable) or "none"
                raise ValueError(f"{pair!r}: {self.title}'s own settings are {own}, "
                                 "each as NAME=VALUE")
            found[setting.name] = setting.parse(text)
        return found

    @property
    def game(self) -> Any:
        """Its host side, one ``net.games.base.HostGame`` object (named by ``host``,
        ``"package.module:NAME"``), imported and checked the first time it is asked for;
        raises ``net.games.base.PluginError`` with a sentence for one the host cannot
        use (not a HostGame, a required hook missing, a misspelt one)."""
        found = _games.get(self.key)
        if found is not None and found[0] is self:
            return found[1]
        from net.games.plugin import HostGame, load

        side = load(self.title, "host", self.host, HostGame)
        _games[self.key] = (self, side)
        return side

    @property
    def moves(self) -> Any:
        """Its moves (``net.moves.Moves``), declared by its host side."""
        return self.game.moves

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
_games: dict[str, tuple[GameSpec, Any]] = {}  # each game's host side, once checked
_loaded = False
#: bumped on every change, for the caches built from the games (``net.views``)
generation = 0


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name, value in _entry_points(GROUP):
        module, _, attribute = value.partition(":")
        found: Any = importlib.import_module(module.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ():
            found = getattr(found, part)
        if not isinstance(found, GameSpec):
            raise TypeError(f"entry point {name!r} of {GROUP} is not a GameSpec")
        register(found)


def _entry_points(group: str) -> list[tuple[str, str]]:
    """``(name, "module:attribute")`` of every installed entry point in ``group``, as
    ``importlib.metadata.entry_points(group=...)`` finds them.

    Read from the ``entry_points.txt`` of each distribution's metadata folder on
    ``sys.path`` (the first of a name wins, as importlib.metadata's order does), because
    importing importlib.metadata (email, zipfile, csv) was the largest part of the
    app's own start before its menu's first frame (issue 48). Where a path entry is
    not a plain folder (a zip, an egg), importlib.metadata reads them all instead;
    ``tests/test_catalogue.py`` checks that both agree here."""
    try:
        return list(_read_entry_points(group))
    except _NotPlain:
        from importlib.metadata import entry_points

        return [(point.name, point.value) for point in entry_points(group=group)]


class _NotPlain(Exception):
    """A path entry importlib.metadata must read (not a plain folder)."""


def _read_entry_points(group: str, path: list[str] | None = None) -> Iterator[tuple[str, str]]:
    seen: set[str] = set()
    for entry in sys.path if path is None else path:
        folder = entry or "."
        if os.path.isfile(folder):
            raise _NotPlain(folder)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for meta in names:
            if not meta.endswith((".dist-info", ".egg-info")):
                continue
            # the distribution's name, normalised as importlib.metadata does
            dist = meta.rsplit(".", 1)[0].split("-")[0].lower().replace(".", "_")
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(os.path.join(folder, meta, "entry_points.txt"),
                          encoding="utf-8") as file:
                    text = file.read()
            except OSError:
                continue
            section = None
            for line in text.splitlines():
                line = line.strip()
                if not line or line.startswith(("#", ";")):
                    continue
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == group and "=" in line:
                    name, _, value = line.partition("=")
                    yield name.strip(), value.strip()


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
