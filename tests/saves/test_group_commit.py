"""The saves' group commit (``net.saves.writer``): a tick's changes are committed in
one transaction, and the host holds every byte it sends meanwhile, so no view of a
change reaches a client before that change is committed. In-process hosts on a fake
clock, read by in-process clients; every table seeded."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from net import host as hosting
from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from net.pipe import PipeWriter
from net.saves import Store
from tests.saves.helpers import GatedStore, Watcher, bot_table, committed_moves, drive, read, settle

pytestmark = pytest.mark.timeout(120)
PLAYING = "SELECT count(*) FROM saves WHERE status = 'playing'"


async def test_no_view_reaches_a_client_before_its_change_is_committed(store_dir, monkeypatch):
    """Every write of a state to a client's transport finds the database (read by
    another connection) holding every move the client's table had made when that
    state was encoded (the table may have moved on since: its moves wait for a later
    commit, and so do their states). Only that table's commits hold its client up."""
    tables = []
    made: dict[bytes, dict[str, int]] = {}  # a state's line: each table's moves then
    writes: list[tuple[str, int, int]] = []  # (table, its moves, committed) at each write
    watched: dict[int, str] = {}  # id() of a watcher's reader: its table

    class Observed(PipeWriter):
        def write(self, data: bytes) -> None:
            name = watched.get(id(self._reader))
            for line in data.splitlines(keepends=True):
                if name is not None and b'"type":"state"' in line:
                    writes.append((name, made[line][name], committed_moves(store.path, name)))
            super().write(data)

    monkeypatch.setattr(hosting, "PipeWriter", Observed)
    clock = FakeClock()
    store = Store(store_dir, "tables")
    host = Host(clock=clock, store=store)
    real = host.encode

    def encode(message) -> bytes:
        data = real(message)
        made.setdefault(data, {t.name: t.moves for t in tables})
        return data

    monkeypatch.setattr(host, "encode", encode)
    tables.extend([bot_table(host, "A", "one"), bot_table(host, "B", "two")])
    watchers = [await Watcher.watch(host, "A"), await Watcher.watch(host, "B")]
    watched.update({id(watchers[0].reader): "A", id(watchers[1].reader): "B"})
    readers = [asyncio.create_task(w.read()) for w in watchers]
    await settle()
    for table in tables:
        host.start_game(table)
    await drive(clock, lambda: all(t.phase == "over" for t in tables))
    await settle()
    await host.close()
    await asyncio.wait_for(asyncio.gather(*readers), 10)
    for name in "AB":  # states of many moves were written to each table's watcher
        assert max(moves for table, moves, _ in writes if table == name) > 20
    ahead = [write for write in writes if write[2] < write[1]]
    assert not ahead, f"states written before their moves were committed: {ahead[:5]}"
    assert all(any(isinstance(m, p.Over) for m in w.messages) for w in watchers)


async def test_a_clients_bytes_keep_their_order_across_ticks(store_dir, monkeypatch):
    """What a client reads is exactly what the host encoded for it, in that order,
    over a whole game of held and released ticks."""
    encoded: list[bytes] = []
    clock = FakeClock()
    store = Store(store_dir, "tables")
    host = Host(clock=clock, store=store)
    real = host.encode

    def encode(message) -> bytes:
        data = real(message)
        encoded.append(data)
        return data

    monkeypatch.setattr(host, "encode", encode)
    table = bot_table(host, "A", "order")
    watcher = await Watcher.watch(host, "A")
    reader = asyncio.create_task(watcher.read())
    await settle()
    host.start_game(table)
    await drive(clock, lambda: table.phase == "over", step=0.05, store=store)
    await settle()
    assert store.groups > 10  # many ticks, each its own group commit
    await host.close()
    await asyncio.wait_for(reader, 10)
    assert bytes(watcher.received) == b"".join(encoded)
    states = [m for m in watcher.messages if isinstance(m, p.State)]
    assert len(states) > 10
    assert [s.at for s in states] == sorted(s.at for s in states)


async def test_several_tables_changed_in_one_tick_share_one_commit(store_dir):
    clock = FakeClock()
    store = Store(store_dir, "tables")
    host = Host(clock=clock, store=store)
    store.check()  # the database exists (it opens on first use)
    tables = [bot_table(host, f"T{i}", f"seed-{i}") for i in range(3)]
    await settle()
    saves, groups = store.saves, store.groups
    for table in tables:
        host.start_game(table)
    assert store.pending and store.saves == saves  # queued, nothing committed yet
    assert committed_moves(store.path) == 0
    assert read(store.path, PLAYING) == 0
    await store.wait_committed()  # the next turn of the loop hands all three over
    assert not store.pending
    assert store.groups == groups + 1 and store.saves >= saves + 3
    assert read(store.path, PLAYING) == 3
    # time passes: every table's bots move in the same turn of the loop (a fake clock
    # runs them together), and their moves are committed together too
    moves = [t.moves for t in tables]
    clock.advance(5.0)
    assert all(t.moves > m for t, m in zip(tables, moves, strict=True))
    groups = store.groups
    await store.wait_committed()
    assert store.groups == groups + 1
    assert committed_moves(store.path) == sum(t.moves for t in tables)
    await host.close()


async def test_a_failed_group_commit_is_reported_once_and_its_moves_saved_later(store_dir):
    """A commit that fails (the disk full for a while) puts the tables' records back:
    it is reported once, the clients still get every view (the game goes on), and the
    moves of the failed commits are written by the next one that succeeds."""

    class Full(Store):
        full = False

        def _stage(self, name: str) -> None:
            if self.full and name in ("written", "moves written"):
                raise OSError(28, "No space left on device")

    reports: list[str] = []
    clock = FakeClock()
    store = Full(store_dir, "tables", report=reports.append)
    host = Host(clock=clock, store=store)
    tables = [bot_table(host, "A", "full-a", 30), bot_table(host, "B", "full-b", 30)]
    watcher = await Watcher.watch(host, "A")
    reader = asyncio.create_task(watcher.read())
    await settle()
    for table in tables:
        host.start_game(table)
    await drive(clock, lambda: all(t.moves >= 3 for t in tables))
    await store.wait_committed()  # nothing with the writer thread: the disk fills now
    before, seen = committed_moves(store.path), len(watcher.messages)
    store.full = True
    await drive(clock, lambda: all(t.moves >= 12 for t in tables), store=store)
    await store.wait_committed()
    await settle()
    assert all(t.phase == "playing" for t in tables)
    assert committed_moves(store.path) == before  # nothing got in
    assert len(watcher.messages) > seen  # the game went on, its views sent
    store.full = False
    await drive(clock, lambda: all(t.phase == "over" for t in tables))
    await settle()
    assert len([r for r in reports if "cannot save" in r]) == 1
    for table in tables:
        (ident,) = [k.id for k in store.kept() if k.status == "finished"
                    and store.load(k.id).name == table.name]  # fmt: skip
        saved = store.load(ident)
        assert saved.moves == table.moves  # the moves of the failed commits too
        assert saved.replay().over
    await host.close()
    await asyncio.wait_for(reader, 10)


async def test_a_move_patches_the_document_to_what_a_whole_rewrite_would_be(store_dir):
    """A move builds only the document's changing fields into the bytes of the fixed
    ones (``documents.game_frame``): the row reads back as the whole document built at
    the same moment would, and a seat renamed mid-game rewrites the whole document."""
    from net.saves import documents

    clock = FakeClock()
    store = Store(store_dir, "tables")
    host = Host(clock=clock, store=store)
    table = host.create_table("A", "foolsgold", seats=3, bots=3, seed="patch", bot_pace=0.2)
    host.start_game(table)
    await drive(clock, lambda: table.moves >= 2 * documents.DIGEST_EVERY + 3)
    await settle()

    def compare() -> None:
        ident = store.live_save(table)
        record = store._records._games[id(table)]
        whole = documents.as_json(documents.game_document(
            table, ident, record.game, clock.now(), "playing", record.taken))  # fmt: skip
        frame = documents.game_frame(table, ident, record.game)
        moved = documents.game_moved(frame, table, len(table.seats), clock.now(), 5.0,
                                     record.taken)  # fmt: skip
        assert moved == documents.ENCODER.encode(documents.game_document(
            table, ident, record.game, clock.now(), "playing", record.taken, wall=5.0))
        saved = store.load(ident)
        assert saved.moves == table.moves
        got = {k: v for k, v in saved.raw.items() if k != "saved_wall"}
        assert got == {k: v for k, v in whole.items() if k != "saved_wall"}
        assert saved.replay() is not None

    compare()
    table.seats[1].name = "Renamed"  # a seat changes: the next move rewrites it all
    moves = table.moves
    await drive(clock, lambda: table.moves > moves)
    await settle()
    compare()
    assert store.load(store.live_save(table)).doc.seats[1].name == "Renamed"
    await host.close()


def test_a_store_that_outlives_its_loop_still_commits_and_releases(store_dir):
    """A change queued on a loop that stops before its turn does not hold the store
    up: the next loop commits it, and a host there releases what it holds."""
    store = Store(store_dir, "tables")

    async def first() -> None:
        host = Host(clock=FakeClock(), store=store)
        host.start_game(bot_table(host, "A", "gone"))
        assert store.pending  # its commit was due on this loop's next turn
        asyncio.get_running_loop().stop()  # the loop ends before that turn

    loop = asyncio.new_event_loop()
    with contextlib.suppress(RuntimeError):
        loop.run_until_complete(first())
    loop.close()
    assert store.pending

    async def second() -> None:
        host = Host(clock=FakeClock(), store=store)
        watcher = await Watcher.watch(host, "A")  # no such table: refused, held
        reader = asyncio.create_task(watcher.read())
        await asyncio.wait_for(store.wait_committed(), 10)  # (it schedules nothing itself)
        assert not store.pending
        assert any(isinstance(m, p.Error) for m in watcher.messages)
        await host.close()
        await asyncio.wait_for(reader, 10)

    asyncio.run(second())
    assert read(store.path, PLAYING) == 1


async def test_a_batch_in_flight_releases_only_its_own_bytes(store_dir):
    """While the writer thread commits one batch, the next changes queue as the next
    batch: when the first lands, its views go out and nothing later; the later views
    wait for their own commit. The writer is held at a gate (``_stage``)."""

    clock = FakeClock()
    store = GatedStore(store_dir, "tables")
    host = Host(clock=clock, store=store)
    landed = asyncio.Event()
    store.on_flushed(landed.set)
    table = bot_table(host, "A", "pipelined", 30)
    watcher = await Watcher.watch(host, "A")
    reader = asyncio.create_task(watcher.read())
    await settle()
    host.start_game(table)
    await store.wait_committed()
    await settle()
    store.gate = threading.Semaphore(0)

    def states() -> int:
        return sum(isinstance(m, p.State) for m in watcher.messages)

    def move() -> int:  # the bots' next timers, until the table has moved
        moves = table.moves
        while table.moves == moves:
            clock.advance(max(clock.next_due() - clock.now(), 0.0))
        return table.moves

    seen = states()
    first = move()
    await settle()  # the loop's turn hands it to the writer, which waits at the gate
    batch = store._commits._inflight
    assert batch is not None and not batch.landed
    second = move()
    await settle()
    assert store._commits._inflight is batch and store.pending  # the second change waits its turn
    assert states() == seen  # no view of either move went out
    assert committed_moves(store.path) < first
    landed.clear()
    store.gate.release(len(batch.changes))  # the first batch commits
    await asyncio.wait_for(landed.wait(), 10)
    await settle()
    assert committed_moves(store.path) == first
    assert states() > seen  # the first move's views went out...
    after_first = states()
    assert store.pending  # ...and the second's wait for the second batch, at the gate
    assert store._commits._inflight is not None and store._commits._inflight is not batch
    store.gate.release(1000)
    await asyncio.wait_for(store.wait_committed(), 10)
    await settle()
    assert committed_moves(store.path) == second and states() > after_first
    await host.close()
    await asyncio.wait_for(reader, 10)


async def test_a_tables_commit_holds_up_only_its_own_clients(store_dir):
    """While the writer thread commits table A's move, A's watcher gets nothing (its
    pong waits behind the move's views), but B's watcher, at a table with nothing to
    commit, gets its pong at once; once A's batch lands, A's views and pong go out in
    order. The writer is held at a gate (``_stage``)."""

    clock = FakeClock()
    store = GatedStore(store_dir, "tables")
    host = Host(clock=clock, store=store)
    a, b = bot_table(host, "A", "busy", 30), bot_table(host, "B", "idle", 30)
    watchers = [await Watcher.watch(host, "A"), await Watcher.watch(host, "B")]
    readers = [asyncio.create_task(w.read()) for w in watchers]
    await settle()
    host.start_game(a)
    await store.wait_committed()
    await settle()
    store.gate = threading.Semaphore(0)
    moves = a.moves
    while a.moves == moves:  # A's bots' next timers, until A has moved
        clock.advance(max(clock.next_due() - clock.now(), 0.0))
    await settle()  # the loop's turn hands A's move to the writer, which waits at the gate
    batch = store._commits._inflight
    assert batch is not None and not batch.landed and store.unsaved(a)
    assert not store.unsaved(b)
    seen = [len(w.messages) for w in watchers]
    for n, watcher in enumerate(watchers, 1):
        watcher.writer.write(p.encode(p.Ping(id=n)))
    await settle()
    pongs = [[m for m in w.messages if isinstance(m, p.Pong)] for w in watchers]
    assert [m.id for m in pongs[1]] == [2]  # B's pong went out at once...
    assert pongs[0] == [] and len(watchers[0].messages) == seen[0]  # ...A's waits
    landed = asyncio.Event()
    store.on_flushed(landed.set)
    store.gate.release(1000)
    await asyncio.wait_for(landed.wait(), 10)
    await settle()
    after = watchers[0].messages[seen[0]:]
    assert any(isinstance(m, p.State) for m in after)  # A's move's views, then the pong
    assert [type(m) for m in after][-1] is p.Pong
    await host.close()
    await asyncio.wait_for(asyncio.gather(*readers), 10)


EXITING = """
import asyncio, atexit, sys, threading
from net.saves import Store

store = Store(sys.argv[1], "tables")
store.check()
exiting = threading.Event()
atexit.register(exiting.set)  # registered after the store's own: runs before it


def work(conn):
    assert exiting.wait(30)  # still committing when the interpreter exits
    conn.execute("CREATE TABLE landed (x)")


async def main():
    store._commits.queue(work)
    await asyncio.sleep(0)  # the loop's turn hands it to the writer thread
    assert store._commits._inflight is not None


asyncio.run(main())
"""


def test_a_batch_in_flight_when_the_process_exits_still_lands(store_dir):
    """A host stopped while its last batch commits (the writer thread is a daemon):
    the interpreter's exit waits for it."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", EXITING, str(store_dir)], cwd=root,
                          capture_output=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert read(store_dir / "motherlode.db",
                "SELECT count(*) FROM sqlite_master WHERE name = 'landed'") == 1  # fmt: skip
