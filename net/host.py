"""The asyncio host: a thin shell around the sans-I/O protocol and tables.

One :class:`Host` serves several tables over TCP (``asyncio.start_server``) and over
the in-process transport (``open_local``), through the same code path: bytes in,
``net.protocol.Connection``, ``net.table.Tables``/``Table``, messages out, bytes out.
The clock is injected (``net.clock``), so tests run the host on a fake clock.

Per connection the shell enforces what the tables cannot see: the hello time-out, the
budgets of connections by stage and address (``net.budgets``: before hello, spectating,
seated; a seat holder is never refused for capacity), a rate limit, and a bounded
outgoing queue (a client that falls too far behind is dropped and goes down the
reconnect path; it never stalls a table).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from net import budgets as b
from net import protocol as p
from net.clock import Clock, Handle, RealClock
from net.league.live import Desk
from net.peer import Peer
from net.pipe import PipeWriter
from net.protocol import Code
from net.table import Settings, Table, Tables
from net.table.phase import Phase
from net.text import name_problem

if TYPE_CHECKING:
    from net.saves import Saved, Store

log = logging.getLogger(__name__)


def _too_many_waiting(peer: Peer, why: str) -> None:
    peer.refuse(Code.SERVER_FULL, "The host is busy: too many connections are waiting to "
                "say hello. Say hello at once, or try later.")


@dataclass
class HostConfig:
    """Limits of the host (see docs/PROTOCOL.md, "Time-outs and limits")."""

    max_line: int = p.DEFAULT_MAX_LINE
    hello_timeout: float = 10.0
    # the connection budgets (net.budgets); None: the process's shared ledger's, or
    # the defaults. ``max_connections`` (benches) sets every stranger cap to it.
    budgets: b.Budgets | None = None
    max_connections: int | None = None
    rate: float = 20.0  # messages per second, sustained
    burst: float = 40.0  # messages at once
    # a spectator only chats (one line a few seconds reaches the table) and leaves: its
    # flood is turned away before the table spends anything on it
    spectator_rate: float = 2.0
    spectator_burst: float = 10.0
    max_queue_bytes: int = 1 << 20  # unsent bytes before a client is dropped
    sndbuf: int | None = None  # the kernel's send buffer per TCP connection (None: OS)
    read_size: int = 65536
    # log entries a table keeps in memory when nothing saves them (no store); None
    # keeps the whole game. With a store, the store decides (net.saves).
    log_keep: int | None = 64
    # seconds of timer work for tables nobody is at (bots alone) per turn of the event
    # loop; the rest waits for the next turn, after the people's input (``Turns``)
    bots_per_turn: float = 0.005


class Turns:
    """People first when the loop is busy: the timer work of tables with nobody at
    them (bots playing alone, as on a busy ``serve``) is capped per turn of the event
    loop. Such a table's timer waits in a queue (``waiting``, first come first served)
    that one callback a turn drains up to the budget, after that turn's socket reads and
    the tasks they woke (``after_io``), so a person's move waits for at most one budget
    of bots' work, not for every bot due. The queue costs
    one callback a turn however long it is (re-queueing every waiting timer each turn
    made a backlog cost more than the work it held back).

    A turn ends when the callback ``charge`` schedules on first use runs: it was queued
    before the drain of the same turn, so it resets the budget at the start of the
    next. ``meter`` is the clock of work done (``time.perf_counter``; a test's own)."""

    def __init__(self, budget: float, meter: Callable[[], float],
                 call_soon: Callable[..., Any],
                 after_io: Callable[..., Any] | None = None) -> None:  # fmt: skip
        self.budget = budget
        self.meter = meter
        self.call_soon = call_soon
        #: schedules the drain after what the next turn's sockets bring: the host's
        #: is a timer due now that hands the drain to ``call_soon`` (asyncio runs a
        #: turn's socket callbacks before its due timers, and the tasks those woke
        #: before anything scheduled after them), so a person's bytes that came in
        #: meanwhile are read, and their message handled, before the bots' backlog
        self.after_io = after_io or call_soon
        self.spent = 0.0
        self._armed = False
        self.waiting: deque[_Waiting] = deque()
        self._draining = False
        self.deferred = 0  # timers that waited for a later turn (figures and tests)

    def full(self) -> bool:
        return self.spent >= self.budget

    def charge(self, seconds: float) -> None:
        self.spent += seconds
        if not self._armed:
            self._armed = True
            self.call_soon(self._next_turn)

    def _next_turn(self) -> None:
        self.spent, self._armed = 0.0, False

    def later(self, run: Callable[..., None], *args: Any) -> _Waiting | None:
        """``run(*args)`` in the queue (a handle whose ``cancel`` takes it out), or at once
        (None) when there is no cap: a test's clock, where time moves only when told."""
        if self.budget == math.inf:
            run(*args)
            return None
        return self.wait(run, *args)

    def wait(self, run: Callable[..., None], *args: Any) -> _Waiting:
        """Queue ``run(*args)`` for a later turn; the handle's ``cancel`` takes it out."""
        entry = _Waiting(run, args)
        self.waiting.append(entry)
        self.deferred += 1
        self._drain_soon()
        return entry

    def _drain_soon(self) -> None:
        if not self._draining:
            self._draining = True
            self.after_io(self._drain)

    def _drain(self) -> None:
        self._draining = False
        waiting = self.waiting
        while waiting and not self.full():
            entry = waiting.popleft()
            if not entry.cancelled:
                entry.run(*entry.args)
        if waiting:
            self._drain_soon()


class _Waiting:
    __slots__ = ("args", "cancelled", "run")

    def __init__(self, run: Callable[..., None], args: tuple[Any, ...] = ()) -> None:
        self.run = run
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Host:
    """Serves tables; see the module docstring."""

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        config: HostConfig | None = None,
        report: Callable[[str], None] | None = None,
        store: Store | None = None,
        ledger: b.Ledger | None = None,
    ) -> None:
        self._clock = clock
        #: where every table is saved after every change (net.saves), or None
        self.store = store
        self.config = config or HostConfig()
        #: connections by stage and address; shared with the doors under ``serve``
        self.ledger = ledger or b.Ledger(_budgets(self.config))
        self.report = report or (lambda text: None)
        self.tables = Tables()
        self._peers: set[Peer] = set()
        self._timers: dict[Table, tuple[float, Handle]] = {}
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._closing = False
        # the last message encoded, so one State sent to many spectators is encoded once
        self._last: tuple[Any, bytes] | None = None
        # peers holding bytes until the store's commit (``Peer.send``), and how many
        # messages each held when the store sealed the batch in flight (``_seal``)
        self._held: list[Peer] = []
        self._sealed: list[tuple[Peer, int]] = []
        if store is not None:
            store.on_sealed(self._seal)
            store.on_flushed(self._release)
        self._table_listeners: list[Callable[[Table], None]] = []
        self.league = Desk(self)  # identities (protocol 4) and ``rated`` (net.league)
        self._removed_listeners: list[Callable[[Table], None]] = []
        self._turns: Turns | None = None

    @property
    def turns(self) -> Turns:
        """The cap of bots' timer work per turn of the loop (see :class:`Turns`). On a
        clock that is not the real one (a test's) time only moves when told, and no
        turn is ever too full: the cap is off (a test sets its own ``Turns``)."""
        if self._turns is None:
            budget = self.config.bots_per_turn if isinstance(self.clock, RealClock) else math.inf
            loop = asyncio.get_running_loop()
            self._turns = Turns(budget, time.perf_counter, loop.call_soon,
                                lambda run: loop.call_at(loop.time(), loop.call_soon, run))
        return self._turns

    @property
    def clock(self) -> Clock:
        if self._clock is None:
            self._clock = RealClock()
        return self._clock

    def create_table(
        self, name: str, game: str, *, bots: int = 0, difficulty: str | None = None, **settings
    ) -> Table:
        """Open a table (host API: the CLI and local play use it); ``settings`` are the
        fields of ``net.table.Settings`` (``seats``, ``seed``, ``hotseat``, ...) and the
        game's own settings, by name (``GameSpec.settings``)."""
        if difficulty is not None:
            settings["difficulty"] = difficulty
        base = Settings.build(game, **settings)  # raises UnknownGame, a ValueError
        table = self.tables.add(Table(name, game, base, report=self.report))
        self._watch(table)
        for _ in range(bots):
            table.add_bot()
        return table

    def restore(self, saved: Saved) -> Table:
        """Add a saved table (``net.saves.Saved``): an unfinished game, replayed and
        checked, or a table outside a game (lobby, between games); every person away
        until they come back with their token. Raises ``net.saves.SaveError``.
        Start the host's clock at ``net.saves.resume_time``."""
        from net.saves import SaveError

        table = saved.restore(self.clock.now(), report=self.report)
        try:
            self.tables.adopt(table)
        except ValueError as exc:  # a table of that name is here already
            raise SaveError(f"{saved.path or 'the save'}: {exc}") from None
        self._watch(table)
        if self.store is not None:
            self.store.adopt(table, saved)
        if saved.status == "lobby":
            where = "between games" if table.phase == Phase.OVER else "in the lobby"
            self.report(f"{table.name}: restored {where}; the players come back with "
                        "their tokens")  # fmt: skip
        else:
            self.report(f"{table.name}: restored after {table.moves} moves; the players "
                        "come back with their tokens")  # fmt: skip
        self.touched(table)
        return table

    def remove_table(self, table: Table, reason: str = "closed") -> bool:
        """Take away a table nobody holds (no member: nobody seated, away or watching);
        False, and nothing done, if someone is still there."""
        if table.members or self.tables.tables.get(table.name) is not table:
            return False
        del self.tables.tables[table.name]
        current = self._timers.pop(table, None)
        if current is not None:
            current[1].cancel()
        table.close(reason)
        if self.store is not None:
            self.store.closed(table)
        for listener in self._removed_listeners:
            listener(table)
        return True

    def on_table_removed(self, listener: Callable[[Table], None]) -> None:
        """Call ``listener(table)`` after a table is taken away (``remove_table``)."""
        self._removed_listeners.append(listener)

    def on_table_update(self, listener: Callable[[Table], None]) -> None:
        """Call ``listener(table)`` after every change of any table's public info."""
        self._table_listeners.append(listener)

    def _table_updated(self, table: Table) -> None:
        for listener in self._table_listeners:
            try:
                listener(table)
            except Exception:  # a listener's bug must not take a table down
                log.exception("a table listener failed")

    def _watch(self, table: Table) -> None:
        table.chat = self.ledger.budgets
        table.max_spectators = self.ledger.budgets.spectators_per_table
        table.on_update = self._table_updated
        if self.store is not None:
            table.on_change = self.store.touched
        else:
            table.log_limit = self.config.log_keep

    def start_game(self, table: Table) -> None:
        """Start a table's game now (e.g. a table of bots); raises net.table.Refusal."""
        table.start(self.clock.now())
        self.touched(table)

    # -- serving -----------------------------------------------------------------------

    async def start(
        self, bind: str | None = "127.0.0.1", port: int = 0, *, sock: socket.socket | None = None
    ) -> None:
        """Listen on TCP; ``bind=None`` listens on every interface; ``sock``: on a
        listening socket made by the caller (in another network namespace, say)."""
        self.clock  # noqa: B018 - bind the real clock to the running loop now
        name_problem("warm")  # the confusables' tables load once, before anyone joins
        if sock is not None:
            self._server = await asyncio.start_server(self.serve, sock=sock, limit=1 << 16)
        else:
            self._server = await asyncio.start_server(self.serve, bind, port, limit=1 << 16)

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        return self._server.sockets[0].getsockname()[1]

    @property
    def sockets(self) -> list[tuple[str, int]]:
        assert self._server is not None, "start() first"
        return [s.getsockname()[:2] for s in self._server.sockets]

    def open_local(self) -> tuple[asyncio.StreamReader, PipeWriter]:
        """An in-process connection: returns the client's (reader, writer); the host
        serves the other end exactly as it serves a TCP connection."""
        to_host, to_client = asyncio.StreamReader(), asyncio.StreamReader()
        task = asyncio.get_running_loop().create_task(
            self.serve(to_host, PipeWriter(to_client, "in-process"))
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return to_client, PipeWriter(to_host, "in-process")

    async def serve(self, reader: asyncio.StreamReader, writer: Any) -> None:
        """Serve one connection until it closes (TCP or in-process)."""
        peer = Peer(self, reader, writer)
        if self._closing:
            peer.send(p.Error(code=Code.SERVER_FULL, message="The host is closing."))
            peer.close_after_flush()
            await peer.run_writer()
            return
        peername = writer.get_extra_info("peername")
        peer.address = str(peername[0]) if isinstance(peername, tuple) else ""
        if peer.address:  # in-process connections hold no descriptor: not counted
            why = self.ledger.arrive(peer, _too_many_waiting)
            if why is not None:  # a loop opening sockets: turned away at once
                peer.send(p.Error(code=Code.SERVER_FULL, message=why))
                peer.close_after_flush()
                await peer.run_writer()
                return
        self._peers.add(peer)
        sock = writer.get_extra_info("socket")
        if sock is not None and self.config.sndbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.sndbuf)
        try:
            await peer.run()
        except asyncio.CancelledError:
            # the loop is shutting down; a handler must not end cancelled, or asyncio's
            # stream callback logs a spurious error
            peer.abort()
        finally:
            self._peers.discard(peer)
            peer.settle(None)

    async def close(self, reason: str = "shutdown") -> None:
        """Say ``bye`` to every client, stop listening and close every connection."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        for table in self.tables.tables.values():
            # a game the saves keep comes back with --resume: its people wait for it
            kept = self.store is not None and table.phase == Phase.PLAYING
            table.close(p.SUSPENDED if kept and reason == "shutdown" else reason)
            if self.store is not None:
                self.store.closed(table)
        for peer in list(self._peers):
            if peer.member is None:
                peer.send(p.Bye(reason=reason))
            peer.close_after_flush()
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self.league.board.close()
        if self._peers:
            await asyncio.wait([peer.task for peer in self._peers if peer.task], timeout=2.0)
        for peer in list(self._peers):
            peer.abort()
        if self._server is not None:
            await self._server.wait_closed()

    # -- tables and their timers -----------------------------------------------------

    def touched(self, table: Table) -> None:
        """Save the table if it changed, and re-arm its timer."""
        if self.store is not None:
            self.store.touched(table, self.clock.now())
        when = table.next_wakeup()
        current = self._timers.get(table)
        if current is not None:
            if current[0] == when:
                return
            current[1].cancel()
            del self._timers[table]
        if when is None or self._closing:
            return
        # the arguments, not a closure: a busy host arms a timer per change, and a
        # closure's cells are young objects for the collector to walk (BENCHMARKS)
        handle = self.clock.call_at(when, self._fire, table, when)
        self._timers[table] = (when, handle)

    def _fire(self, table: Table, when: float) -> None:
        self._timers.pop(table, None)
        if table.members:
            self._run(table, when)
            return
        # bots playing with nobody there: with the cap on, every such timer waits in the
        # queue, drained after the people's bytes of the turn (``Turns.after_io``), in
        # order (a timer run here would come before the messages those bytes carry)
        entry = self.turns.later(self._run_alone, table, when)
        if entry is not None:
            self._timers[table] = (when, entry)

    def _run_alone(self, table: Table, when: float) -> None:
        # its waiting entry, if it waited (an entry replaced by a new timer was cancelled
        # and never runs)
        self._timers.pop(table, None)
        turns = self.turns
        started = turns.meter()
        self._run(table, when)
        turns.charge(turns.meter() - started)

    def _run(self, table: Table, when: float) -> None:
        # a loop may run a callback a hair early; the table must see its own time
        try:
            table.tick(max(self.clock.now(), when))
        except Exception:  # a bug in a game must not take the host down
            log.exception("table %s failed in tick", table.name)
        self.touched(table)

    def hold(self, peer: Peer) -> None:
        """``peer`` holds bytes until the store's commit of this tick."""
        self._held.append(peer)
        if self.store is not None:
            self.store.schedule()  # (it is, unless its loop went away)

    def _seal(self) -> None:
        """The store sends the changes queued so far to a commit: the bytes held now
        are theirs (or older), and go out when it lands; later bytes wait for the
        commit of the changes queued after (the writer thread's next batch)."""
        self._sealed = [(peer, len(peer.held)) for peer in self._held]

    def _release(self) -> None:
        """The store committed (or failed to): the bytes held for that commit go out,
        in order; all a peer holds once its table waits for no commit, and every held
        byte once nothing else waits for a commit."""
        store = self.store
        if store is not None and store.pending:
            sealed, self._sealed = self._sealed, []
            counts = dict(sealed)
            for peer in self._held:
                if not peer.waiting():
                    peer.release()
                elif peer in counts:
                    peer.release(counts[peer])
            self._held = [peer for peer in self._held if peer.held]
            return
        peers, self._held, self._sealed = self._held, [], []
        for peer in peers:
            peer.release()

    def encode(self, message: Any) -> bytes:
        last = self._last
        if last is not None and last[0] is message:
            return last[1]
        data = p.encode(message, max_line=self.config.max_line)
        self._last = (message, data)
        return data


def _budgets(config: HostConfig) -> b.Budgets:
    budgets = dataclasses.replace(config.budgets or b.Budgets())
    if config.max_connections is not None:
        cap = config.max_connections
        budgets = b.Budgets(**{**budgets.__dict__, "pending": cap, "pending_per_address": cap,
                               "spectating": cap, "spectating_per_address": cap,
                               "spectators_per_table": cap, "connect_burst": cap})
    budgets.hello_timeout = config.hello_timeout
    return budgets
