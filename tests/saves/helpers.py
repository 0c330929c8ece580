"""Bots alone at saving hosts: a store whose commits the test holds, and watchers."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from pathlib import Path

from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from net.pipe import PipeWriter
from net.saves import Saved, Store, resume_time
from tests.hardening import harness as hardening
from tests.waiting import settle  # noqa: F401 - the suite's one, shared from here


async def drive(clock: FakeClock, done, limit: int = 100_000, step: float = 0.1,
                store: Store | None = None) -> None:  # fmt: skip
    """Run the fake clock until ``done()``; with ``store``, every third step waits for
    its commits to land (else the writer thread may still hold the first batch when
    the game ends: the moves made meanwhile all go in the next one)."""
    for i in range(limit):
        await settle(10)
        if store is not None and i % 3 == 0:
            await store.wait_committed()
        if done():
            return
        due = clock.next_due()
        clock.advance(step if due is None else min(max(due - clock.now(), 0.0), step))
    raise AssertionError("drive: never done")


def committed_moves(path: Path, table: str | None = None) -> int:
    """The moves of every save (of one table's, by name), as another connection reads
    them: committed only."""
    if table is None:
        return read(path, "SELECT coalesce(sum(moves), 0) FROM saves")
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT coalesce(sum(moves), 0) FROM saves WHERE name = ?",
                            (table,)).fetchone()[0]  # fmt: skip


def read(path: Path, query: str) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(query).fetchone()[0]


class Watcher:
    """An in-process spectator that reads every byte the host sends it."""

    def __init__(self, reader: asyncio.StreamReader, writer: PipeWriter) -> None:
        self.reader, self.writer = reader, writer
        self.conn = p.Connection(p.CLIENT)
        self.received = bytearray()
        self.messages: list = []

    @classmethod
    async def watch(cls, host: Host, table: str) -> Watcher:
        watcher = cls(*host.open_local())
        watcher.writer.write(p.encode(p.Hello(protocol=p.PROTOCOL_VERSION, name="Eve",
                                              table=table, spectate=True)))  # fmt: skip
        return watcher

    async def read(self) -> None:
        while data := await self.reader.read(65536):
            self.received += data
            self.conn.receive_data(data)
            while (message := self.conn.next_message()) is not p.NEED_DATA:
                self.messages.append(message)


class GatedStore(Store):
    """A store whose writer thread waits at ``gate`` (once set) before each step of a
    commit, so a test can hold a batch in flight."""

    gate: threading.Semaphore | None = None

    def _stage(self, name: str) -> None:
        if self.gate is not None and name != "committed":  # on the writer thread
            assert self.gate.acquire(timeout=10)


def bot_table(host: Host, name: str, seed: str, supply: int = 10):
    return host.create_table(name, "nuggets", seats=3, bots=3, seed=seed, supply=supply,
                             bot_pace=0.2)  # fmt: skip


def play_on(store: Store, saved: Saved) -> str:
    """Restore ``saved`` on a new host, stand-ins for the people, play to the end."""

    async def run() -> None:
        clock = FakeClock(resume_time([saved]))
        host = Host(clock=clock, store=store)
        table = host.restore(saved)
        for i, seat in enumerate(table.seats):
            if seat.kind != "bot":
                table.play.stand_in(i, clock.now())
        host.touched(table)
        await hardening.drive(clock, lambda: table.phase != "playing")
        await host.close()

    asyncio.run(run())
    return store.load(saved.id).status
