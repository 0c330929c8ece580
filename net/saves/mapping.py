"""Tables to rows: what a store remembers of each table between its saves, and the rows
each change of a table writes (:class:`Records`; the store, ``net.saves.store``, holds
one, and what it builds is queued for the group commit, ``net.saves.writer``).

A change builds what it wrote: the new moves, the table's document (seats, tokens,
settings, the snapshot of the views) and, at a game's start or end, the hand-over
between the game's save and the table's lobby save. A move of a game whose seats,
members, owner and settings stay as last written builds only the document's changing
fields (times, clock, snapshot) into the cached bytes of the rest
(``documents.game_frame``): the very bytes the whole document encodes to. The moves
are committed as they happen, so the table keeps none in memory once their commit is
done. A change moves its table's records on at once, so the next change of the same
loop turn follows it; a failed commit puts them back (``GroupCommit``).
"""

from __future__ import annotations

import logging
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

import msgspec

from net.saves import documents, league
from net.saves.documents import ENCODER
from net.saves.errors import SaveError
from net.saves.saved import Saved
from net.saves.stats import INSERT as INSERT_STATS
from net.saves.stats import Tally
from net.saves.writer import GroupCommit, Work
from net.table import Table
from net.table.phase import Phase

log = logging.getLogger("net.saves.store")  # (the store's log: this is its part)

# a game in play: its status (indexed) stays, so no index is written (3 pages a commit,
# not 5: the save's row, its new moves, the file's header)
_UPDATE = ("UPDATE saves SET players = ?, moves = ?, saved_at = ?, saved_wall = ?, doc = ? "
           "WHERE id = ?")  # fmt: skip
# a move of a game whose seats, members, owner and settings stay: its document is the
# bytes of the last whole one around the fields a move changes (documents.game_frame)
_MOVED = "UPDATE saves SET moves = ?, saved_at = ?, saved_wall = ?, doc = ? WHERE id = ?"
UPSERT = (
    "INSERT INTO saves (id, kind, status, name, game, players, moves, saved_at, saved_wall, doc) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = "
    "excluded.status, players = excluded.players, moves = excluded.moves, saved_at = "
    "excluded.saved_at, saved_wall = excluded.saved_wall, doc = excluded.doc"
)


@dataclass
class _Game:
    """What a store remembers of a table's current game between saves."""

    id: str
    game_no: int
    game: dict[str, Any]  # the fixed part of the document: players, seed, first, start
    tally: Tally
    key: tuple = ()
    shape: tuple = ()  # the document's fields that moves do not change, as last written
    frame: tuple[bytes, bytes] | None = None  # those fields encoded (documents.game_frame)
    written: int = 0  # moves committed
    taken: tuple[int, str] | None = None  # the last digest of the views: (moves, digest)
    stored: bool = False  # its row exists
    done: bool = False  # finished (or left): the next game gets a new save


@dataclass
class _Lobby:
    """A table's save outside a game: its id, and what it last saved."""

    id: str
    key: tuple = ()
    saved: bool = False  # its row exists


class Records:
    """What a store of ``kind`` remembers of each table (by ``id(table)``): its current
    game's save and its save outside a game; and the change each save of a table
    builds, queued on ``commits`` (see the module docstring)."""

    def __init__(self, kind: str, commits: GroupCommit) -> None:
        self.kind = kind
        self._commits = commits
        self._games: dict[int, _Game] = {}  # by id(table)
        #: called on the loop once a rated game's end is committed: (table, game key,
        #: the ``net.league.ledger.Change`` of each rated seat); the host sets it
        self.on_rated: Any = lambda table, game, changes: None
        self._lobbies: dict[int, _Lobby] = {}  # by id(table)

    def adopt(self, table: Table, save: Saved) -> None:
        """Continue saving a restored table into the save it came from."""
        if save.status == "lobby":
            self._lobbies[id(table)] = _Lobby(save.id, self._lobby_key(table), saved=True)
            return
        game = save.doc.game
        assert game is not None
        self._games[id(table)] = _Game(
            id=save.id,
            game_no=table.games_played,
            game=msgspec.to_builtins(game),
            tally=save.tally or Tally(len(game.players)),
            key=self._key(table),
            written=save.moves,
            stored=True,
            taken=_taken(save),
        )

    @staticmethod
    def _key(table: Table) -> tuple:
        # cheap, and changes with every change worth a save: a log entry, a seat, a
        # member coming or going, the phase, a new game
        return (
            table.phase,
            table.games_played,
            table.moves,
            id(table.owner),
            tuple((s.name, s.kind, id(s.member), s.standin) for s in table.seats),
        )

    @staticmethod
    def _shape(table: Table) -> tuple:
        # what a game's document holds besides its moves, clock and snapshot: the
        # table's name and settings, its seats, their members, the owner
        return (
            table.name,
            table.games_played,
            id(table.owner),
            tuple((s.name, s.kind, s.difficulty, s.member, s.member and s.member.name)
                  for s in table.seats),  # fmt: skip
            table.settings.shape(),
        )

    def in_play(self, table: Table) -> bool:
        """Whether ``table``'s game is in play and saved already (its deal committed):
        its next change only adds moves to that save (``Store.touched`` may defer it)."""
        record = self._games.get(id(table))
        driver = table.driver
        return (record is not None and record.stored and not record.done
                and record.game_no == table.games_played and table.phase == Phase.PLAYING
                and driver is not None and not driver.over)

    def touched_game(self, table: Table, now: float, lobbies: bool) -> bool:
        """Queue the save of the table's current game; False once that game is over
        (then the table is saved as a lobby). With ``lobbies`` a game's end saves the
        table after it in the same commit."""
        record = self._games.get(id(table))
        if record is None or record.game_no != table.games_played:
            record = self._games[id(table)] = self._new_game(table, now)
        if record.done:
            return False  # this game is over and kept; the next one gets a new save
        key = self._key(table)
        if key == record.key and table.moves:
            return True
        # (before the first move the key cannot tell the deal from the table just
        # before it, so every change then is committed: the views of the deal too)
        driver = table.driver
        assert driver is not None
        finished = driver.over or table.phase != Phase.PLAYING
        new = table.log[max(0, record.written - table.log_base) :]
        tally = record.tally
        if any(Tally.reads(entry["events"]) for entry in new):
            tally = tally.copy()  # (the record's stays as it was, for an undo)
            for entry in new:
                tally.step(driver, entry["events"])
        taken = record.taken
        if (finished or taken is None or not table.moves
                or table.moves - taken[0] >= documents.DIGEST_EVERY):
            taken = (table.moves, documents.digest(driver, len(record.game["players"])))
        was_stored = record.stored
        shape = self._shape(table)
        if was_stored and not finished and shape == record.shape:
            frame = record.frame
            if frame is None:
                frame = record.frame = documents.game_frame(table, record.id, record.game)
            wall = time.time()
            doc = documents.game_moved(frame, table, len(record.game["players"]), now, wall,
                                       taken)  # fmt: skip
            update = (table.moves, now, wall, doc, record.id)
            row = None
        else:
            document = documents.game_document(
                table, record.id, record.game, now, "finished" if finished else "playing",
                taken)  # fmt: skip
            row, update = _row(document, self.kind, table.moves), None
        lobby = self._lobby(table)
        undo = [_before(record), _before(lobby)]
        # the game's save holds the seats now: its table's lobby save goes
        dropped = lobby.id if not record.stored and lobby.saved else None
        if dropped is not None:
            lobby.saved, lobby.key = False, ()
        after = self._lobby_change(table, now) if finished and lobbies else None
        first = record.written
        seats = [(s.name, s.kind) for s in table.seats]
        entries = [(record.id, first + i, ENCODER.encode(e)) for i, e in enumerate(new)]
        stats = None
        rated: list[Any] = []
        league_seats = None
        if finished:
            winners, scores = driver.result()
            stats = tally.rows(record.id, table.game, seats, winners)
            if driver.over:
                league_seats = ([(s.name, s.kind, s.difficulty,
                                  s.member is not None and s.member.verified)
                                 for s in table.seats], scores, winners)  # fmt: skip
        game_id, game_key = record.id, table.game

        def work(conn: sqlite3.Connection) -> None:
            if entries:
                conn.executemany("INSERT INTO moves (save, n, entry) VALUES (?, ?, ?)", entries)
            if row is None:
                conn.execute(_MOVED, update)
            elif was_stored and not finished:
                conn.execute(_UPDATE, (*row[5:], row[0]))
            else:
                conn.execute(UPSERT, row)
            if dropped is not None:
                delete_save(conn, dropped)
            if stats is not None:
                conn.executemany(INSERT_STATS, stats)
            if league_seats is not None:
                rated[:] = league.record_finished(conn, game_id, game_key, time.time(),
                                                  *league_seats)  # fmt: skip
            if after is not None:
                after(conn)  # the table after the game, in the same commit

        # the record moves on now, so the next change of this tick follows this one;
        # a failed commit puts it back (``GroupCommit.flush``)
        record.written = table.moves
        record.tally, record.taken = tally, taken
        record.key, record.stored, record.done = key, True, finished
        if record.shape != shape:
            record.shape, record.frame = shape, None
        written, log = table.moves, table.log

        def done() -> None:
            # committed: the table needs none of these moves in memory (unless a new
            # game, with a new log, began before this commit)
            if table.log is log and written > table.log_base:
                table.forget(written - table.log_base)
            if rated:
                self.on_rated(table, game_key, list(rated))

        self._commits.queue(work, len(new), done, undo, table)
        return True

    def _new_game(self, table: Table, now: float) -> _Game:
        driver = table.driver
        assert driver is not None and table.seed is not None
        first = table.settings.first_player
        players = [s.name for s in table.seats]
        game = {
            "players": players,
            "seed": table.seed,
            "seed_hash": table.seed_hash,
            "first": driver.first,
            "first_drawn": first is None or first >= len(table.seats),
            "started_at": table.started_at if table.started_at is not None else now,
            "rules": driver.rules,
            "pace": table.play.dealt_pace or table.settings.pace,
        }
        return _Game(self._new_id(table), table.games_played, game, Tally(len(players)),
                     written=table.log_base)  # fmt: skip

    def touched_lobby(self, table: Table, now: float) -> None:
        """Queue the save of the table outside a game, if it changed."""
        undo = [_before(self._lobby(table))]
        change = self._lobby_change(table, now)
        if change is not None:
            self._commits.queue(change, undo=undo, table=table)

    def _lobby(self, table: Table) -> _Lobby:
        lobby = self._lobbies.get(id(table))
        if lobby is None:
            lobby = self._lobbies[id(table)] = _Lobby(self._new_id(table))
        return lobby

    def _lobby_change(self, table: Table, now: float) -> Work | None:
        """The work that saves the table outside a game (its seats, tokens, owner and
        settings) while a person holds a seat, or deletes its save once nobody can come
        back; None if nothing changed. The lobby's record moves on at once (the
        caller's commit puts it back if it fails)."""
        lobby = self._lobby(table)
        ident = lobby.id
        if not any(s.member is not None for s in table.seats):
            if not lobby.saved:
                return None
            lobby.saved, lobby.key = False, ()
            return lambda conn: delete_save(conn, ident)
        key = self._lobby_key(table)
        if lobby.saved and key == lobby.key:
            return None
        row = _row(documents.lobby_document(table, ident, now), self.kind, 0)
        lobby.key, lobby.saved = key, True
        return lambda conn: conn.execute(UPSERT, row)

    def closed(self, table: Table) -> None:
        """The host closed cleanly and told everyone: a table outside a game has
        nothing to resume, so its lobby save goes (a game in play stays saved)."""
        lobby = self._lobbies.get(id(table))
        if table.phase != Phase.PLAYING and lobby is not None and lobby.saved:
            ident = lobby.id
            try:
                self._commits.commit(lambda conn: delete_save(conn, ident))
                lobby.saved, lobby.key = False, ()
            except (sqlite3.Error, SaveError):
                log.exception("cannot remove the lobby save of %s", table.name)

    @staticmethod
    def _lobby_key(table: Table) -> tuple:
        return (
            table.phase,
            table.games_played,
            id(table.owner),
            tuple((s.name, s.kind, id(s.member), s.difficulty) for s in table.seats),
            table.settings.shape(),
        )

    @staticmethod
    def _new_id(table: Table) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", table.name.casefold()).strip("-")[:40] or "table"
        return f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"

    def live_save(self, table: Table) -> str | None:
        """The id of the save of ``table``'s current game, while it is unfinished."""
        record = self._games.get(id(table))
        if record is None or record.done or not record.stored:
            return None
        return record.id

    def forget_game(self, table: Table) -> None:
        """Remember nothing of ``table``'s current game (it ended half-way)."""
        self._games.pop(id(table), None)


def _taken(save: Saved) -> tuple[int, str] | None:
    """The digest a save's snapshot holds, and the moves it was taken after."""
    snap = save.doc.snapshot
    if snap is None:
        return None
    return (snap.entries if snap.digest_entries is None else snap.digest_entries, snap.digest)


def _before(record: Any) -> tuple[Any, dict[str, Any]]:
    """A record (``_Game``, ``_Lobby``) and its fields now, to put back (``flush``)."""
    return record, dict(vars(record))


def _row(document: dict[str, Any], kind: str, moves: int) -> tuple[Any, ...]:
    players = document["game"]["players"] if document["game"] else [
        s["name"] for s in document["seats"]]  # fmt: skip
    return (document["id"], kind, document["status"], document["table"]["name"],
            document["table"]["game"], ENCODER.encode(players), moves,
            document["saved_at"], document["saved_wall"], ENCODER.encode(document))  # fmt: skip


def delete_save(conn: sqlite3.Connection, ident: str) -> None:
    """Delete a save's rows: its moves, its seats' stats and its own."""
    conn.execute("DELETE FROM moves WHERE save = ?", (ident,))
    conn.execute("DELETE FROM seat_stats WHERE save = ?", (ident,))
    conn.execute("DELETE FROM saves WHERE id = ?", (ident,))


def add_saved(conn: sqlite3.Connection, saved: Saved, kind: str) -> None:
    """Write a save read from an old file (``net.saves.legacy``): its row, its moves,
    and for a finished game the stats of its seats (counted by replaying it)."""
    raw = {k: v for k, v in saved.raw.items() if k not in ("history", "log")}
    raw["history"], raw["log"] = None, []
    raw.setdefault("saved_wall", time.time())
    conn.execute(UPSERT, _row(raw, kind, saved.moves))
    conn.executemany(
        "INSERT INTO moves (save, n, entry) VALUES (?, ?, ?)",
        [(saved.id, n, ENCODER.encode(e)) for n, e in enumerate(saved.doc.log)],
    )
    if saved.status == "finished" and saved.doc.game is not None:
        tally = Tally(len(saved.players))
        try:
            driver = saved.replay(lambda driver, step: tally.step(driver, step.events))
        except SaveError:
            return  # kept as it is; it says why when it is replayed
        winners, _ = driver.result()
        seats = [(s.name, s.kind) for s in saved.doc.seats]
        conn.executemany(INSERT_STATS, tally.rows(saved.id, saved.game, seats, winners,
                                                  saved.doc.saved_wall))  # fmt: skip
