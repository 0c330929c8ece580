"""The saves database: one SQLite file (``<data>/motherlode.db``), opened in WAL mode.

Durability (``docs/RELIABILITY.md``): a commit writes its pages to the write-ahead log
with ``write()`` and returns, with ``synchronous=NORMAL``: no fsync on the event loop.
So a committed change survives a killed process at once (it is in the operating
system's cache, and SQLite recovers the log on the next open), and a power cut loses
at most the changes since the last checkpoint. Checkpoints (which fsync the log, copy it
into the database and fsync that) run on one background thread per process
(:class:`Checkpointer`), about once a second while anything was committed, on a
connection of its own: the loop never waits for a disk. A power cut never damages
the database; it can only take back the last second or so of play.

A file that is not a Motherlode saves database, is damaged, or comes from a newer
Motherlode is refused with :class:`SaveError` naming it and why, and left as it was:
nothing here deletes, truncates or recreates a database that exists.

Tables (all rows private to this user: the file is 0600, it holds resume tokens and
seeds)::

    saves       one row per save: a LAN table (in a game or outside it), a hot-seat
                or solo game, a finished or abandoned game. ``doc`` is the save's JSON
                document without its moves (docs/PROTOCOL.md, "Saved tables").
    moves       the moves of each save, one JSON log entry a row, numbered from 0.
    seat_stats  one row per seat of each finished game: the player's figures
                (``net.saves.stats``), so the stats never read the moves.
    league_*, seasons, ratings
                the league (``net.league.ledger``): each finished game's seats as the
                ratings read them, in play order, and the ratings derived from them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

from net.league import ledger
from net.saves.errors import SaveError

log = logging.getLogger(__name__)

FILE = "motherlode.db"
#: 2: a finished game's statistics are one JSON object a seat (``seat_stats.counts``),
#: by the names each game declares; 1 had a column each (read, and moved, on open).
#: 3: the league's tables (``net.league.ledger``); the games finished before them are
#: rated on first open (``net.saves.league.backfill``)
SCHEMA_VERSION = 3
CHECKPOINT_EVERY = 1.0  # seconds between checkpoints while commits come in
# a write-ahead log past this is restarted: a checkpoint that holds off the writer for
# the frames since the last one (see Checkpointer), and the file cut back to it
WAL_LIMIT = 256 << 20  # at 700 commits a second (the 200-table soak), every ~40 s
BUSY_TIMEOUT = 5.0  # seconds to wait for another process's write (a second app)

SCHEMA_2 = """
CREATE TABLE saves (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,         -- "tables", "hotseat" or "solo": who resumes it
    status TEXT NOT NULL,       -- "lobby", "playing", "finished", "abandoned"
    name TEXT NOT NULL,         -- the table's name
    game TEXT NOT NULL,         -- its key in net.catalogue
    players TEXT NOT NULL,      -- the names by seat, as a JSON list
    moves INTEGER NOT NULL,     -- rows in ``moves`` for this save
    saved_at REAL NOT NULL,     -- the host clock's time of the last change
    saved_wall REAL NOT NULL,   -- the wall clock's
    doc BLOB NOT NULL           -- the save document without its log (JSON)
);
CREATE INDEX saves_by_kind ON saves (kind, status);  -- no time in it: a commit that
CREATE INDEX saves_by_status ON saves (status);     -- changes no status leaves them be
CREATE TABLE moves (
    save TEXT NOT NULL,
    n INTEGER NOT NULL,         -- 0, 1, 2, ... in play order
    entry BLOB NOT NULL,        -- {"at", "by", "action", "events"} (JSON)
    PRIMARY KEY (save, n)
) WITHOUT ROWID;
CREATE TABLE seat_stats (
    save TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,         -- as played
    who TEXT NOT NULL,          -- the name casefolded: one player across games
    kind TEXT NOT NULL,         -- "human", "local" or "bot"
    game TEXT NOT NULL,
    won INTEGER NOT NULL,
    counts TEXT NOT NULL,       -- the game's own statistics, by the names it declares (JSON)
    finished_wall REAL NOT NULL,
    PRIMARY KEY (save, seat)
) WITHOUT ROWID;
CREATE INDEX seat_stats_by_who ON seat_stats (who, game);
"""
SCHEMA = SCHEMA_2 + ledger.SCHEMA
TABLES = ("moves", "saves", "seat_stats")
#: the tables a database of schema 3 or later holds besides :data:`TABLES`
LEAGUE_TABLES = ledger.TABLES


def refusal(path: Path, exc: BaseException) -> SaveError:
    """The error for a database that cannot be used: what, why, and that it is kept."""
    return SaveError(
        f"{path} is not a readable Motherlode saves database ({exc}). It is kept as it "
        "was; move it away (with its -wal file) to start with no saves"
    )


def connect(path: Path) -> sqlite3.Connection:
    """Open the database at ``path``, creating it (and its folder, private) if it does
    not exist; raises :class:`SaveError` for anything that is not a whole database of
    this or an earlier schema, and changes nothing then."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if path.is_symlink():  # planted to make us write elsewhere: never followed
            raise SaveError(f"the saves database {path} is a symbolic link; Motherlode "
                            "opens only a real file there. Move the link away.")
        if not path.exists():
            # private from the start: the -wal and -shm files take its mode
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise SaveError(f"cannot open the saves database {path}: {exc.strerror or exc}") from None
    try:
        conn = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT
        )
    except sqlite3.Error as exc:
        raise refusal(path, exc) from None
    try:
        _prepare(conn, path)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise refusal(path, exc) from None
    except SaveError:
        conn.close()
        raise
    return conn


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    # the header is read first: a file that is not a database fails here, unchanged
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if version > SCHEMA_VERSION:
        raise SaveError(
            f"{path} was written by a newer Motherlode (saves schema {version}; this one "
            f"reads {SCHEMA_VERSION}). It is kept as it was"
        )
    if version == 0 and tables:
        raise refusal(path, "it holds other tables")
    if version and not set(TABLES) <= tables or version >= 3 and not set(
            LEAGUE_TABLES) <= tables:
        raise refusal(path, "tables are missing")
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise refusal(path, f"cannot use a write-ahead log (journal mode {mode})")
    conn.execute("PRAGMA synchronous=NORMAL")  # see the module docstring
    conn.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer does it, off the loop
    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
    conn.execute("PRAGMA cache_size=-16384")  # 16 MiB: the pages of hundreds of tables
    if version == 1:
        _from_schema_1(conn)
        version = 2
    if version == 2:
        _from_schema_2(conn)
    if version == 0:
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] == 0:  # not raced
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                # (pending: the store imports old save files next, then rates them)
                conn.execute("INSERT INTO league_state VALUES ('backfill', 'pending')")
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


#: the columns of schema 1's ``seat_stats`` that are every game's; the rest were the
#: games' own statistics, one column each
_SEAT_COLUMNS = ("save", "seat", "name", "who", "kind", "game", "won", "finished_wall")


def _from_schema_1(conn: sqlite3.Connection) -> None:
    """Schema 1 to 2, in one transaction: each row's statistics columns become its
    ``counts`` object (every column of schema 1's table that is not every game's)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] == 1:  # not raced
            columns = [row[1] for row in conn.execute("PRAGMA table_info(seat_stats)")]
            counts = [c for c in columns if c not in _SEAT_COLUMNS]
            pairs = ", ".join(f"'{c}', \"{c}\"" for c in counts)
            conn.execute("ALTER TABLE seat_stats RENAME TO seat_stats_1")
            conn.execute("DROP INDEX IF EXISTS seat_stats_by_who")
            new = SCHEMA_2[SCHEMA_2.index("CREATE TABLE seat_stats"):]
            for statement in new.split(";"):
                if statement.strip():
                    conn.execute(statement)
            kept = ", ".join(_SEAT_COLUMNS[:-1])
            conn.execute(
                f"INSERT INTO seat_stats ({kept}, counts, finished_wall) "
                f"SELECT {kept}, json_object({pairs}), finished_wall FROM seat_stats_1")
            conn.execute("DROP TABLE seat_stats_1")
            conn.execute("PRAGMA user_version=2")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _from_schema_2(conn: sqlite3.Connection) -> None:
    """Schema 2 to 3, in one transaction: the league's tables, empty, and its backfill
    marked pending (the store rates the finished games on open: that replays them,
    which is not this module's to do)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] == 2:  # not raced
            for statement in ledger.SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT INTO league_state VALUES ('backfill', 'pending')")
            conn.execute("PRAGMA user_version=3")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


class Checkpointer:
    """One thread per process that checkpoints each database it was told about (see
    the module docstring). ``dirty(path)`` after a commit; it never blocks."""

    _lock = threading.Lock()
    _instance: Checkpointer | None = None

    def __init__(self) -> None:
        self._dirty: set[Path] = set()
        self._guard = threading.Lock()
        self._connections: dict[Path, tuple[sqlite3.Connection, float]] = {}
        self._wake = threading.Event()
        self.checkpoints = 0  # figures
        self.restarts = 0
        self.restart_seconds: list[float] = []
        self._thread = threading.Thread(target=self._run, name="saves-checkpoint", daemon=True)
        self._thread.start()

    @classmethod
    def get(cls) -> Checkpointer:
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def dirty(self, path: Path) -> None:
        with self._guard:
            self._dirty.add(path)

    def _run(self) -> None:
        while True:
            self._wake.wait(CHECKPOINT_EVERY)
            self._wake.clear()
            with self._guard:
                paths, self._dirty = self._dirty, set()
            now = time.monotonic()
            for path in paths:
                try:
                    self._checkpoint(path, now)
                except Exception:  # never let the thread die: the next round tries again
                    log.exception("cannot checkpoint %s", path)
            for path, (conn, used) in list(self._connections.items()):
                if now - used > 30.0:  # idle: let the file go
                    del self._connections[path]
                    with contextlib.suppress(sqlite3.Error):
                        conn.close()

    def _checkpoint(self, path: Path, now: float) -> None:
        try:
            held = self._connections.get(path)
            if held is None:
                if not path.exists():
                    return
                conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                       timeout=BUSY_TIMEOUT)  # fmt: skip
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            else:
                conn = held[0]
            self._connections[path] = (conn, now)
            # copy the log into the database, never holding off the loop's commits
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.checkpoints += 1
            wal = path.with_name(path.name + "-wal")
            if wal.exists() and wal.stat().st_size > WAL_LIMIT:
                # commits all along: the log never came back to its start. Restart it:
                # that holds off the writer while the frames since the last checkpoint
                # are copied and synced (a commit waits that long, rarely), so first a
                # second checkpoint, unblocking, leaves it as few as it can
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                began = time.monotonic()
                conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
                self.restarts += 1
                self.restart_seconds.append(time.monotonic() - began)
        except sqlite3.Error:
            # another process holds it, or it went away: the next commit asks again,
            # and SQLite checkpoints when the last connection closes
            stale = self._connections.pop(path, None)
            if stale is not None:
                with contextlib.suppress(sqlite3.Error):
                    stale[0].close()
