"""The stats' tally (``net.saves.stats.Tally``): the store copies a game's tally only
for moves whose events it counts (``Tally.reads``), so every other move must leave it
exactly as it was. Seeded games of both games, played by bots on a fake clock."""

from __future__ import annotations

import pytest

from net.clock import FakeClock
from net.host import Host
from net.saves import Store
from net.saves.stats import Tally
from tests.saves.helpers import drive

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize(("game", "options"), [("nuggets", {"supply": 20}),
                                               ("foolsgold", {})])  # fmt: skip
@pytest.mark.slow
async def test_moves_the_tally_does_not_read_leave_it_as_it_was(store_dir, game, options):
    clock = FakeClock()
    store = Store(store_dir, "tables")
    host = Host(clock=clock, store=store)
    table = host.create_table("T", game, seats=4, bots=4, seed=f"tally-{game}", bot_pace=0.2,
                              **options)  # fmt: skip
    host.start_game(table)
    await drive(clock, lambda: table.phase != "playing", store=store)
    await store.wait_committed()
    (kept,) = store.kept()
    saved = store.load(kept.id)
    tally = Tally(len(saved.players))
    read = unread = 0

    def step(driver, step) -> None:
        nonlocal read, unread
        before = tally.copy()
        tally.step(driver, step.events)
        if Tally.reads(step.events):
            read += 1
        else:
            unread += 1
            assert (tally.counts, tally.scratch) == (before.counts, before.scratch), step.events

    saved.replay(step)
    assert read and unread
    await host.close()
