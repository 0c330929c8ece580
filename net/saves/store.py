"""The store a host saves its tables into (``Host(store=...)``): :class:`Store`, the one
object a host, the app and the command line call, composed of one part an idea:

- ``net.saves.mapping``: what it remembers of each table between saves, and the rows
  each change of a table writes (:class:`~net.saves.mapping.Records`);
- ``net.saves.writer``: the group commit, a loop turn's changes committed in one
  transaction by a writer thread (:class:`~net.saves.writer.GroupCommit`);
- ``net.saves.queries``: reading saves back, the kept games, the stats, and the direct
  commits on kept saves (:class:`~net.saves.queries.Queries`, :func:`load_all`).

Every change of a table is committed before anyone is sent its views. The table calls
:meth:`Store.touched` after each change, before it sends anything about it; ``touched``
builds what the change wrote (the new moves, the table's document: seats, tokens,
settings, the snapshot of the views; at a game's start or end the hand-over between the
game's save and the table's lobby save) and queues it for the group commit. Until the
change is committed the host holds every byte its peers send after it
(:meth:`Store.unsaved`, :meth:`Store.on_sealed`, :meth:`Store.on_flushed`), so no view
of a change reaches a socket before the change is committed. A failed commit (a full
disk, a damaged database) is reported once and logged, and the game goes on.

A LAN host's store (kind ``tables``, ``lobbies=True``) also saves each table outside a
game, in the lobby and between games, while a person holds a seat (status ``lobby``:
seats, tokens, owner, settings, the last result), so every token survives a crash at
any moment; :func:`load_all` resumes one save per table.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from net.paths import data_dir
from net.saves import db, league, legacy
from net.saves.errors import SaveError
from net.saves.mapping import Records, add_saved
from net.saves.queries import Kept, Queries
from net.saves.saved import Saved
from net.saves.stats import PlayerStats
from net.saves.writer import GroupCommit
from net.table import Table

log = logging.getLogger(__name__)

KINDS = ("tables", "hotseat", "solo")


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
        self._failed = False
        # the parts (looking the store's own methods up at each call: a subclass's
        # ``_stage`` is the crash tests' hook)
        self._commits = GroupCommit(
            self.path,
            connect=lambda: self.conn,
            stage=lambda name: self._stage(name),
            failure=lambda exc: self._failure(None, exc),
        )
        self._records = Records(kind, self._commits)
        self._queries = Queries(self._commits, self.path, kind)
        # what the host asks on every send, and the hooks it sets once: the group
        # commit's own (:class:`GroupCommit` says what they mean), with no call between
        self.unsaved = self._commits.unsaved
        self.on_flushed = self._commits.on_flushed
        self.on_sealed = self._commits.on_sealed

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
                    self.problems = legacy.import_files(conn, self.root, add_saved)
                except (sqlite3.Error, OSError) as exc:
                    conn.close()
                    raise SaveError(
                        f"cannot import the old saves into {self.path}: {exc}"
                    ) from None
            if league.pending(conn):
                try:
                    league.backfill(conn, self.path)
                except sqlite3.Error as exc:
                    conn.close()
                    raise SaveError(f"cannot rate the saved games in {self.path}: {exc}") from None
            self._conn = conn
        return self._conn

    def check(self) -> None:
        """Open the database now and check every page of it (SQLite's quick_check);
        raises SaveError, naming it and why. A host calls it once, at its start."""

        def quick_check(conn: sqlite3.Connection) -> None:
            found = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
            if found != ["ok"]:
                raise db.refusal(self.path, "; ".join(map(str, found)))

        self._commits.read(quick_check)

    def close(self) -> None:
        """Commit what is queued (waiting for the writer thread), stop that thread and
        close the database."""
        try:
            self._commits.settle()
        finally:
            self._commits.stop()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _stage(self, name: str) -> None:
        """Called between the steps of a commit; a no-op (the crash tests override it).
        The steps of the statements run on the writer thread, "committed" on the loop."""

    # -- the group commit (net.saves.writer) -----------------------------------------

    @property
    def saves(self) -> int:
        """Changes committed (figures for the benchmarks and tests)."""
        return self._commits.saves

    @property
    def groups(self) -> int:
        """Transactions: each group commit holds a tick's changes."""
        return self._commits.groups

    @property
    def pending(self) -> bool:
        """Whether changes wait for their commit (queued, or with the writer thread)."""
        return self._commits.pending

    def schedule(self) -> None:
        """Hand what is queued to the writer thread on the running loop's next turn, or
        commit it now without a running loop (``GroupCommit.schedule``)."""
        self._commits.schedule()

    def flush(self) -> None:
        """Commit every queued change now, on this thread, in one transaction; raises
        the commit's error (``GroupCommit.flush``)."""
        self._commits.flush()

    async def wait_committed(self) -> None:
        """Until every change queued so far is committed (or has failed) and the
        listeners are told (the host then has sent the bytes it held for them)."""
        await self._commits.wait_committed()

    # -- saving (net.saves.mapping) --------------------------------------------------

    def adopt(self, table: Table, save: Saved) -> None:
        """Continue saving a restored table into the save it came from."""
        self._records.adopt(table, save)

    def touched(self, table: Table, now: float) -> None:
        """Queue ``table``'s change, if it changed since its last save, for this tick's
        group commit; the table calls this before it sends anyone the views of a
        change, and the host holds every byte it sends until the commit (``flush``).
        Never raises: a failed save is reported once and logged, and the game goes on.

        A game in play that nobody is at (bots playing alone) saves later, its changes
        coalesced (``GroupCommit.later``): nobody waits to see them."""
        if not table.members and self._records.in_play(table):
            self._commits.later(table, lambda: self._touched(table, now))
            return
        self._commits.drop_later(table)  # this change covers every move since the last
        self._touched(table, now)

    @property
    def deferred(self) -> int:
        """Tables of bots alone whose change waits to be built (figures and tests)."""
        return self._commits.deferred

    def _touched(self, table: Table, now: float) -> None:
        try:
            if table.driver is not None and table.seed is not None:
                if self._records.touched_game(table, now, self.lobbies):
                    return
            if self.lobbies:
                self._records.touched_lobby(table, now)
        except Exception as exc:  # a full disk, a damaged database: the game goes on
            self._failure(table, exc)

    def _failure(self, table: Table | None, exc: BaseException) -> None:
        name = "the tables" if table is None else repr(table.name)
        log.error("cannot save %s", name, exc_info=exc)
        if not self._failed:
            self._failed = True
            self.report(f"cannot save {name}: {exc}; the game goes on unsaved")

    def closed(self, table: Table) -> None:
        """The host closed cleanly and told everyone: a table outside a game has
        nothing to resume, so its lobby save goes (a game in play stays saved)."""
        self._commits.catch_up(table)
        self._records.closed(table)

    def live_save(self, table: Table) -> str | None:
        """The id of the save of ``table``'s current game, while it is unfinished."""
        self._commits.catch_up(table)  # its waiting moves are the save's first
        return self._records.live_save(table)

    def close_table(self, table: Table, *, keep: bool) -> str | None:
        """The table's game ends half-way (its player left): ``keep`` keeps it as
        abandoned, for replays; otherwise its save is deleted (nothing to keep, e.g. a
        game nobody moved in). Returns the kept game's id, if any."""
        ident = self.live_save(table)
        if ident is None:
            return None
        self._records.forget_game(table)
        if keep:
            return self.abandon(ident)
        self.delete(ident)
        return None

    # -- reading (net.saves.queries) -------------------------------------------------

    def unfinished(self) -> list[str]:
        """The ids of this store's saves to resume (games in play, tables outside a
        game), oldest first."""
        return self._queries.unfinished()

    def load(self, ident: str) -> Saved:
        """A save of the database with every move; raises SaveError (the id unknown,
        or its rows damaged), changing nothing."""
        return self._queries.load(ident)

    def find(self, prefix: str) -> list[str]:
        """The ids of every save that start with ``prefix`` (any kind)."""
        return self._queries.find(prefix)

    def kept(self, limit: int = 300,
             statuses: Iterable[str] = ("finished", "abandoned")) -> list[Kept]:
        """The saves of every kind whose status is one of ``statuses`` (of
        ``net.saves.queries.KEPT_STATUSES``; by default the finished and abandoned
        games, which the Replays list shows), newest first."""
        return self._queries.kept(limit, statuses)

    def abandon(self, save: Saved | str) -> str:
        """Keep an unfinished save only as an abandoned game (for replays); a lobby
        save, which holds no game, is deleted. Returns its id."""
        return self._queries.abandon(save)

    def delete(self, ident: str) -> None:
        """Delete a game for good: its save, moves and stats."""
        self._queries.delete(ident)

    def stats(self, name: str | None = None, *, bots: bool = False) -> list[PlayerStats]:
        """Every player's figures per game, or one player's (``net.saves.stats``)."""
        return self._queries.stats(name, bots=bots)

    # -- the league (net.league) -----------------------------------------------------

    def on_rated(self, listener: Any) -> None:
        """Call ``listener(table, game, changes)`` on the loop once a rated game's end
        is committed (``net.league.ledger.Change`` by rated seat)."""
        self._records.on_rated = listener

    def pin(self, who: str, key: str, wall: float) -> None:
        """Pin ``key`` to the name ``who`` (``net.identity.Pins``), in the next commit."""
        self._commits.queue(lambda conn: conn.execute(
            "INSERT OR IGNORE INTO identities (who, key, pinned_wall) VALUES (?, ?, ?)",
            (who, key, wall)))  # fmt: skip

    def league(self, read: Any) -> Any:
        """``read(conn)`` on the database once what is queued is committed: the
        league's queries (``net.league.standings``)."""
        return self._commits.read(read)

    def league_change(self, change: Any) -> Any:
        """``change(conn)`` in a transaction of its own (a season, a rebuild); returns
        what it returns."""
        result: list[Any] = []
        self._commits.commit(lambda conn: result.append(change(conn)))
        return result[0] if result else None


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
    if store is None:
        store = Store.default("tables")
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
