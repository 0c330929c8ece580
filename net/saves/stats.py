"""Player stats: a summary row per seat of every finished game, and the queries on them.

A :class:`Tally` reads a game's steps (its events, and for a Fool's Gold first grab the
grabber's frozen hand) and counts, by seat:

- Gold Nuggets: turns played, nuggets taken (from the supply and by steals), busts,
  steals;
- Fool's Gold: rounds played, first grabs (a set claimed), bluffs (first grabs without
  a set, called or not), calls, and calls that were right (the hand was a bluff).

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
from typing import Any

from foolsgold import is_set

COUNTS = ("turns", "gained", "busts", "steals", "rounds", "grabs", "bluffs", "calls",
          "calls_right")  # fmt: skip
# the events a tally reads (``Tally.step``); every other event leaves it as it was
COUNTED = frozenset(("took", "stole", "bust", "round_started", "grabbed", "called", "revealed"))


@dataclass
class Tally:
    """Counts by seat for one game (see the module docstring)."""

    seats: int
    counts: dict[str, list[int]] = field(default_factory=dict)
    _caller: int | None = None

    def __post_init__(self) -> None:
        for name in COUNTS:
            self.counts.setdefault(name, [0] * self.seats)

    def copy(self) -> Tally:
        return Tally(self.seats, {k: list(v) for k, v in self.counts.items()}, self._caller)

    @staticmethod
    def reads(events: list[dict[str, Any]]) -> bool:
        """Whether ``step`` would count anything in ``events`` (else it is a no-op)."""
        return any(event.get("type") in COUNTED for event in events)

    def _add(self, name: str, seat: Any, amount: int = 1) -> None:
        if isinstance(seat, int) and 0 <= seat < self.seats:
            self.counts[name][seat] += amount

    def step(self, driver: Any, events: list[dict[str, Any]]) -> None:
        """Count one step's events; ``driver`` is the game right after them."""
        for event in events:
            kind, seat = event.get("type"), event.get("seat")
            if kind == "took":
                self._add("turns", seat)
                self._add("gained", seat, int(event.get("amount", 0)))
            elif kind == "stole":
                self._add("turns", seat)
                self._add("steals", seat)
                self._add("gained", seat, int(event.get("amount", 0)))
            elif kind == "bust":
                self._add("turns", seat)
                self._add("busts", seat)
            elif kind == "round_started":
                for i in range(self.seats):
                    self._add("rounds", i)
            elif kind == "grabbed" and event.get("order") == 1:
                self._add("grabs", seat)
                if not self._held_set(driver, seat):
                    self._add("bluffs", seat)
            elif kind == "called":
                self._add("calls", seat)
                self._caller = seat
            elif kind == "revealed":
                if not event.get("set") and self._caller is not None:
                    self._add("calls_right", self._caller)
                self._caller = None

    @staticmethod
    def _held_set(driver: Any, seat: int) -> bool:
        # hands freeze at the first grab, so the hand now is the hand grabbed on
        round_ = getattr(getattr(driver, "match", None), "round", None)
        if round_ is None or not 0 <= seat < len(round_.hands):
            return True  # not knowable: not counted as a bluff
        return is_set(round_.hands[seat])

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

    @property
    def nuggets_per_turn(self) -> float:
        return self.gained / self.turns if self.turns else 0.0

    @property
    def bust_rate(self) -> float:
        return self.busts / self.turns if self.turns else 0.0


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
