"""The group commit: the changes a store queues, committed a loop turn at a time by a
writer thread (:class:`GroupCommit`; the store, ``net.saves.store``, holds one).

The store queues each change of a table (:meth:`GroupCommit.queue`; what a change
writes is built by ``net.saves.mapping``). Once a loop turn (``loop.call_soon``) the
changes queued so far, of every table, go as one batch to the store's writer thread
(:class:`_Writer`), which commits them in one transaction (a group commit) while the
loop goes on: SQLite releases the GIL while it works. One batch is in flight at a
time; the changes queued meanwhile form the next, handed over when the first lands
back on the loop (``call_soon_threadsafe``). Until a change's batch has landed the
host holds every byte its peers send after it, and writes them in order once the
store tells it (:meth:`GroupCommit.on_sealed` marks which bytes a batch covers,
:meth:`GroupCommit.on_flushed` says it landed), so no view of a change reaches a
socket before the change is committed. Without a running loop a change is committed at
once; reads and direct commits wait for the batch in flight and commit what is queued
first, so only one thread at a time uses the connection. A commit is a write to
SQLite's log without fsync (``net.saves.db``), and it survives a killed process the
moment it returns.

A table nobody is at (bots playing alone, as on a busy ``serve``) may save ``later``
instead (:meth:`GroupCommit.later`): its changes coalesce into one, built when a batch
next goes and only up to ``LATER_BUDGET`` of building a batch (the tables waiting
longest first), so a thousand bots' tables cost a bounded batch, and the memory of one
change each, however fast they move; the people's tables' changes never wait behind
theirs for more than that. Nobody sees such a change before it is committed: the moment
anyone asks whether the table waits for a commit (``unsaved``: someone sits down or
watches), and before every read and direct commit, its change is queued at once.

A failed commit (a full disk, a damaged database) is reported once and logged; the
records of its changes are put back, so the table's next commit carries its moves,
and the game goes on.
"""

from __future__ import annotations

import asyncio
import atexit
import queue
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.saves import db

WRITER_IDLE = 30.0  # seconds without a batch before the writer thread ends
# seconds of building the deferred changes (``later``) that one batch takes at most
LATER_BUDGET = 0.005

Work = Callable[[sqlite3.Connection], Any]


@dataclass
class _Change:
    """One queued change of a tick's group commit (``GroupCommit.flush``)."""

    work: Work
    moves: int
    done: Callable[[], None] | None
    undo: list[tuple[Any, dict[str, Any]]]
    table: int = 0  # id() of the table it saves (0: none)


class GroupCommit:
    """A store's queue of changes and the writer thread that commits them (see the
    module docstring). ``connect()`` is the store's open database (it may raise:
    reported as a failed commit); ``stage(name)`` is called between the steps of a
    commit (``Store._stage``); ``failure(exc)`` reports a failed commit; ``path``
    is the database's file (its checkpoints, its refusals)."""

    def __init__(
        self,
        path: Path,
        connect: Callable[[], sqlite3.Connection],
        stage: Callable[[str], None],
        failure: Callable[[BaseException], None],
    ) -> None:
        self.path = path
        self._connect = connect
        self._stage = stage
        self._failure = failure
        self._pending: list[_Change] = []  # this tick's changes, committed by flush
        # the tables that save later (``later``): by id(table), what queues its change,
        # in the order they first waited (the longest waiting go first)
        self._later: dict[int, Callable[[], None]] = {}
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

    def stop(self) -> None:
        """Stop the writer thread, if any, once its batch is done (the next batch
        starts another)."""
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.stop()

    @property
    def pending(self) -> bool:
        """Whether changes wait for their commit (queued, or with the writer thread)."""
        return bool(self._pending) or self._inflight is not None

    @property
    def deferred(self) -> int:
        """Tables whose change waits to be built (``later``): figures and tests."""
        return len(self._later)

    def unsaved(self, table: Any) -> bool:
        """Whether a change of ``table`` waits for its commit: until then nobody at that
        table may be sent its views (the host holds their bytes). The other tables'
        players are not held up by it. A change the table deferred (``later``) is
        queued now: someone is about to see it."""
        if id(table) in self._later:
            self.catch_up(table)
        return id(table) in self._unsaved

    def later(self, table: Any, build: Callable[[], None]) -> None:
        """``table``, which nobody is at, changed: ``build()`` queues its change (of
        every move since its last) when a batch next has room for it (see the module
        docstring). A later call replaces the earlier ``build``; the table keeps its
        place in the line."""
        self._later[id(table)] = build
        self.schedule()

    def drop_later(self, table: Any) -> None:
        """Forget ``table``'s deferred change: a change queued now covers its moves."""
        self._later.pop(id(table), None)

    def catch_up(self, table: Any = None) -> None:
        """Queue now the deferred change of ``table`` (of every table, with None)."""
        if table is None:
            builds, self._later = list(self._later.values()), {}
        else:
            build = self._later.pop(id(table), None)
            builds = [] if build is None else [build]
        for build in builds:
            build()

    def _feed(self) -> None:
        """The deferred changes into the next batch, the longest waiting first, until
        ``LATER_BUDGET`` of building them is spent (one at least)."""
        later = self._later
        stop = time.perf_counter() + LATER_BUDGET
        while later:
            build = later.pop(next(iter(later)))
            build()
            if time.perf_counter() >= stop:
                break

    def on_flushed(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after each group commit, committed or failed (the host
        then releases the bytes it held for it: those held before its ``on_sealed``,
        or every byte once nothing is pending)."""
        self._listeners.append(listener)

    def on_sealed(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` when the changes queued so far go to a commit: the bytes
        held until then wait for that commit, later ones for a later commit."""
        self._sealers.append(listener)

    def queue(self, work: Work, moves: int = 0, done: Callable[[], None] | None = None,
              undo: Iterable[Any] = (), table: Any = None) -> None:  # fmt: skip
        """Add a change (of ``table``, if it saves one) to the next group commit.
        ``done()`` runs once it is committed. ``undo`` puts back the records (a table's
        ``_Game``, ``_Lobby``: ``net.saves.mapping``) the change already moved on, if the
        commit fails: each a pair of the record and its fields before the change.
        Without a running loop (a table driven by plain calls) the change is committed
        at once."""
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
        if not self._pending and not self._later:
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
        self._feed()
        if not self._pending:
            return
        loop = _running_loop()
        if loop is None:
            self.settle()
            return
        changes, self._pending = self._pending, []
        try:
            conn = self._connect()  # opened here: a damaged database is reported on the loop
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
        if (self._pending or self._later) and self._scheduled is not batch.loop:
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
        self._failure(exc)

    def settle(self) -> None:
        """Everything queued so far committed (or reported failed) before this returns:
        what a reader must see, what a direct commit comes after."""
        self.catch_up()
        self._drain()
        if self._pending:
            try:
                self.flush()
            except Exception as exc:  # reported once; the game goes on unsaved
                self._failure(exc)

    def flush(self) -> None:
        """Commit every queued change now, on this thread, in one transaction (after
        the batch the writer thread holds, if any), then tell the listeners. Raises
        the commit's error (the changes are then put back as they were before them, to
        be saved with the table's next change)."""
        self.catch_up()
        self._drain()
        changes, self._pending = self._pending, []
        if not changes:
            return
        self._seal()
        try:
            _write(self._stage, self._connect(), changes)
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
        self.catch_up()
        while self.pending:
            batch = self._inflight
            if batch is not None and batch.loop is not _running_loop():
                self._drain()  # sent by a loop that went away
                continue
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter

    def commit(self, work: Work, moves: int = 0) -> None:
        """Run ``work(conn)`` in one transaction and commit it now, after the changes
        queued before it (their failure is theirs: reported, not raised here)."""
        self.settle()
        self.queue(work, moves)
        self.flush()

    def read(self, query):
        """``query(conn)``'s statements, all on one snapshot of the database: a host
        (another process, say) may commit between two of them, and a save read half
        before and half after its commit looked damaged."""
        self.settle()  # what was queued is what a reader must see
        try:
            conn = self._connect()
            if conn.in_transaction:
                return query(conn)
            conn.execute("BEGIN")
            try:
                return query(conn)
            finally:
                conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise db.refusal(self.path, exc) from None


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


def _write(stage: Callable[[str], None], conn: sqlite3.Connection,
           changes: list[_Change]) -> None:  # fmt: skip
    """``changes``' statements in one transaction, committed; raises (rolled back)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for change in changes:
            change.work(conn)
            stage("moves written" if change.moves else "written")
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
    is in flight (``GroupCommit._drain``). The thread ends when idle for
    ``WRITER_IDLE`` seconds (a store is rarely closed) and the next batch starts
    another."""

    def __init__(self, commits: GroupCommit) -> None:
        self._commits = commits
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
        commits = self._commits
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
                _write(commits._stage, conn, batch.changes)
            except BaseException as exc:  # the loop reports it and puts the records back
                batch.error = exc
            batch.land()
            try:
                batch.loop.call_soon_threadsafe(commits._landed, batch)
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
