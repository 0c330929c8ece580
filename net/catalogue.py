"""The catalogue: every fact about each game the suite offers, in one place.

A game is one entry here (a :class:`GameSpec`) plus its own package, ``net.games.<key>``,
holding its driver, its bot brain and its wire codec (``__init__``) and what checks a
finished game from a client's messages (``verify``). Everything else (the table, the
host, discovery, the command line, the menus, the lobby, served play) asks this module
and names no game itself: ``tests/test_catalogue.py`` fails on a game title or a list
of games written anywhere else in ``net/``, ``tui/`` or ``serve/``.

This module is data only and imports nothing of the rules, so the app's menu can read
titles without loading a game (``tests/test_catalogue.py`` checks these facts against
the rules packages themselves).

Adding a game: write its rules package, add a ``GameSpec`` to :data:`CATALOGUE` and its
key to :data:`GameKey`, write ``net/games/<key>/`` (a driver, a brain, a codec; verify), and a
table screen in ``tui/screens/`` (``tui.app`` and ``tui.screens.replay`` pick it by key).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, get_args

#: the wire name of every game (``TableInfo.game``, the announcement's ``game``)
GameKey = Literal["nuggets", "foolsgold"]

#: bot strengths, weakest first (every game offers all three)
DIFFICULTIES = ("easy", "normal", "hard")


class UnknownGame(ValueError):
    """A game key that is not in the catalogue."""

    def __init__(self, key: object) -> None:
        super().__init__(f"unknown game {key!r}: choose one of {', '.join(KEYS)}")
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
    #: the game's own table settings and their defaults (``Settings`` fields)
    defaults: Mapping[str, object] = field(default_factory=dict)
    difficulties: tuple[str, ...] = DIFFICULTIES

    @property
    def module(self) -> str:
        """The module holding this game's driver, brain and codec."""
        return f"net.games.{self.key}"

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


NUGGETS = GameSpec(
    key="nuggets",
    title="Gold Nuggets",
    low=2,
    high=5,
    grace=30.0,
    solo_bots=1,
    hotseat=True,
    letter="n",
    short="Dice",
    kind="dice",
    defaults=MappingProxyType({"supply": 77}),
)

FOOLSGOLD = GameSpec(
    key="foolsgold",
    title="Fool's Gold",
    low=2,
    high=8,
    grace=15.0,
    solo_bots=3,
    hotseat=False,
    letter="f",
    short="Cards",
    kind="card",
    defaults=MappingProxyType(
        # round_cap: the house rule of a round cap (docs/RULES.md), off by default
        {"grab_timeout": 10.0, "call_window": 5.0, "intermission": 4.0, "round_cap": None}
    ),
)

#: every game, in menu order
CATALOGUE: tuple[GameSpec, ...] = (NUGGETS, FOOLSGOLD)
KEYS: tuple[str, ...] = tuple(spec.key for spec in CATALOGUE)
_BY_KEY = {spec.key: spec for spec in CATALOGUE}
#: the most nuggets a Gold Nuggets table may start with (the whole supply)
SUPPLY = NUGGETS.defaults["supply"]
#: the highest round cap a Fool's Gold table may set (the house rule; None is off)
ROUND_CAP_MAX = 200

assert KEYS == get_args(GameKey), "GameKey and CATALOGUE name the same games"


def spec(key: object) -> GameSpec:
    """The entry for ``key``; raises :class:`UnknownGame` (a ``ValueError``)."""
    found = _BY_KEY.get(key) if isinstance(key, str) else None
    if found is None:
        raise UnknownGame(key)
    return found


def title(key: object) -> str:
    """The game's title, or the key itself for a game this version does not know."""
    found = _BY_KEY.get(key) if isinstance(key, str) else None
    return found.title if found else str(key)


def known(key: object) -> bool:
    return isinstance(key, str) and key in _BY_KEY
