"""Reading the league: standings per game and season, head-to-head records, and the
league as data for ``motherlode export`` (:func:`export`).

Standings are one indexed read of the derived ``ratings`` table (``net.league.ledger``),
so they cost the same however many games were played. Established players rank by
rating; provisional ones ("new") follow, by their rating so far.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from net.league.ledger import LeagueError
from net.league.rating import PROVISIONAL_GAMES, Skill, provisional


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings of a game (and season)."""

    rank: int
    name: str
    who: str
    game: str
    rating: int | None  # None while provisional
    games: int  # in the season asked for (all time: every rated game)
    wins: int
    provisional: bool
    rated_games: int  # every rated game, all time (provisional until 10)
    last_played: float  # wall clock
    skill: Skill | None = None  # None in a host's answer (``net.league.asked``)

    def shown(self) -> str:
        """The rating as a person reads it: "1512", or "new (4 of 10)"."""
        if self.rating is None:
            return f"new ({self.rated_games} of {PROVISIONAL_GAMES})"
        return str(self.rating)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "rating": self.rating,
                "games": self.games, "wins": self.wins, "provisional": self.provisional}

    def to_wire(self) -> dict[str, Any]:
        """Every field, for the serve process's answer to a served app (``net.served``)."""
        skill = self.skill or Skill()
        return {**{k: v for k, v in vars(self).items() if k != "skill"},
                "mu": skill.mu, "sigma": skill.sigma}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Standing:
        """A line :meth:`to_wire` wrote; raises ValueError for anything else."""
        try:
            fields = {k: data[k] for k in ("rank", "name", "who", "game", "rating", "games",
                                           "wins", "provisional", "rated_games",
                                           "last_played")}
            line = cls(**fields, skill=Skill(float(data["mu"]), float(data["sigma"])))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a line of the standings: {exc}") from None
        if not isinstance(line.name, str) or not isinstance(line.game, str):
            raise ValueError("not a line of the standings")
        return line


def season_id(conn: sqlite3.Connection, season: str | None) -> int:
    """The number of the season named ``season`` (any case; "all" or None: all time,
    0; "current": the latest); raises LeagueError naming the seasons there are."""
    if season is None or season.casefold() in ("all", "all time"):
        return 0
    if season.casefold() == "current":
        row = conn.execute("SELECT MAX(id) FROM seasons").fetchone()
        return row[0] or 0
    row = conn.execute("SELECT id FROM seasons WHERE folded = ?",
                       (" ".join(season.split()).casefold(),)).fetchone()  # fmt: skip
    if row is None:
        names = [r[0] for r in conn.execute("SELECT name FROM seasons ORDER BY id")]
        there = ", ".join(repr(n) for n in names) if names else "none yet"
        raise LeagueError(f"no season called {season!r} (seasons: {there})")
    return row[0]


def seasons(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every season, oldest first: its name, when it began, the games before it."""
    return [{"season": i, "name": name, "started": wall, "after_game": after}
            for i, name, after, wall in conn.execute(
                "SELECT id, name, after, started_wall FROM seasons ORDER BY id")]  # fmt: skip


def standings(conn: sqlite3.Connection, game: str | None = None,
              season: str | None = None) -> list[Standing]:  # fmt: skip
    """The standings of ``game`` (every game, one after another, by default) in
    ``season`` (all time by default): ranked per game."""
    part = season_id(conn, season)
    where, args = ["r.season = ?"], [part]
    if game is not None:
        where.append("r.game = ?")
        args.append(game)
    rows = conn.execute(
        "SELECT r.game, r.who, r.name, r.mu, r.sigma, r.games, r.wins, r.last_wall, "
        "a.games FROM ratings r JOIN ratings a ON a.who = r.who AND a.game = r.game "
        f"AND a.season = 0 WHERE {' AND '.join(where)}", args).fetchall()
    by_game: dict[str, list[tuple]] = {}
    for row in rows:
        by_game.setdefault(row[0], []).append(row)
    out = []
    for key in sorted(by_game):
        lines = sorted(by_game[key], key=lambda r: (provisional(r[8]), -(r[3] - 3 * r[4]),
                                                    -r[6], r[2].casefold()))  # fmt: skip
        for rank, (g, who, name, mu, sigma, games, wins, last, rated) in enumerate(lines, 1):
            skill = Skill(mu, sigma)
            new = provisional(rated)
            out.append(Standing(rank, name, who, g, None if new else skill.display(), games,
                                wins, new, rated, last, skill))  # fmt: skip
    return out


@dataclass(frozen=True)
class HeadToHead:
    """Two players' record in the games they both played (rated or not, guests
    aside): who finished ahead how often, and the ties."""

    a: str
    b: str
    games: int
    a_ahead: int
    b_ahead: int
    ties: int
    by_game: dict[str, tuple[int, int, int]]  # game: (a ahead, b ahead, ties)


def identity(conn: sqlite3.Connection, name: str) -> tuple[str, str]:
    """The league's key and shown name for ``name`` (any case; a bot by its level:
    "hard bot", "bot:hard"); raises LeagueError for a name the league never saw."""
    folded = " ".join(name.split()).casefold()
    row = conn.execute("SELECT who, name FROM league_seats WHERE who = ? OR lower(name) = ? "
                       "ORDER BY n DESC LIMIT 1", (folded, folded)).fetchone()  # fmt: skip
    if row is None or not row[0]:
        raise LeagueError(f"{name!r} has played no game the league knows")
    return row[0], row[1]


def head_to_head(conn: sqlite3.Connection, a: str, b: str,
                 game: str | None = None) -> HeadToHead:  # fmt: skip
    (wa, na), (wb, nb) = identity(conn, a), identity(conn, b)
    if wa == wb:
        raise LeagueError(f"{na} against {nb}: that is one player")
    query = ("SELECT g.game, x.place, y.place FROM league_seats x JOIN league_seats y "
             "ON y.n = x.n JOIN league_games g ON g.n = x.n WHERE x.who = ? AND y.who = ?")
    args: list[Any] = [wa, wb]
    if game is not None:
        query += " AND g.game = ?"
        args.append(game)
    by_game: dict[str, list[int]] = {}
    for key, pa, pb in conn.execute(query, args):
        tally = by_game.setdefault(key, [0, 0, 0])
        tally[0 if pa < pb else 1 if pb < pa else 2] += 1
    totals = [sum(t[i] for t in by_game.values()) for i in range(3)]
    return HeadToHead(na, nb, sum(totals), *totals,
                      {k: (t[0], t[1], t[2]) for k, t in sorted(by_game.items())})


def game_record(conn: sqlite3.Connection, save: str) -> dict[str, Any] | None:
    """What the league holds of one finished game (``motherlode export ID``): whether
    it was rated, its season, and each seat's place, share and rating change (display
    ratings, null while provisional or not rated); None for a game it never recorded."""
    from net.league.ledger import current_season
    from net.league.rating import shown

    row = conn.execute("SELECT n, rated FROM league_games WHERE save = ?", (save,)).fetchone()
    if row is None:
        return None
    n, rated = row
    part = current_season(conn, n)
    names = {s["season"]: s["name"] for s in seasons(conn)}
    out = []
    for seat, who, name, place, share, won, mu0, s0, mu1, s1, games in conn.execute(
            "SELECT seat, who, name, place, share, won, mu0, sigma0, mu1, sigma1, games "
            "FROM league_seats WHERE n = ? ORDER BY seat", (n,)):  # fmt: skip
        rated_seat = mu1 is not None
        out.append({"seat": seat, "name": name, "guest": not who, "place": place,
                    "share": share, "won": bool(won), "rated": rated_seat,
                    "before": shown(Skill(mu0, s0), games - 1) if rated_seat else None,
                    "after": shown(Skill(mu1, s1), games) if rated_seat else None,
                    "games": games})  # fmt: skip
    return {"rated": bool(rated), "season": names.get(part), "seats": out,
            "seasons": list(names.values())}


def export(conn: sqlite3.Connection) -> dict[str, Any]:
    """The league as data: its seasons and every standing, all time and per season."""
    data: dict[str, Any] = {"seasons": seasons(conn), "ratings": []}
    for part in [None, *(s["name"] for s in data["seasons"])]:
        for line in standings(conn, None, part):
            item = line.as_json()
            item.update(season=part, rank=line.rank, mu=line.skill.mu, sigma=line.skill.sigma,
                        last_played=line.last_played)
            data["ratings"].append(item)
    return data
