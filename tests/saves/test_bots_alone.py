"""Bots playing alone on a busy host (issue 48: a thousand bots' tables): their saves
coalesce (``GroupCommit.later``), so the writer thread never falls behind them, and a
person's hello or move never waits behind their commits. Before, every bot move was a
change of its own: at a thousand tables the writer's batches grew without bound (the
host's memory with them) and a hello's welcome, held for every commit, came 30 s late.

In-process hosts on a fake clock; the writer thread held at a gate (``GatedStore``)
to keep a batch in flight."""

from __future__ import annotations

import asyncio
import threading

import pytest

from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from tests.saves.helpers import GatedStore, Watcher, bot_table, committed_moves, read, settle
from tests.waiting import until

pytestmark = pytest.mark.timeout(120)


async def move(clock: FakeClock, table, times: int = 1) -> None:
    """Run the bots' timers until ``table`` has made ``times`` more moves (a timer
    the host's ``Turns`` put off runs on the loop's next turn)."""
    target = table.moves + times

    def moved() -> bool:
        """The timers due, run one after another with no turn of the loop between
        (what they put off waits for the loop's next turn, as at a busy host)."""
        for _ in range(100_000):
            if table.moves >= target:
                return True
            due = clock.next_due()
            if due is None:
                return False
            clock.advance(max(due - clock.now(), 0.0))
        return False

    await until(moved, f"{table.name} makes {times} moves", 60, step=0)


async def started(root, *names: str, idle: str = "") -> tuple[FakeClock, GatedStore,
                                                                   Host, list]:
    """Tables of bots playing alone, and a table ``idle`` in its lobby (if named)."""
    clock = FakeClock()
    store = GatedStore(root, "tables")
    host = Host(clock=clock, store=store)
    tables = [bot_table(host, name, f"alone-{name}", 40) for name in names]
    for table in tables:
        host.start_game(table)
    if idle:
        bot_table(host, idle, "idle")
    await store.wait_committed()  # each game's deal: committed at once, as ever
    await settle()
    return clock, store, host, tables


async def test_the_moves_of_bots_alone_coalesce_into_one_change_a_table(store_dir):
    """While a batch is in flight, three tables of bots make 10 moves each: nothing
    is queued move by move (one deferred change a table), and once the writer is free
    every move is committed, in at most one change a table."""
    clock, store, host, tables = await started(store_dir, "A", "B", "C")
    store.gate = threading.Semaphore(0)
    await move(clock, tables[0])
    await settle()  # A's first move goes to the writer, which waits at the gate
    inflight = store._commits._inflight
    assert inflight is not None and not inflight.landed
    saves = store.saves
    for table in tables:
        await move(clock, table, 10)
    await settle()
    assert all(t.phase == "playing" for t in tables)  # (a game's end saves at once)
    assert store.deferred == 3  # one waiting change a table, however many moves
    assert not store._commits._pending
    assert committed_moves(store.path) < sum(t.moves for t in tables)
    held = sum(t.moves for t in tables)
    store.gate.release(10_000)
    await asyncio.wait_for(store.wait_committed(), 10)
    assert store.deferred == 0
    assert committed_moves(store.path) == sum(t.moves for t in tables)
    # the batch that was in flight (A's first move, and B's and C's if their bots
    # moved in the same turn), then one change a table; and one a move for any move a
    # timer the host put off (``Turns``, on a loaded machine) made after the gate opened
    later = sum(t.moves for t in tables) - held
    bound = len(inflight.changes) + 3 + later
    assert store.saves - saves <= bound, (store.saves - saves, bound)
    await host.close()


async def test_a_watcher_arriving_sees_only_what_is_committed(store_dir):
    """A spectator sits down at a table whose moves wait to be saved: its change is
    queued the moment the spectator arrives, and the spectator's welcome (the
    table's state) waits until that change is committed."""
    clock, store, host, (a,) = await started(store_dir, "A")
    store.gate = threading.Semaphore(0)
    await move(clock, a, 5)
    await settle()  # the first of them with the writer (at the gate), the rest deferred
    watcher = await Watcher.watch(host, "A")
    reader = asyncio.create_task(watcher.read())
    await settle()
    assert store.deferred == 0 and store.unsaved(a)  # queued at the hello
    assert watcher.messages == []  # its views wait for the commit
    moves = a.moves
    store.gate.release(10_000)
    await asyncio.wait_for(store.wait_committed(), 10)
    await settle()
    assert committed_moves(store.path, "A") >= moves
    assert isinstance(watcher.messages[0], p.Welcome)
    await host.close()
    await asyncio.wait_for(reader, 10)


async def test_a_hello_is_not_held_up_by_another_tables_commit(store_dir):
    """A batch of table B's moves is in flight (the writer held at the gate): a
    spectator's hello to table A, in its lobby with nothing to commit, is welcomed at
    once. (Before, a hello's welcome waited for every commit: on a busy host, for
    ever.)"""
    clock, store, host, (b,) = await started(store_dir, "B", idle="A")
    store.gate = threading.Semaphore(0)
    await move(clock, b, 1)
    await settle()
    assert store.pending and store.unsaved(b)
    watcher = await Watcher.watch(host, "A")
    reader = asyncio.create_task(watcher.read())
    for _ in range(100):
        await settle(1)
        if watcher.messages:
            break
    assert watcher.messages and isinstance(watcher.messages[0], p.Welcome), \
        watcher.messages
    assert store.pending  # B's batch still waits at the gate
    store.gate.release(10_000)
    await asyncio.wait_for(store.wait_committed(), 10)
    await host.close()
    await asyncio.wait_for(reader, 10)


async def test_a_table_closed_with_moves_waiting_keeps_them(store_dir):
    """A table of bots alone whose moves wait to be saved is taken away: its moves are
    written first, and no save comes back to life after."""
    clock, store, host, (a,) = await started(store_dir, "A")
    await move(clock, a, 6)
    await settle(1)
    assert store.deferred == 1 or store.pending
    moves = a.moves
    assert host.remove_table(a)
    await asyncio.wait_for(store.wait_committed(), 10)
    assert committed_moves(store.path, "A") == moves
    assert store.deferred == 0
    await host.close()


async def test_a_game_dropped_with_moves_waiting_stays_dropped(store_dir):
    """A game whose moves wait to be saved is dropped (``close_table``, not kept): its
    save goes, and the waiting change does not bring it back."""
    clock, store, host, (a,) = await started(store_dir, "A")
    await move(clock, a, 6)
    await settle(1)
    assert store.live_save(a) is not None
    await move(clock, a, 3)
    assert store.deferred == 1
    store.close_table(a, keep=False)
    await asyncio.wait_for(store.wait_committed(), 10)
    assert store.deferred == 0 and store.live_save(a) is None
    assert read(store.path, "SELECT count(*) FROM saves") == 0
    await host.close()
