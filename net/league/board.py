"""The host's answer to ``standings`` (protocol 4): its league, read off the loop
(:class:`Board`, one a host: ``host.league.board``).

A member of a table asks (``AskStandings``: a game, a season); the host answers
``standings`` (its best ``LINES_PER_GAME`` players of each game, the seasons' names) or
an ``error`` with ``ref`` ``standings``. The read runs on a thread of the board's own,
on a read-only connection of its own to the saves database (WAL: it reads while the
store's writer thread commits), so a big league's read (tens of ms at 100,000 rated
games, docs/BENCHMARKS.md) never holds up a table; the loop only hands the question
over and sends the answer. Each answer is kept until the database changes (SQLite's
``data_version``: a rated game, or a season started by ``motherlode league season`` in
another process), so asking again costs a look-up on that thread.

Bounds, so a connection asking a thousand times a second costs the others nothing:
its message rate (``HostConfig.rate``, as every message; over it the rest are not even
read), one question of a connection at a time (another meanwhile is refused,
``rate_limited``), and at most ``WAITING`` questions of every connection waiting for the
thread (beyond: ``server_full``, try again).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from net import protocol as p
from net.protocol import Code

log = logging.getLogger("net.host")

#: the players of each game an answer carries (the rest are counted in ``more``): a
#: whole answer stays far below the protocol's line limit
LINES_PER_GAME = 50
#: questions of every connection waiting for the reading thread at once
WAITING = 32
#: answers kept (per game and season) until the database changes
KEPT = 64


class Board:
    """A host's standings desk (see the module docstring). ``path``: its saves
    database (None: a host that saves nothing has an empty league)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._pool: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None  # the thread's own
        self._on_file = False  # the connection reads the file (not an empty league)
        self._version: int | None = None
        self._kept: dict[tuple[str | None, str | None], p.Standings] = {}
        self._asking: set[int] = set()  # id() of the peers whose question is on its way
        self._tasks: set[asyncio.Task] = set()
        self.reads = 0  # reads of the database (figures for the tests)

    def ask(self, peer: Any, question: p.AskStandings) -> None:
        """Answer ``question`` of ``peer`` (a ``net.peer.Peer`` at a table) soon."""
        if id(peer) in self._asking:
            peer.send(p.Error(code=Code.RATE_LIMITED, ref="standings", message=(
                "One standings question at a time: the answer to the last is on its way.")))
            return
        if len(self._asking) >= WAITING:
            peer.send(p.Error(code=Code.SERVER_FULL, ref="standings", message=(
                "The host is answering many standings questions now: ask again in a moment.")))
            return
        self._asking.add(id(peer))
        task = asyncio.get_running_loop().create_task(self._answer(peer, question))
        self._tasks.add(task)  # (the loop keeps only a weak reference)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda _: self._asking.discard(id(peer)))

    async def _answer(self, peer: Any, question: p.AskStandings) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="league-board")
        loop = asyncio.get_running_loop()
        try:
            answer = await loop.run_in_executor(self._pool, self._read, question.game,
                                                question.season)  # fmt: skip
        except Exception as exc:  # a damaged database: said, never a traceback
            log.warning("cannot read the league: %s", exc)
            answer = p.Error(code=Code.INTERNAL, ref="standings",
                             message=f"The host's league cannot be read now: {exc}")
        peer.send(answer)

    def close(self) -> None:
        """Let the thread go (its connection closes with it)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.submit(self._close)
            pool.shutdown(wait=False)

    # -- on the board's thread ---------------------------------------------------------

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def _read(self, game: str | None, season: str | None) -> p.Standings | p.Error:
        on_file = self.path is not None and self.path.exists()
        if self._conn is None or (on_file and not self._on_file):  # (the file came since)
            self._close()
            self._conn, self._on_file, self._version = _connect(self.path), on_file, None
        conn = self._conn
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version or len(self._kept) >= KEPT:
            self._kept.clear()
            self._version = version
        key = (game, None if season is None else " ".join(season.split()).casefold())
        kept = self._kept.get(key)
        if kept is None:
            conn.execute("BEGIN")
            try:
                answer = _standings(conn, game, season)
            finally:
                conn.execute("COMMIT")
            self.reads += 1
            if isinstance(answer, p.Error):
                return answer
            kept = self._kept[key] = answer
        return kept


def _connect(path: Path | None) -> sqlite3.Connection:
    """The board's own connection: read-only, to the saves database; a host that saves
    nothing (or nothing yet) has an empty league, in memory."""
    if path is None or not path.exists():
        from net.league.ledger import SCHEMA

        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.executescript(SCHEMA)
    else:
        conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    conn.execute("PRAGMA query_only = ON")
    return conn


def _standings(conn: sqlite3.Connection, game: str | None,
               season: str | None) -> p.Standings | p.Error:  # fmt: skip
    """The answer, on one snapshot of the database."""
    from net.league.ledger import LeagueError
    from net.league.standings import season_id, seasons, standings

    try:
        part = season_id(conn, season)
        lines = standings(conn, game, season)
    except LeagueError as error:
        return p.Error(code=Code.NO_SUCH_SEASON, ref="standings", message=str(error))
    names = {s["season"]: s["name"] for s in seasons(conn)}
    shown: Counter[str] = Counter()
    kept = []
    for line in lines:
        shown[line.game] += 1
        if shown[line.game] <= LINES_PER_GAME:
            kept.append(p.StandingLine(
                rank=line.rank, name=line.name, game=line.game, rating=line.rating,
                games=line.games, wins=line.wins, provisional=line.provisional,
                rated_games=line.rated_games, last_played=line.last_played))
    return p.Standings(game=game, season=names.get(part), seasons=list(names.values()),
                       lines=kept, more=len(lines) - len(kept))
