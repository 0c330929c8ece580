"""The league's tables in the saves database, derived from its finished games.

Tables (schema 3 of ``net.saves.db``)::

    league_games  one row per finished game, numbered in the order played (``n``);
                  ``rated`` is 0 for a game with no person at it (or only guests)
    league_seats  one row per seat of each: who sat there (a person's name
                  casefolded, ``bot:<level>``, or '' for a guest), the place by final
                  score (ties share it), the person's share of the seat (a stand-in
                  finished the rest), whether it won; and the skill before and after
                  (null where the seat was not rated)
    seasons       each season the owner started: its name, and the last game before it
    ratings       derived: each player's skill now per game (season 0, all time), and
                  per season their skill at their last game of it, games and wins
    identities    each name's pinned key (``net.identity.Pins``)
    league_state  ``backfill``: ``pending`` until the finished games saved before the
                  league (schema 2) are recorded (``net.league.seats.backfill``)

:func:`record` rates a game as it is recorded; :func:`rebuild` forgets every rating
and records the games again, in the same order, through the same code: so it gives the
same figures to the last bit. Every function takes an open connection inside the
caller's transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from net.league.rating import Skill, provisional, rate, shown, widened

SCHEMA = """
CREATE TABLE league_games (
    n INTEGER PRIMARY KEY,      -- 1, 2, ... in the order the games finished
    save TEXT NOT NULL UNIQUE,  -- its save (saves.id)
    game TEXT NOT NULL,
    finished_wall REAL NOT NULL,
    rated INTEGER NOT NULL
);
CREATE TABLE league_seats (
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    who TEXT NOT NULL,          -- the name casefolded, 'bot:<level>', or '' (a guest)
    name TEXT NOT NULL,         -- as shown
    person INTEGER NOT NULL,    -- a person (not a bot)
    place INTEGER NOT NULL,     -- 1 the best, ties share it
    share REAL NOT NULL,        -- the person's part of the seat's moves
    won INTEGER NOT NULL,
    mu0 REAL, sigma0 REAL, mu1 REAL, sigma1 REAL, games INTEGER,  -- null: not rated
    PRIMARY KEY (n, seat)
) WITHOUT ROWID;
CREATE INDEX league_seats_by_who ON league_seats (who, n);
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,     -- 1, 2, ...
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    after INTEGER NOT NULL,     -- the last league_games.n before it began
    started_wall REAL NOT NULL
);
CREATE TABLE ratings (
    who TEXT NOT NULL,
    game TEXT NOT NULL,
    season INTEGER NOT NULL,    -- 0: all time (the skill now)
    name TEXT NOT NULL,         -- as last shown
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    last_wall REAL NOT NULL,
    PRIMARY KEY (who, game, season)
) WITHOUT ROWID;
CREATE TABLE league_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE identities (
    who TEXT PRIMARY KEY,       -- a name casefolded
    key TEXT NOT NULL,          -- the first Ed25519 public key proved with it (base64)
    pinned_wall REAL NOT NULL
);
"""
TABLES = ("league_games", "league_seats", "seasons", "ratings", "league_state", "identities")


class LeagueError(ValueError):
    """A league request that cannot be met (an unknown season, a name taken)."""


@dataclass(frozen=True)
class Seat:
    """What a finished game's seat gives the league (``net.league.seats``)."""

    seat: int
    who: str  # '' for a guest
    name: str
    person: bool
    place: int
    share: float = 1.0
    won: bool = False


@dataclass(frozen=True)
class Change:
    """A seat's rating change after a rated game (the ``rated`` message's entry)."""

    seat: int
    name: str
    before: int | None  # display ratings; None while provisional
    after: int | None
    games: int
    provisional: bool


def record(conn: sqlite3.Connection, save: str, game: str, wall: float,
           seats: Sequence[Seat]) -> list[Change]:  # fmt: skip
    """Record a finished game (once: a save recorded already changes nothing) and rate
    it if it is rated: a person at it, and two seats or more that are not guests.
    Returns the changes of its rated seats, by seat."""
    if conn.execute("SELECT 1 FROM league_games WHERE save = ?", (save,)).fetchone():
        return []
    rated = _ratable(seats)
    cursor = conn.execute(
        "INSERT INTO league_games (save, game, finished_wall, rated) VALUES (?, ?, ?, ?)",
        (save, game, wall, int(rated)))
    n = cursor.lastrowid
    conn.executemany(
        "INSERT INTO league_seats (n, seat, who, name, person, place, share, won) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(n, s.seat, s.who, s.name, int(s.person), s.place, s.share, int(s.won))
         for s in seats])  # fmt: skip
    if not rated:
        return []
    return _rate(conn, n, game, wall, seats)


def _ratable(seats: Sequence[Seat]) -> bool:
    rated = [s for s in seats if s.who]
    return len(rated) >= 2 and any(s.person for s in rated)


def current_season(conn: sqlite3.Connection, before: int | None = None) -> int:
    """The season a game numbered ``before`` falls in (the latest season by default);
    0 when no season was ever started."""
    if before is None:
        row = conn.execute("SELECT MAX(id) FROM seasons").fetchone()
    else:
        row = conn.execute("SELECT MAX(id) FROM seasons WHERE after < ?", (before,)).fetchone()
    return row[0] or 0


def _rate(conn: sqlite3.Connection, n: int, game: str, wall: float,
          seats: Sequence[Seat]) -> list[Change]:  # fmt: skip
    rated = [s for s in seats if s.who]
    season = current_season(conn, n)
    befores, counts = [], []
    for s in rated:
        row = conn.execute("SELECT mu, sigma, games FROM ratings WHERE who = ? AND game = ? "
                           "AND season = 0", (s.who, game)).fetchone()  # fmt: skip
        befores.append(Skill(row[0], row[1]) if row else Skill())
        counts.append(row[2] if row else 0)
    afters = rate(befores, [s.place for s in rated], [s.share for s in rated])
    changes = []
    for s, before, after, games in zip(rated, befores, afters, counts, strict=True):
        games += 1
        conn.execute("UPDATE league_seats SET mu0 = ?, sigma0 = ?, mu1 = ?, sigma1 = ?, "
                     "games = ? WHERE n = ? AND seat = ?",
                     (before.mu, before.sigma, after.mu, after.sigma, games, n, s.seat))
        for part in {0, season}:
            conn.execute(
                "INSERT INTO ratings (who, game, season, name, mu, sigma, games, wins, "
                "last_wall) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
                "games = games + 1, wins = wins + excluded.wins, last_wall = excluded.last_wall",
                (s.who, game, part, s.name, after.mu, after.sigma, int(s.won), wall))
        changes.append(Change(s.seat, s.name, shown(before, games - 1), shown(after, games),
                              games, provisional(games)))  # fmt: skip
    return changes


def start_season(conn: sqlite3.Connection, name: str, wall: float) -> int:
    """Start a season called ``name`` after every game recorded so far: every rating
    stays, its uncertainty widened (``rating.widened``). Returns its number."""
    name = " ".join(name.split())
    if not name or len(name) > 40:
        raise LeagueError("a season's name is 1 to 40 characters, e.g. \"Winter 2026\"")
    if conn.execute("SELECT 1 FROM seasons WHERE folded = ?", (name.casefold(),)).fetchone():
        raise LeagueError(f"there is a season called {name!r} already")
    after = conn.execute("SELECT COALESCE(MAX(n), 0) FROM league_games").fetchone()[0]
    cursor = conn.execute("INSERT INTO seasons (name, folded, after, started_wall) "
                          "VALUES (?, ?, ?, ?)", (name, name.casefold(), after, wall))
    _widen(conn)
    return cursor.lastrowid


def _widen(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT who, game, mu, sigma FROM ratings WHERE season = 0").fetchall()
    conn.executemany("UPDATE ratings SET sigma = ? WHERE who = ? AND game = ? AND season = 0",
                     [(widened(Skill(mu, sigma)).sigma, who, game)
                      for who, game, mu, sigma in rows])  # fmt: skip


def rebuild(conn: sqlite3.Connection) -> int:
    """Forget every rating and rate every recorded game again in play order, each
    season widening where it began. Returns the games rated."""
    conn.execute("DELETE FROM ratings")
    conn.execute("UPDATE league_seats SET mu0 = NULL, sigma0 = NULL, mu1 = NULL, "
                 "sigma1 = NULL, games = NULL")
    seasons = [row[0] for row in conn.execute("SELECT after FROM seasons ORDER BY id")]
    rated = 0
    games = conn.execute("SELECT n, game, finished_wall, rated FROM league_games "
                         "ORDER BY n").fetchall()  # fmt: skip
    for n, game, wall, is_rated in games:
        while seasons and seasons[0] < n:
            seasons.pop(0)
            _widen(conn)
        if not is_rated:
            continue
        seats = [Seat(seat, who, name, bool(person), place, share, bool(won))
                 for seat, who, name, person, place, share, won in conn.execute(
                     "SELECT seat, who, name, person, place, share, won FROM league_seats "
                     "WHERE n = ? ORDER BY seat", (n,))]  # fmt: skip
        _rate(conn, n, game, wall, seats)
        rated += 1
    for _ in seasons:
        _widen(conn)
    return rated
