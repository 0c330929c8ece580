"""One connection to the host: its reader loop, the hello time-out, the rate limit,
and a bounded outgoing queue with its writer task. A client that falls too far behind
is dropped and goes down the reconnect path; it never stalls a table. While the host's
saves store has changes of its table to commit, a connection holds what it sends
(``Peer.held``) and writes it, in order and in one write, once they are committed
(``release``). The host (``net.host.Host``) makes one per TCP or in-process
connection."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from net import budgets as b
from net import latency, tcpinfo
from net import protocol as p
from net.protocol import Code
from net.table import Member, Refusal, Table
from net.table.phase import Phase

if TYPE_CHECKING:
    pass

log = logging.getLogger("net.host")

ALL = "every commit"  # what a peer at no table holds its bytes for (``Peer.held_for``)

# bytes in a transport's buffer above which asyncio pauses writing (its default)
HIGH_WATER = 64 * 1024


class Peer:
    """One connection: reader loop, bounded outgoing queue, writer task."""

    def __init__(self, host: Any, reader: asyncio.StreamReader, writer: Any) -> None:
        self.host = host
        self.reader = reader
        self.writer = writer
        self.conn = p.Connection(p.HOST, max_line=host.config.max_line)
        self.member: Member | None = None
        self.queue: deque[bytes] = deque()
        self.queued = 0
        # bytes sent while the store has changes of this peer's table to commit (and
        # any sent after them): they reach the transport, in order and in one write,
        # once that commit is done (``release``), so nobody sees a change that is not
        # committed
        self.held: list[bytes] = []
        self.held_for: set[Any] = set()  # the tables (or ALL) the held bytes wait for
        # the transport's own methods when there is one (TCP): StreamWriter's
        # ``write`` and ``is_closing`` only forward to them, a call each per message
        self._transport = getattr(writer, "transport", None)
        self.wake = asyncio.Event()
        self.closing = False
        self.closed = False
        self.task: asyncio.Task | None = None
        self.reading = False
        self.blocked = False  # the writer waits for the peer to read
        self.tokens = host.config.burst
        #: protocol 4: (hello, nonce) while a challenge waits for its prove; the key
        #: a prove checked (``net.league.live``)
        self.challenge: Any = None
        self.key: str | None = None
        self.refilled = host.clock.now()
        self.limited_until = -1.0
        self.over = False  # messages were dropped over the rate since the last read
        self.address = ""  # the source address ("" in-process: never counted)
        self.stage: str | None = None  # its stage in the host's ledger (net.budgets)
        # lag-fair races: this connection's round trips (protocol 2 clients only);
        # a served app's link is measured by its door instead (``net.served``)
        self.meter = latency.DelayMeter()
        self.link_meter: latency.DelayMeter | None = None
        self._probe_timer: Any = None

    def settle(self, stage: str | None) -> bool:
        """Move to ``stage`` in the host's ledger (None: gone); False if refused."""
        if not self.address:
            return True
        return self.host.ledger.settle(
            self, stage, lambda victim, why: victim.refuse(Code.SERVER_FULL, why))

    def refuse(self, code: str, message: str) -> None:
        """Tell the peer why, then close (a stranger the budgets have no room for)."""
        self.send(p.Error(code=code, message=message))
        self.close_after_flush()

    # -- output --

    def send(self, message: Any) -> None:
        if self.closing or self.closed or message.since > self.conn.version:
            return  # (a message of a later protocol than the peer's: it could not read it)
        host = self.host
        try:
            data = host.encode(message)
        except p.LocalProtocolError:
            log.exception("cannot send %r", message)
            return
        wait = self._waits_for()
        if wait is not None or self.held:
            if not self.held:
                host.hold(self)
            self.held.append(data)
            if wait is not None:
                self.held_for.add(wait)
            return
        self._write(data)

    def _waits_for(self) -> Any:
        """What a message sent now must wait for: its table, while a change of that
        table waits for its commit; every commit (``ALL``), while any waits, for a peer
        at no table (a hello's welcome is sent before the peer knows its table); None
        if nothing. Other tables' commits do not hold a player up."""
        store = self.host.store
        if store is None:
            return None
        member = self.member
        table = member.table if member is not None else None
        if table is None:
            return ALL if store.pending else None
        return table if store.unsaved(table) else None

    def waiting(self) -> bool:
        """Whether what this peer holds still waits for a commit (``held_for``)."""
        store = self.host.store
        if store is None:
            return False
        return any(store.pending if wait is ALL else store.unsaved(wait)
                   for wait in self.held_for)  # fmt: skip

    def release(self, count: int | None = None) -> None:
        """A commit is done: write what was held for it (the first ``count`` messages
        held; all by default), in one write."""
        held = self.held
        if not held or count == 0:
            return
        if count is None or count >= len(held):
            data = b"".join(held) if len(held) > 1 else held[0]
            held.clear()
            self.held_for.clear()
        else:
            data = b"".join(held[:count])
            del held[:count]
        if not self.closed:
            self._write(data)
            if self.closing:  # its writer waited for these to close
                self.wake.set()

    def _write(self, data: bytes) -> None:
        transport = self._transport
        if (self.writer if transport is None else transport).is_closing():
            # the peer has closed (or is gone): writing would only make asyncio log
            # "socket.send() raised exception". Its last messages may still wait in
            # the reader (a leave, say), which then ends the connection in order.
            return
        if not self.queue and not self.blocked:
            # the common case: the transport takes the bytes now, without waking the
            # writer task (a task switch per message is most of a message's cost)
            try:
                (self.writer if transport is None else transport).write(data)
            except (ConnectionError, OSError, RuntimeError):
                self.drop("write failed")
                return
            if transport is not None and transport.get_write_buffer_size() > HIGH_WATER:
                self.blocked = True  # the peer is not reading: queue from now on
                self.wake.set()
            return
        if self.blocked and self.queued + len(data) > self.host.config.max_queue_bytes:
            # too far behind (the socket is full and the queue too): drop it, and it
            # reconnects, rather than hold up its table.
            self.drop("too_slow")
            return
        self.queue.append(data)
        self.queued += len(data)
        self.wake.set()

    def close_after_flush(self) -> None:
        """Stop reading, send what is queued, then close."""
        self.closing = True  # (bytes held for a commit go first: ``release``)
        self.wake.set()

    def drop(self, reason: str) -> None:
        log.info("dropping a connection: %s", reason)
        # called from inside a table's broadcast: tell the table on the next turn
        self.abort(defer=True)

    def abort(self, defer: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        self.closing = True
        self.held.clear()
        self.queue.clear()
        self.queued = 0
        self.wake.set()
        transport = getattr(self.writer, "transport", None)
        if transport is not None:
            transport.abort()
        else:
            self.writer.close()
        if defer:
            asyncio.get_running_loop().call_soon(self._left)
        else:
            self._left()
        self._stop_reading()

    def _stop_reading(self) -> None:
        if self.reading and self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    # -- probing (lag-fair races) --

    def _start_probing(self) -> None:
        if self.conn.speaks(p.Probe) and self._probe_timer is None:
            self._probe()

    def _probe(self) -> None:
        self._probe_timer = None
        if self.closing or self.closed or self.member is None:
            return
        clock = self.host.clock
        now = clock.now()
        self.send(p.Probe(id=self.meter.probe(now)))
        table = self.member.table
        playing = table is not None and table.phase == Phase.PLAYING
        every = latency.PLAYING_EVERY if playing else latency.IDLE_EVERY
        self._probe_timer = clock.call_at(now + every, self._probe)

    def _awaited(self, message: Any) -> bool:
        return isinstance(message, p.ProbeReply) and message.id in self.meter.waiting

    def _probed(self, message: p.ProbeReply) -> None:
        # the kernel's round trip bounds what a held answer could claim (net.tcpinfo)
        self.meter.bound(tcpinfo.of_transport(self._transport))
        if not self.meter.answer(message.id, self.host.clock.now()):
            self.send(p.Error(code=Code.BAD_PROBE, ref="probe_reply",
                              message=f"No probe {message.id} awaits an answer."))  # fmt: skip
            return
        self._set_lag()

    def _set_lag(self) -> None:
        if self.member is not None and self.member.link is self:
            meter = self.link_meter if self.link_meter is not None else self.meter
            self.member.lag = meter.lag

    def _left(self) -> None:
        if self._probe_timer is not None:
            self._probe_timer.cancel()
            self._probe_timer = None
        member, self.member = self.member, None
        if member is not None and member.table is not None:
            member.table.disconnect(member, self.host.clock.now(), link=self)
            self.host.touched(member.table)

    async def run_writer(self) -> None:
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                if self.blocked and not self.closed:
                    await self.writer.drain()  # until the peer has read enough
                    self.blocked = False
                while self.queue and not self.closed:
                    data = b"".join(self.queue)
                    self.queue.clear()
                    self.queued = 0
                    self.writer.write(data)
                    self.blocked = True
                    await self.writer.drain()
                    self.blocked = False
                if self.closing and not self.held:
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            if not self.closed:
                self.closed = True
                with contextlib.suppress(Exception):
                    self.writer.close()
            self._stop_reading()

    # -- input --

    async def run(self) -> None:
        clock = self.host.clock
        hello_timer = clock.call_at(clock.now() + self.host.config.hello_timeout, self._no_hello)
        writer_task = asyncio.create_task(self.run_writer())
        self.task = asyncio.current_task()
        try:
            while not self.closing:
                self.reading = True
                try:
                    data = await self.reader.read(self.host.config.read_size)
                except (ConnectionError, OSError):
                    data = b""
                except asyncio.CancelledError:
                    if self.closing:  # the writer finished closing: stop reading
                        break
                    raise
                finally:
                    self.reading = False
                if self.closing:
                    break
                self.conn.receive_data(data)
                if not self._process():
                    break
                if self.over:  # flooding: read nothing more until its notice's second ends
                    if not await self._rest():
                        break
        finally:
            hello_timer.cancel()
            self._left()
            if not self.closing:
                self.close_after_flush()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer_task, 5.0)
            if not writer_task.done():
                writer_task.cancel()
                self.abort()

    async def _rest(self) -> bool:
        """A connection over its rate is not read until the second of its notice ends:
        what it sends meanwhile waits in the kernel's buffers, then the sender's, and
        costs the host nothing (decoding a flood only to drop it cost every other
        player's round trip). False once the connection is closing."""
        self.over = False
        self.reading = True  # a closing writer may cancel the rest, as it does a read
        try:
            await self.host.clock.sleep_until(self.limited_until)
        except asyncio.CancelledError:
            if self.closing:
                return False
            raise
        finally:
            self.reading = False
        return not self.closing

    def _process(self) -> bool:
        """Handle every complete message; False once the connection must end."""
        touched: set[Table] = set()
        try:
            while not self.closing:
                try:
                    message = self.conn.next_message()
                except p.RemoteProtocolError as exc:
                    self.send(exc.to_message())
                    if self.conn.errored:
                        self.close_after_flush()
                        return False
                    continue
                if message is p.NEED_DATA:
                    return True
                if message is p.CLOSED:
                    return False
                # a leave is never dropped: it ends the flood anyway; nor the answer
                # to a probe of ours (the host sets their pace, not the client)
                if not isinstance(message, p.Leave) and not self._awaited(message) \
                        and not self._within_rate():
                    continue
                before = self.member.table if self.member is not None else None
                self._dispatch(message)
                # the table before (a leave) and after (a hello) may both have changed
                if self.member is not None and self.member.table is not None:
                    touched.add(self.member.table)
                if before is not None:
                    touched.add(before)
            return not self.closing
        finally:
            for table in touched:
                self.host.touched(table)

    def _within_rate(self) -> bool:
        config, now = self.host.config, self.host.clock.now()
        if self.member is not None and self.member.spectator:
            rate, burst = config.spectator_rate, config.spectator_burst
        else:
            rate, burst = config.rate, config.burst
        self.tokens = min(burst, self.tokens + (now - self.refilled) * rate)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.over = True
        if now >= self.limited_until:  # one notice per second of flooding is enough
            self.limited_until = now + 1.0
            self.send(
                p.Error(
                    code=Code.RATE_LIMITED,
                    message=f"Too many messages: at most {rate:g} a second. "
                    "Messages over the limit are dropped.",
                )
            )
        return False

    def _dispatch(self, message: Any) -> None:
        now = self.host.clock.now()
        if isinstance(message, p.ProbeReply):  # the shell's own, never the table's
            self._probed(message)
            return
        if isinstance(message, p.AskStandings) and self.member is not None:
            self.host.league.board.ask(self, message)  # the host's league, not a table's
            return
        if self.member is not None:
            try:
                self.member.table.handle(self.member, message, now)  # type: ignore[union-attr]
            except Exception:  # a bug must cost one message, not the table or the host
                log.exception("failed to handle %r", message)
                self.send(
                    p.Error(
                        code=Code.INTERNAL,
                        message="The host failed to handle that message; the game goes on.",
                        ref=p.refers(message),
                    )
                )
            return
        if self.challenge:  # the hello named a key: its prove comes next
            if isinstance(message, p.Prove):
                hello = self.host.league.proved(self, message)
                if hello is not None:
                    self._admit(hello, now)
                return
            self.challenge = None  # anything else: the challenge is off
        if not isinstance(message, p.Hello):
            self.send(
                p.Error(
                    code=Code.HELLO_FIRST,
                    message=('Say hello first: {"type":"hello","protocol":'
                             + str(p.PROTOCOL_VERSION) + ',"name":"..."}'),
                    ref=p.refers(message),
                )
            )
            return
        if message.token is None and message.spectate and self.address and \
                not self._room_to_watch():
            return
        if self.host.league.challenge(self, message):
            return
        self._admit(message, now)

    def _admit(self, message: p.Hello, now: float) -> None:
        try:
            self.member = self.host.tables.hello(
                message, self.send, self._closed_by_table, now, self,
                self.host.league.identified(self),
            )
            self.conn.version = message.protocol  # admitted: a version the host speaks
            self._met_table()
            self._set_lag()
            self._start_probing()
        except Refusal as refusal:
            self.send(p.Error(code=refusal.code, message=refusal.message, ref="hello"))
            if refusal.code == Code.BAD_VERSION:
                self.close_after_flush()
            return
        self.settle(b.SPECTATING if self.member.spectator else b.SEATED)

    def _met_table(self) -> None:
        """Admitted: the welcome, held for every commit while the peer was at no table
        (``ALL``), waits for its own table's commit only, and goes at once if that has
        none (a busy host's other tables never hold up a hello)."""
        if ALL not in self.held_for:
            return
        self.held_for.discard(ALL)
        store = self.host.store
        table = self.member.table if self.member is not None else None
        if store is not None and table is not None and store.unsaved(table):
            self.held_for.add(table)
        if not self.waiting():
            self.release()

    def _room_to_watch(self) -> bool:
        """A spectator's hello within the budgets; else it is told why and closed."""
        ledger = self.host.ledger
        admitted, _ = ledger.enter(b.SPECTATING, self.address, ("probe", self))
        if admitted:
            ledger.leave(b.SPECTATING, self.address, ("probe", self))
            return True
        self.send(p.Error(code=Code.SERVER_FULL, ref="hello",
                          message=ledger.why(b.SPECTATING, self.address)))
        self.close_after_flush()
        return False

    def _closed_by_table(self, reason: str) -> None:
        self.member = None  # the table already knows
        log.debug("closed by its table: %s", reason)
        self.close_after_flush()

    def _no_hello(self) -> None:
        if self.member is None and not self.closing:
            self.send(
                p.Error(
                    code=Code.HELLO_TIMEOUT,
                    message=f"No hello within {self.host.config.hello_timeout:g} seconds.",
                )
            )
            self.close_after_flush()
