"""The store a host saves its tables into (``Host(store=...)``), and reading saves back.

Every change of a table is committed before anyone is sent its views. The table calls
:meth:`Store.touched` after each change, before it sends anything about it; ``touched``
builds what the change wrote (the new moves, the table's document: seats, tokens,
settings, the snapshot of the views; at a game's start or end the hand-over between
the game's save and the table's lobby save) and queues it. Once a loop turn
(``loop.call_soon``) the changes queued so far, of every table, go as one batch to the
store's writer thread (:class:`_Writer`), which commits them in one transaction (a
group commit) while the loop goes on: SQLite releases the GIL while it works. One batch
is in flight at a time; the changes queued meanwhile form the next, handed over when
the first lands back on the loop (``call_soon_threadsafe``). Until a change's batch has
landed the host holds every byte its peers send after it, and writes them in order
once the store tells it (:meth:`Store.on_sealed` marks which bytes a batch covers,
:meth:`Store.on_flushed` says it landed), so no view of a change reaches a socket
before the change is committed. Without a running loop a change is committed at once;
reads and direct commits wait for the batch in flight and commit what is queued first,
so only one thread at a time uses the connection. A move of a game whose seats, members, owner and
settings stay as last written builds only the document's changing fields (times,
clock, snapshot) into the cached bytes of the rest (``documents.game_frame``): the
very bytes the whole document encodes to. A commit is a write to SQLite's log without
fsync (``net.saves.db``), and it survives a killed process the moment it returns. The
moves are committed as they happen, so the table keeps none in memory once their
commit is done.

A failed commit (a full disk, a damaged database) is reported once and logged; the
records of its changes are put back, so the table's next commit carries its moves,
and the game goes on.

A LAN host's store (kind ``tables``, ``lobbies=True``) also saves each table outside a
game, in the lobby and between games, while a person holds a seat (status ``lobby``:
seats, tokens, owner, settings, the last result), so every token survives a crash at
any moment; :func:`load_all` resumes one save per table.

Time: a table's log carries the host's clock. A host that resumes starts its clock at
the latest save's time (:func:`resume_time`), so the time the host was down does not
count: every pending deadline keeps the time it had left at the last save.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import queue
import re
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from net.paths import data_dir
from net.saves import db, documents, legacy
from net.saves.documents import ENCODER, Entry
from net.saves.errors import SaveError
from net.saves.saved import Saved
from net.saves.stats import INSERT as INSERT_STATS
from net.saves.stats import PlayerStats, Tally, players
from net.table import Table

log = logging.getLogger(__name__)

KINDS = ("tables", "hotseat", "solo")
WRITER_IDLE = 30.0  # seconds without a batch before the writer thread ends
_ENTRY = msgspec.json.Decoder(Entry)
# a game in play: its status (indexed) stays, so no index is written (3 pages a commit,
# not 5: the save's row, its new moves, the file's header)
_UPDATE = ("UPDATE saves SET players = ?, moves = ?, saved_at = ?, saved_wall = ?, doc = ? "
           "WHERE id = ?")  # fmt: skip
# a move of a game whose seats, members, owner and settings stay: its document is the
# bytes of the last whole one around the fields a move changes (documents.game_frame)
_MOVED = "UPDATE saves SET moves = ?, saved_at = ?, saved_wall = ?, doc = ? WHERE id = ?"
_UPSERT = (
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


Work = Callable[[sqlite3.Connection], Any]


@dataclass
class _Change:
    """One queued change of a tick's group commit (``Store.flush``)."""

    work: Work
    moves: int
    done: Callable[[], None] | None
    undo: list[tuple[Any, dict[str, Any]]]
    table: int = 0  # id() of the table it saves (0: none)


@dataclass
class _Lobby:
    """A table's save outside a game: its id, and what it last saved."""

    id: str
    key: tuple = ()
    saved: bool = False  # its row exists


#: the statuses of a kept game, as ``motherlode games --status`` names them: a game in
#: play (or stopped half-way by a host that stopped), a table outside a game, a game
#: played to its end, a game left half-way
KEPT_STATUSES = ("playing", "lobby", "finished", "abandoned")


@dataclass(frozen=True)
class Kept:
    """A kept game (or a table outside a game), as lists of games show it."""

    id: str
    game: str
    status: str
    players: list[str]
    moves: int
    when: float
    winners: list[str] = field(default_factory=list)

    def result(self) -> str:
        moves = f"{self.moves} move{'' if self.moves == 1 else 's'}"
        if self.status == "playing":
            return f"unfinished after {moves}"
        if self.status == "lobby":
            return "a table outside a game"
        if self.status != "finished":
            return f"left after {moves}"
        return "won by " + " and ".join(self.winners) if self.winners else "finished"


class Store:
    """Saves the tables of a host after every change (see the module docstring).

    ``root`` is the data directory (the database is ``root/motherlode.db``); ``kind``
    says whose saves these are: ``tables`` (LAN tables, ``motherlode host --resume``),
    ``hotseat`` (the menu's "Resume") or ``solo`` (games against bots). The database
    opens on first use: a damaged one raises :class:`SaveError` there (``touched``
    reports it once and the game goes on unsaved)."""

    def __init__(
        self,
        root: Path | str | None = None,
        kind: str = "tables",
        *,
        report: Any = None,
        lobbies: bool | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"a store's kind is one of {', '.join(KINDS)}, not {kind!r}")
        self.root = Path(root) if root is not None else data_dir()
        self.path = self.root / db.FILE
        self.kind = kind
        #: save tables outside a game too (lobby, between games), while a person holds
        #: a seat, so their tokens survive a crash; a hot-seat store does not
        self.lobbies = kind == "tables" if lobbies is None else lobbies
        self.report = report or (lambda text: None)
        self.problems: list[str] = []  # old files that could not be imported
        self._conn: sqlite3.Connection | None = None
        self._games: dict[int, _Game] = {}  # by id(table)
        self._lobbies: dict[int, _Lobby] = {}  # by id(table)
        self._failed = False
        self._pending: list[_Change] = []  # this tick's changes, committed by flush
        # each table's changes not yet committed (queued or with the writer thread), by
        # id(table): only that table's views wait for a commit (``unsaved``)
        self._unsaved: dict[int, int] = {}
        self._listeners: list[Callable[[], None]] = []
        self._sealers: list[Callable[[], None]] = []
        self._waiters: list[asyncio.Future] = []  # wait_committed's
        self._inflight: _Batch | None = None  # the batch the writer thread commits
        self._writer: _Writer | None = None  # started by the first batch on a loop
        self._scheduled: asyncio.AbstractEventLoop | None = None  # the loop of the next tick
        self.saves = 0  # changes committed (figures for the benchmarks and tests)
        self.groups = 0  # transactions: each group commit holds a tick's changes

    @classmethod
    def default(cls, kind: str = "tables", **kwargs: Any) -> Store:
        """The store under the data directory (``net.paths.data_dir``)."""
        return cls(data_dir(), kind, **kwargs)

    # -- the database ----------------------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        """The open database; the first use opens it and imports old save files.
        Raises SaveError for a database that cannot be used (it is left as it was)."""
        if self._conn is None:
            conn = db.connect(self.path)
            if legacy.pending(self.root):
                try:
                    self.problems = legacy.import_files(conn, self.root, _add_saved)
                except (sqlite3.Error, OSError) as exc:
                    conn.close()
                    raise SaveError(
                        f"cannot import the old saves into {self.path}: {exc}"
                    ) from None
            self._conn = conn
        return self._conn

    def check(self) -> None:
        """Open the database now and check every page of it (SQLite's quick_check);
        raises SaveError, naming it and why. A host calls it once, at its start."""

        def quick_check(conn: sqlite3.Connection) -> None:
            found = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
            if found != ["ok"]:
                raise db.refusal(self.path, "; ".join(map(str, found)))

        self._read(quick_check)

    def close(self) -> None:
        """Commit what is queued (waiting for the writer thread), stop that thread and
        close the database."""
        try:
            self._settle()
        finally:
            writer, self._writer = self._writer, None
            if writer is not None:
                writer.stop()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _stage(self, name: str) -> None:
        """Called between the steps of a commit; a no-op (the crash tests override it).
        The steps of the statements run on the writer thread, "committed" on the loop."""

    @property
    def pending(self) -> bool:
        """Whether changes wait for their commit (queued, or with the writer thread)."""
        return bool(self._pending) or self._inflight is not None

    def unsaved(self, table: Any) -> bool:
        """Whether a change of ``table`` waits for its commit: until then nobody at that
        table may be sent its views (the host holds their bytes). The other tables'
        players are not held up by it."""
        return id(table) in self._unsaved

    def on_flushed(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after each group commit, committed or failed (the host
        then releases the bytes it held for it: those held before its ``on_sealed``,
        or every byte once nothing is pending)."""
        self._listeners.append(listener)

    def on_sealed(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` when the changes queued so far go to a commit: the bytes
        held until then wait for that commit, later ones for a later commit."""
        self._sealers.append(listener)

    def _queue(self, work: Work, moves: int = 0, done: Callable[[], None] | None = None,
               undo: Iterable[Any] = (), table: Any = None) -> None:  # fmt: skip
        """Add a change (of ``table``, if it saves one) to the next group commit.
        ``done()`` runs once it is committed. ``undo`` puts back the records (``_Game``,
        ``_Lobby``) the change already moved on, if the commit fails: each a pair of the
        record and its fields before the change (``_before``). Without a running loop
        (a table driven by plain calls) the change is committed at once."""
        key = 0 if table is None else id(table)
        if key:
            self._unsaved[key] = self._unsaved.get(key, 0) + 1
        self._pending.append(_Change(work, moves, done, list(undo), key))
        self.schedule()

    def _settled(self, changes: list[_Change]) -> None:
        """``changes`` are committed, or failed and put back: their tables' views may go."""
        unsaved = self._unsaved
        for change in changes:
            key = change.table
            if key:
                left = unsaved[key] - 1
                if left:
                    unsaved[key] = left
                else:
                    del unsaved[key]

    def schedule(self) -> None:
        """Hand what is queued to the writer thread on the running loop's next turn
        (once a turn), or commit it now without a running loop. A turn scheduled on a
        loop that has since gone (a store that outlives its host's loop) does not hold
        the queue up: the next call on another loop schedules it again."""
        if not self._pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        if self._scheduled is not loop:
            self._scheduled = loop
            loop.call_soon(self._tick)

    def _tick(self) -> None:
        """The loop's turn: the changes queued in it (and in the turns before, while
        the writer was busy) go to the writer thread as one batch, unless a batch is
        still in flight: its landing hands them over."""
        self._scheduled = None
        batch = self._inflight
        if batch is not None:
            if not batch.landed and batch.loop is _running_loop():
                return  # (``_landed`` hands the queue over)
            self._drain()  # landed, or sent by a loop that went away
        if not self._pending:
            return
        loop = _running_loop()
        if loop is None:
            self._settle()
            return
        changes, self._pending = self._pending, []
        try:
            conn = self.conn  # opened here: a damaged database is reported on the loop
        except Exception as exc:
            self._failed_batch(changes, exc)
            return
        if self._writer is None:
            self._writer = _Writer(self)
        self._seal()
        self._inflight = batch = _Batch(changes, loop)
        self._writer.hand(batch, conn)

    def _landed(self, batch: _Batch) -> None:
        """On the loop: the writer thread is done with ``batch`` (``call_soon_threadsafe``)."""
        if batch is not self._inflight:
            return  # finished already, by a reader or a direct commit that waited for it
        self._finish(batch)
        if self._pending and self._scheduled is not batch.loop:
            self._tick()  # what queued meanwhile goes next (unless this turn's tick will)

    def _drain(self) -> None:
        """Wait for the batch in flight, if any, and finish it here (a failure is
        reported, not raised)."""
        batch = self._inflight
        if batch is not None:
            batch.wait()
            self._finish(batch)

    def _finish(self, batch: _Batch) -> None:
        self._inflight = None
        if batch.error is None:
            self._committed(batch.changes)
            return
        # the changes queued after it were built on its records: they go too, and the
        # tables' next changes write everything again from the records put back
        changes, self._pending = batch.changes + self._pending, []
        self._failed_batch(changes, batch.error)

    def _failed_batch(self, changes: list[_Change], exc: BaseException) -> None:
        self._undo(changes)
        self._settled(changes)
        self._flushed()
        self._failure(None, exc)

    def _settle(self) -> None:
        """Everything queued so far committed (or reported failed) before this returns:
        what a reader must see, what a direct commit comes after."""
        self._drain()
        if self._pending:
            try:
                self.flush()
            except Exception as exc:  # reported once; the game goes on unsaved
                self._failure(None, exc)

    def flush(self) -> None:
        """Commit every queued change now, on this thread, in one transaction (after
        the batch the writer thread holds, if any), then tell the listeners. Raises
        the commit's error (the changes are then put back as they were before them, to
        be saved with the table's next change)."""
        self._drain()
        changes, self._pending = self._pending, []
        if not changes:
            return
        self._seal()
        try:
            _write(self, self.conn, changes)
        except BaseException:
            self._undo(changes)
            self._settled(changes)
            self._flushed()
            raise
        self._committed(changes)

    def _seal(self) -> None:
        for listener in self._sealers:
            listener()

    @staticmethod
    def _undo(changes: list[_Change]) -> None:
        for change in reversed(changes):  # the earliest state last: it wins
            for obj, fields in change.undo:
                vars(obj).update(fields)

    def _committed(self, changes: list[_Change]) -> None:
        db.Checkpointer.get().dirty(self.path)
        self.groups += 1
        self._settled(changes)
        for change in changes:
            self.saves += 1
            if change.done is not None:
                change.done()
            self._stage("committed")
        self._flushed()

    def _flushed(self) -> None:
        for listener in self._listeners:
            listener()
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_committed(self) -> None:
        """Until every change queued so far is committed (or has failed) and the
        listeners are told (the host then has sent the bytes it held for them)."""
        while self.pending:
            batch = self._inflight
            if batch is not None and batch.loop is not _running_loop():
                self._drain()  # sent by a loop that went away
                continue
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter

    def _commit(self, work: Work, moves: int = 0) -> None:
        """Run ``work(conn)`` in one transaction and commit it now, after the changes
        queued before it (their failure is theirs: reported, not raised here)."""
        self._settle()
        self._queue(work, moves)
        self.flush()

    def _read(self, query):
        """``query(conn)``'s statements, all on one snapshot of the database: a host
        (another process, say) may commit between two of them, and a save read half
        before and half after its commit looked damaged."""
        self._settle()  # what was queued is what a reader must see
        try:
            conn = self.conn
            if conn.in_transaction:
                return query(conn)
            conn.execute("BEGIN")
            try:
                return query(conn)
            finally:
                conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise db.refusal(self.path, exc) from None

    # -- saving ----------------------------------------------------------------------

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
            tuple(vars(table.settings).values()),
        )

    def touched(self, table: Table, now: float) -> None:
        """Queue ``table``'s change, if it changed since its last save, for this tick's
        group commit; the table calls this before it sends anyone the views of a
        change, and the host holds every byte it sends until the commit (``flush``).
        Never raises: a failed save is reported once and logged, and the game goes on."""
        try:
            if table.driver is not None and table.seed is not None:
                if self._touched_game(table, now):
                    return
            if self.lobbies:
                self._touched_lobby(table, now)
        except Exception as exc:  # a full disk, a damaged database: the game goes on
            self._failure(table, exc)

    def _failure(self, table: Table | None, exc: BaseException) -> None:
        name = "the tables" if table is None else repr(table.name)
        log.error("cannot save %s", name, exc_info=exc)
        if not self._failed:
            self._failed = True
            self.report(f"cannot save {name}: {exc}; the game goes on unsaved")

    def _touched_game(self, table: Table, now: float) -> bool:
        """Queue the save of the table's current game; False once that game is over
        (then the table is saved as a lobby)."""
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
        finished = driver.over or table.phase != "playing"
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
        after = self._lobby_change(table, now) if finished and self.lobbies else None
        first = record.written
        seats = [(s.name, s.kind) for s in table.seats]
        entries = [(record.id, first + i, ENCODER.encode(e)) for i, e in enumerate(new)]
        stats = None
        if finished:
            winners, _ = driver.result()
            stats = tally.rows(record.id, table.game, seats, winners)

        def work(conn: sqlite3.Connection) -> None:
            if entries:
                conn.executemany("INSERT INTO moves (save, n, entry) VALUES (?, ?, ?)", entries)
            if row is None:
                conn.execute(_MOVED, update)
            elif was_stored and not finished:
                conn.execute(_UPDATE, (*row[5:], row[0]))
            else:
                conn.execute(_UPSERT, row)
            if dropped is not None:
                _delete(conn, dropped)
            if stats is not None:
                conn.executemany(INSERT_STATS, stats)
            if after is not None:
                after(conn)  # the table after the game, in the same commit

        # the record moves on now, so the next change of this tick follows this one;
        # a failed commit puts it back (``flush``)
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

        self._queue(work, len(new), done, undo, table)
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
        }
        return _Game(self._new_id(table), table.games_played, game, Tally(len(players)),
                     written=table.log_base)  # fmt: skip

    def _touched_lobby(self, table: Table, now: float) -> None:
        undo = [_before(self._lobby(table))]
        change = self._lobby_change(table, now)
        if change is not None:
            self._queue(change, undo=undo, table=table)

    def _lobby(self, table: Table) -> _Lobby:
        lobby = self._lobbies.get(id(table))
        if lobby is None:
            lobby = self._lobbies[id(table)] = _Lobby(self._new_id(table))
        return lobby

    def _lobby_change(self, table: Table, now: float):
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
            return lambda conn: _delete(conn, ident)
        key = self._lobby_key(table)
        if lobby.saved and key == lobby.key:
            return None
        row = _row(documents.lobby_document(table, ident, now), self.kind, 0)
        lobby.key, lobby.saved = key, True
        return lambda conn: conn.execute(_UPSERT, row)

    def closed(self, table: Table) -> None:
        """The host closed cleanly and told everyone: a table outside a game has
        nothing to resume, so its lobby save goes (a game in play stays saved)."""
        lobby = self._lobbies.get(id(table))
        if table.phase != "playing" and lobby is not None and lobby.saved:
            ident = lobby.id
            try:
                self._commit(lambda conn: _delete(conn, ident))
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
            tuple(vars(table.settings).values()),
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

    def close_table(self, table: Table, *, keep: bool) -> str | None:
        """The table's game ends half-way (its player left): ``keep`` keeps it as
        abandoned, for replays; otherwise its save is deleted (nothing to keep, e.g. a
        game nobody moved in). Returns the kept game's id, if any."""
        ident = self.live_save(table)
        if ident is None:
            return None
        self._games.pop(id(table), None)
        if keep:
            return self.abandon(ident)
        self._commit(lambda conn: _delete(conn, ident))
        return None

    # -- reading ---------------------------------------------------------------------

    def unfinished(self) -> list[str]:
        """The ids of this store's saves to resume (games in play, tables outside a
        game), oldest first."""
        rows = self._read(lambda conn: conn.execute(
            "SELECT id FROM saves WHERE kind = ? AND status IN ('playing', 'lobby') "
            "ORDER BY saved_wall, id", (self.kind,)).fetchall())  # fmt: skip
        return [row[0] for row in rows]

    def load(self, ident: str) -> Saved:
        """A save of the database with every move; raises SaveError (the id unknown,
        or its rows damaged), changing nothing."""
        where = f"saved game {ident!r} in {self.path}"

        def query(conn: sqlite3.Connection):
            row = conn.execute("SELECT doc, kind, moves FROM saves WHERE id = ?",
                               (ident,)).fetchone()  # fmt: skip
            if row is None:
                return None
            moves = conn.execute("SELECT n, entry FROM moves WHERE save = ? ORDER BY n",
                                 (ident,)).fetchall()  # fmt: skip
            return row, moves

        found = self._read(query)
        if found is None:
            raise SaveError(f"no saved game {ident!r} in {self.path}")
        (data, kind, count), moves = found
        doc, raw = documents.parse(data, where)
        if doc.id != ident:
            raise SaveError(f"{where} is damaged: its document names {doc.id!r}")
        if [n for n, _ in moves] != list(range(count)):
            raise SaveError(f"{where} is damaged: {count} moves, but rows {len(moves)} "
                            "are not numbered 0 on")  # fmt: skip
        try:
            doc.log = [_ENTRY.decode(entry) for _, entry in moves]
        except msgspec.MsgspecError as exc:
            raise SaveError(f"{where} is damaged: a move does not read ({exc})") from None
        saved = Saved(doc, raw, where)
        saved.kind = kind
        return saved

    def find(self, prefix: str) -> list[str]:
        """The ids of every save that start with ``prefix`` (any kind)."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._read(lambda conn: conn.execute(
            "SELECT id FROM saves WHERE id LIKE ? ESCAPE '\\' ORDER BY id",
            (pattern,)).fetchall())  # fmt: skip
        return [row[0] for row in rows]

    def kept(self, limit: int = 300,
             statuses: Iterable[str] = ("finished", "abandoned")) -> list[Kept]:
        """The saves of every kind whose status is one of ``statuses`` (of
        :data:`KEPT_STATUSES`; by default the finished and abandoned games, which the
        Replays list shows), newest first."""
        wanted = list(dict.fromkeys(statuses))
        wrong = [s for s in wanted if s not in KEPT_STATUSES]
        if wrong or not wanted:
            raise ValueError(f"a kept game's status is one of {', '.join(KEPT_STATUSES)}, "
                             f"not {', '.join(map(repr, wrong)) or 'none'}")
        marks = ", ".join("?" * len(wanted))
        rows = self._read(lambda conn: conn.execute(
            "SELECT s.id, s.game, s.status, s.players, s.moves, s.saved_wall, "
            "(SELECT json_group_array(t.name) FROM seat_stats t WHERE t.save = s.id AND t.won) "
            f"FROM saves s WHERE s.status IN ({marks}) "
            "ORDER BY s.saved_wall DESC, s.id LIMIT ?", (*wanted, limit)).fetchall())  # fmt: skip
        out = []
        for ident, game, status, names, moves, when, winners in rows:
            try:
                names, winners = msgspec.json.decode(names), msgspec.json.decode(winners or "[]")
            except msgspec.DecodeError:
                names, winners = ["?"], []
            out.append(Kept(ident, game, status, [str(n) for n in names], moves, when,
                            [str(w) for w in winners]))  # fmt: skip
        return out

    def abandon(self, save: Saved | str) -> str:
        """Keep an unfinished save only as an abandoned game (for replays); a lobby
        save, which holds no game, is deleted. Returns its id."""
        saved = save if isinstance(save, Saved) else self.load(save)
        if saved.status == "lobby":
            self._commit(lambda conn: _delete(conn, saved.id))
            return saved.id
        raw = {k: v for k, v in saved.raw.items() if k != "log"}
        raw["status"], raw["log"] = "abandoned", []
        doc = ENCODER.encode(raw)
        self._commit(lambda conn: conn.execute(
            "UPDATE saves SET status = 'abandoned', doc = ? WHERE id = ?", (doc, saved.id)))
        return saved.id

    def delete(self, ident: str) -> None:
        """Delete a game for good: its save, moves and stats."""
        self._commit(lambda conn: _delete(conn, ident))

    def stats(self, name: str | None = None, *, bots: bool = False) -> list[PlayerStats]:
        """Every player's figures per game, or one player's (``net.saves.stats``)."""
        return self._read(lambda conn: players(conn, name, bots=bots))


class _Batch:
    """The changes the loop handed to the writer thread in one go, and how it went."""

    __slots__ = ("changes", "loop", "error", "_busy")

    def __init__(self, changes: list[_Change], loop: asyncio.AbstractEventLoop) -> None:
        self.changes = changes
        self.loop = loop  # told when the batch has landed
        self.error: BaseException | None = None
        self._busy = threading.Lock()  # held until the writer is done with it
        self._busy.acquire()

    @property
    def landed(self) -> bool:
        """Whether the writer is done with it (its loop may not know yet)."""
        return not self._busy.locked()

    def wait(self) -> None:
        """Until the writer is done with it."""
        with self._busy:
            pass

    def land(self) -> None:
        self._busy.release()


def _write(store: Store, conn: sqlite3.Connection, changes: list[_Change]) -> None:
    """``changes``' statements in one transaction, committed; raises (rolled back)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for change in changes:
            change.work(conn)
            store._stage("moves written" if change.moves else "written")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


class _Writer:
    """The thread that commits a store's batches (``BEGIN``, the statements,
    ``COMMIT``) on its connection, and then tells the batch's loop
    (``call_soon_threadsafe``). SQLite releases the GIL while it works, so the commit
    runs on another core while the loop goes on. One batch at a time: the loop hands
    the next over once this one has landed, and never touches the connection while one
    is in flight (``Store._drain``). The thread ends when idle for ``WRITER_IDLE``
    seconds (a store is rarely closed) and the next batch starts another."""

    def __init__(self, store: Store) -> None:
        self._store = store
        _WRITERS.add(self)
        self._queue: queue.SimpleQueue[tuple[_Batch, sqlite3.Connection] | None] = (
            queue.SimpleQueue())  # fmt: skip
        self._lock = threading.Lock()  # guards _thread: started, or ended when idle
        self._thread: threading.Thread | None = None

    def hand(self, batch: _Batch, conn: sqlite3.Connection) -> None:
        self._queue.put((batch, conn))
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="saves-writer",
                                                daemon=True)  # fmt: skip
                self._thread.start()

    def stop(self) -> None:
        """End the thread once its batch is done (the store has drained it)."""
        self._queue.put(None)
        with self._lock:
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        store = self._store
        while True:
            try:
                item = self._queue.get(timeout=WRITER_IDLE)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():  # (else a batch came just now: go on)
                        self._thread = None  # the next batch starts another
                        return
                continue
            if item is None:  # stopped
                with self._lock:
                    self._thread = None
                return
            batch, conn = item
            try:
                _write(store, conn, batch.changes)
            except BaseException as exc:  # the loop reports it and puts the records back
                batch.error = exc
            batch.land()
            try:
                batch.loop.call_soon_threadsafe(store._landed, batch)
            except RuntimeError:
                pass  # its loop is closed: the store's next turn finishes it (``_tick``)


# every writer of this process: a batch in flight when the interpreter exits (a host
# stopped while its last batch commits) still lands; the thread is a daemon, so one
# that waits for nothing never holds the exit up
_WRITERS: weakref.WeakSet[_Writer] = weakref.WeakSet()


@atexit.register
def _drain_writers() -> None:
    for writer in list(_WRITERS):
        writer.stop()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


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


def _delete(conn: sqlite3.Connection, ident: str) -> None:
    conn.execute("DELETE FROM moves WHERE save = ?", (ident,))
    conn.execute("DELETE FROM seat_stats WHERE save = ?", (ident,))
    conn.execute("DELETE FROM saves WHERE id = ?", (ident,))


def _add_saved(conn: sqlite3.Connection, saved: Saved, kind: str) -> None:
    """Write a save read from an old file (``net.saves.legacy``): its row, its moves,
    and for a finished game the stats of its seats (counted by replaying it)."""
    raw = {k: v for k, v in saved.raw.items() if k not in ("history", "log")}
    raw["history"], raw["log"] = None, []
    raw.setdefault("saved_wall", time.time())
    conn.execute(_UPSERT, _row(raw, kind, saved.moves))
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


def resume_time(saves: Iterable[Saved]) -> float:
    """The host clock's start for resuming ``saves``: the latest save's time."""
    return max((s.saved_at for s in saves), default=0.0)


def resumed_clock(saves: Iterable[Saved]) -> Any:
    """The real clock of a host that resumes ``saves``: it starts at the latest save's
    time (see the module docstring). Call it inside the running loop."""
    from net.clock import RealClock

    return RealClock(start=resume_time(saves))


def load_all(store: Store) -> tuple[list[Saved], list[str]]:
    """Every save of ``store`` to resume that reads, and a message for each that does
    not (those are kept as they are). ``Saved.restore`` replays and checks them.

    A table has one save to resume: a lobby save is dropped when another save of the
    same table holds the same people (a token in common) and wins: an unfinished game,
    or a newer lobby save (old files can hold both). Saves of one name with nobody in
    common (a host started anew without ``--resume``) are all kept; a host restores
    the first and refuses the others by name."""
    try:
        idents = store.unfinished()
    except SaveError as exc:
        return [], [str(exc)]
    problems = list(store.problems)
    good: list[Saved] = []
    for ident in idents:
        try:
            good.append(store.load(ident))
        except SaveError as exc:
            problems.append(f"{exc}. It is kept as it was.")
    kept = []
    for i, saved in enumerate(good):  # oldest first
        if saved.status == "lobby" and any(
            other.name.casefold() == saved.name.casefold()
            and (other.status == "playing" or j > i)
            and _same_people(saved, other)
            for j, other in enumerate(good)
            if other is not saved
        ):
            try:
                store.delete(saved.id)
            except (sqlite3.Error, SaveError):
                log.exception("cannot delete the lobby save %s", saved.id)
            continue
        kept.append(saved)
    return kept, problems


def _same_people(one: Saved, other: Saved) -> bool:
    """Whether two saves share a person (a whole token: ids alone repeat across hosts)."""
    return bool({(m.id, m.secret) for m in one.doc.members}
                & {(m.id, m.secret) for m in other.doc.members})  # fmt: skip


def open_game(target: str, store: Store | None = None) -> Saved:
    """A game to replay or export: a record file at ``target``, or the saved game whose
    id is ``target`` (or begins with it, if only one does). Raises SaveError with a
    message for a person: no such file or game, several games, a damaged one."""
    path = Path(target)
    if path.is_file():
        return Saved.load(path)
    store = store or Store.default("tables")
    matches = store.find(target) if target else []
    if target in matches:
        matches = [target]
    if not matches:
        raise SaveError(f"no file and no saved game {target!r} (`motherlode games` and the "
                        "app's Replays list the games kept)")  # fmt: skip
    if len(matches) > 1:
        listed = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise SaveError(f"{len(matches)} saved games begin with {target!r}: {listed}")
    return store.load(matches[0])
