"""Player stats: a summary row per seat of every finished game, and the queries on them.

A :class:`Tally` reads a game's steps and counts, by seat, what each game's own stats
module says (``net.games.<key>.stats``, found through the catalogue: the events it
reads, and how it counts them into the columns of :data:`COUNTS`; the same module names
its columns for ``motherlode stats`` and the stats screen).

The store feeds the tally of each live game as its moves are committed, and writes one
``seat_stats`` row per seat in the transaction that marks the game finished; a restored
or imported game gets its tally from the replay engine (``on_step``). So the stats
never read the moves: :func:`players` is one indexed ``GROUP BY``. Abandoned games are
not counted. Names are grouped casefolded; they are peer text, shown as literal text.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from net import catalogue

#: the ``seat_stats`` columns a game's tally may count into
COUNTS = ("turns", "gained", "busts", "steals", "rounds", "grabs", "bluffs", "calls",
          "calls_right")  # fmt: skip

_counters: tuple[int, dict[str, ModuleType]] = (-1, {})


def counters() -> dict[str, ModuleType]:
    """Each event type a game counts, and that game's stats module."""
    global _counters
    if _counters[0] != catalogue.generation:
        found = {}
        for game in catalogue.games():
            module = game.part("stats")
            for kind in getattr(module, "COUNTED", ()):
                found[kind] = module
        _counters = (catalogue.generation, found)
    return _counters[1]


def columns(game: str) -> tuple[tuple[str, int, Any], ...]:
    """A game's own columns in the stats (heading, width, value of a
    :class:`PlayerStats`), after "played" and "won"; none for a game without stats."""
    module = catalogue.spec(game).part("stats")
    return tuple(getattr(module, "COLUMNS", ()))


@dataclass
class Tally:
    """Counts by seat for one game (see the module docstring)."""

    seats: int
    counts: dict[str, list[int]] = field(default_factory=dict)
    #: what a game's counting keeps between events (a call waiting for its reveal)
    scratch: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in COUNTS:
            self.counts.setdefault(name, [0] * self.seats)

    def copy(self) -> Tally:
        return Tally(self.seats, {k: list(v) for k, v in self.counts.items()}, dict(self.scratch))

    @staticmethod
    def reads(events: list[dict[str, Any]]) -> bool:
        """Whether ``step`` would count anything in ``events`` (else it is a no-op)."""
        counted = counters()
        return any(event.get("type") in counted for event in events)

    def add(self, name: str, seat: Any, amount: int = 1) -> None:
        """Count ``amount`` for ``seat`` (a seat that is not one is not counted)."""
        if isinstance(seat, int) and 0 <= seat < self.seats:
            self.counts[name][seat] += amount

    def step(self, driver: Any, events: list[dict[str, Any]]) -> None:
        """Count one step's events; ``driver`` is the game right after them."""
        counted = counters()
        for event in events:
            module = counted.get(event.get("type"))
            if module is not None:
                module.step(self, driver, event)

    def rows(
        self, save: str, game: str, seats: list[tuple[str, str]], winners: list[int],
        wall: float | None = None,
    ) -> list[tuple[Any, ...]]:  # fmt: skip
        """The ``seat_stats`` rows: ``seats`` are (name, kind) by seat."""
        wall = time.time() if wall is None else wall
        return [
            (save, i, name, name.casefold(), kind, game, int(i in winners),
             *(self.counts[c][i] for c in COUNTS), wall)  # fmt: skip
            for i, (name, kind) in enumerate(seats)
        ]


INSERT = (
    "INSERT OR REPLACE INTO seat_stats (save, seat, name, who, kind, game, won, "
    + ", ".join(COUNTS)
    + ", finished_wall) VALUES ("
    + ", ".join("?" * (8 + len(COUNTS)))
    + ")"
)


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures at one game, over every finished game stored."""

    name: str
    game: str
    played: int
    won: int
    turns: int
    gained: int  # nuggets taken, from the supply and by steals
    busts: int
    steals: int
    rounds: int
    grabs: int
    bluffs: int
    calls: int
    calls_right: int


def players(
    conn: sqlite3.Connection, name: str | None = None, *, bots: bool = False
) -> list[PlayerStats]:
    """Every player's figures per game (people only unless ``bots``), most games
    first; or one player's (``name``, any case)."""
    where, args = [], []
    if not bots:
        where.append("kind != 'bot'")
    if name is not None:
        where.append("who = ?")
        args.append(name.casefold())
    sums = ", ".join(f"SUM({c})" for c in COUNTS)
    query = (
        f"SELECT MAX(name), game, COUNT(*), SUM(won), {sums} FROM seat_stats "
        f"{'WHERE ' + ' AND '.join(where) if where else ''} "
        "GROUP BY who, game ORDER BY COUNT(*) DESC, who, game"
    )
    return [PlayerStats(*row) for row in conn.execute(query, args)]
