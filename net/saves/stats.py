"""Player stats: a summary row per seat of every finished game, and the queries on them.

A :class:`Tally` reads a game's steps and counts, by seat, what each game's own stats
module says (``net.games.<key>.stats``, found through the catalogue: the events it
reads, and how it counts them into the columns the game declares,
``GameSpec.stats``; the same module names its columns for ``motherlode stats`` and the
stats screen). A row keeps a game's counts as one JSON object (``counts``), so a game
adds a statistic with no change to the schema.

The store feeds the tally of each live game as its moves are committed, and writes one
``seat_stats`` row per seat in the transaction that marks the game finished; a restored
or imported game gets its tally from the replay engine (``on_step``). So the stats
never read the moves: :func:`players` is one indexed ``GROUP BY``. Abandoned games are
not counted. Names are grouped casefolded; they are peer text, shown as literal text.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from net import catalogue

#: what a declared statistic's name may be (it is a key of the rows' JSON ``counts``
#: and a path in the queries' ``json_extract``)
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def counted(game: str) -> tuple[str, ...]:
    """The names of ``game``'s declared statistics (``GameSpec.stats``)."""
    names = tuple(catalogue.spec(game).stats)
    bad = [n for n in names if not NAME.match(n)]
    if bad:
        raise ValueError(f"{catalogue.title(game)} declares statistics named {bad}: "
                         "each must be lower case letters, digits and _")
    return names

_counters: tuple[int, dict[str, Any]] = (-1, {})


def counters() -> dict[str, Any]:
    """Each event type a game counts, and that game's host side (its ``step``)."""
    global _counters
    if _counters[0] != catalogue.generation:
        found = {}
        for game in catalogue.games():
            for kind in game.game.counted:
                found[kind] = game.game
        _counters = (catalogue.generation, found)
    return _counters[1]


def columns(game: str) -> tuple[tuple[str, int, Any], ...]:
    """A game's own columns in the stats (heading, width, value of a
    :class:`PlayerStats`), after "played" and "won"; none for a game without stats."""
    return tuple(catalogue.spec(game).game.columns)


@dataclass
class Tally:
    """Counts by seat for one game (see the module docstring)."""

    seats: int
    counts: dict[str, list[int]] = field(default_factory=dict)
    #: what a game's counting keeps between events (a call waiting for its reveal)
    scratch: dict[str, Any] = field(default_factory=dict)

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
            self.counts.setdefault(name, [0] * self.seats)[seat] += amount

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
        """The ``seat_stats`` rows: ``seats`` are (name, kind) by seat; each row's
        ``counts`` holds every statistic the game declares."""
        wall = time.time() if wall is None else wall
        names = counted(game) if catalogue.known(game) else tuple(self.counts)
        return [
            (save, i, name, name.casefold(), kind, game, int(i in winners),
             json.dumps({c: self.counts.get(c, [0] * self.seats)[i] for c in names}),
             wall)  # fmt: skip
            for i, (name, kind) in enumerate(seats)
        ]


INSERT = (
    "INSERT OR REPLACE INTO seat_stats (save, seat, name, who, kind, game, won, counts, "
    "finished_wall) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures at one game, over every finished game stored: the games
    played and won, and the game's own statistics (``counts``, by the names the game
    declares; each also reads as an attribute, ``row.turns``)."""

    name: str
    game: str
    played: int
    won: int
    counts: dict[str, int] = field(default_factory=dict)

    def __getattr__(self, name: str) -> int:
        counts = self.__dict__.get("counts", {})
        if name in counts:
            return counts[name]
        raise AttributeError(f"{self.game} counts no {name!r}")


def players(
    conn: sqlite3.Connection, name: str | None = None, *, bots: bool = False
) -> list[PlayerStats]:
    """Every player's figures per game (people only unless ``bots``), most games
    first; or one player's (``name``, any case). One ``GROUP BY``: each game's declared
    statistics are summed from the rows' JSON."""
    where, args = [], []
    if not bots:
        where.append("kind != 'bot'")
    if name is not None:
        where.append("who = ?")
        args.append(name.casefold())
    names = sorted({c for game in catalogue.games() for c in counted(game.key)})
    sums = "".join(f", SUM(COALESCE(json_extract(counts, '$.{c}'), 0))" for c in names)
    query = (
        f"SELECT MAX(name), game, COUNT(*), SUM(won){sums} FROM seat_stats "
        f"{'WHERE ' + ' AND '.join(where) if where else ''} "
        "GROUP BY who, game ORDER BY COUNT(*) DESC, who, game"
    )
    rows = []
    for row in conn.execute(query, args):
        game = row[1]
        own = counted(game) if catalogue.known(game) else ()
        found = dict(zip(names, row[4:], strict=True))
        rows.append(PlayerStats(row[0], game, row[2], row[3], {c: found[c] for c in own}))
    return rows
