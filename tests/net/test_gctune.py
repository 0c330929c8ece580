"""The settled host's collector (net.gctune): young collections only, a full one on a
clock. That is safe because a table's play makes no cyclic garbage: everything it
drops dies by reference counting, which these tests check over whole games."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from net import gctune
from net.clock import FakeClock
from net.games import make_brain
from net.host import Host
from net.table import Member, Settings, Table
from tests import waiting

from .lagproxy import run_virtual

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def collector():
    """Put the interpreter's collector back as it was after the test."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()


def _play(game: str, seats: int, spectators: int, games: int) -> tuple[int, Table]:
    """Play ``games`` whole games at one table of people (bots play for them, so their
    actions and views take a person's path, encoded as the host does) and spectators,
    on a made-up clock; return the actions and the table (a table and its members
    refer to each other: they are freed when the table goes, not by play)."""
    host = Host()
    settings = Settings.default(game)
    settings.seats = seats
    settings.seed = f"gc/{game}/{seats}"  # the same deals every run: its length is fixed
    table = Table("T", game, settings)
    table.log_limit = 64  # a host without saves

    def deliver(message) -> None:
        host.encode(message)

    for i in range(seats):
        table.join(Member(f"P{i}", deliver), 0.0)
    for i in range(spectators):
        table.join(Member(f"S{i}", deliver, spectator=True), 0.0)
    now, actions, played = 0.0, 0, 0

    def start() -> None:
        table.start(now)
        for i, seat in enumerate(table.seats):
            seat.brain = make_brain(game, i, "normal", random.Random(i), 1.0)
        table.play.changed([], now)

    start()
    while played < games:
        when = table.next_wakeup()
        if when is None or table.phase == "over":
            played += 1
            if played < games:
                start()
            continue
        now = max(now, when)
        before = table.moves
        table.tick(now)
        actions += max(0, table.moves - before)
    return actions, table


def _in_own_interpreter(function: str, *args: object) -> object:
    """Run ``function(*args)`` of this module in a fresh interpreter and return what it
    returns (JSON): the collector counts the whole process, so a test that counts
    garbage or young objects runs where nothing else allocates (under pytest-xdist, the
    worker's own threads would)."""
    code = (
        "import json, sys; from tests.net import test_gctune as t; "
        f"print(json.dumps(getattr(t, {function!r})(*json.loads(sys.argv[1]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=150,  # a hang's bound: 5 s alone, 50 s was once not enough beside the suite
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cyclic_garbage(game: str, seats: int, games: int) -> list[int]:
    """(actions, games played, what only the collector could free) over whole games."""
    _play(game, seats, spectators=2, games=1)  # what the first game imports or caches
    gc.collect()
    gc.disable()
    actions, table = _play(game, seats, spectators=2, games=games)
    return [actions, table.games_played, gc.collect()]


@pytest.mark.parametrize(("game", "seats", "games"), [("foolsgold", 4, 1), ("nuggets", 3, 3)])
@pytest.mark.slow
def test_play_makes_no_cyclic_garbage(game: str, seats: int, games: int) -> None:
    actions, played, garbage = _in_own_interpreter("_cyclic_garbage", game, seats, games)
    assert actions > 50 and played == games
    assert garbage == 0  # nothing that only the collector could have freed


def test_settle_runs_young_collections_only(collector) -> None:
    gctune.settle()
    assert gc.get_threshold() == gctune.THRESHOLDS
    assert gc.get_freeze_count() > 0
    first, middle, full = gctune.THRESHOLDS
    assert first <= 2_000 and middle >= 1 << 20 and full >= 1 << 20


def test_settled_in_a_loop_young_collections_run_on_its_clock(collector, monkeypatch) -> None:
    """The collector's own trigger is off; a young pass runs every ``young_every`` on the
    loop's clock (one clock however often settle is called). The clock is the test's:
    ``call_later`` is recorded, and the test runs what is due."""
    passes: list[int] = []
    monkeypatch.setattr(gctune.gc, "collect", lambda generation=2: passes.append(generation))

    async def run() -> None:
        loop = asyncio.get_running_loop()
        due: list = []
        monkeypatch.setattr(loop, "call_later", lambda delay, then: due.append((delay, then)))
        gctune.settle(young_every=0.01)
        gctune.settle(young_every=0.01)  # a second call adds no second clock
        assert not gc.isenabled() and passes == [2, 2] and len(due) == 1
        for _ in range(3):  # each pass is young, and arms the next
            delay, then = due.pop()
            assert delay == 0.01
            then()
        assert passes == [2, 2, 0, 0, 0] and len(due) == 1

    asyncio.run(run())


def test_the_sweeper_collects_on_its_clock(collector, monkeypatch) -> None:
    full = []
    monkeypatch.setattr(gctune.gc, "collect", lambda generation=2: full.append(generation))

    async def run() -> None:
        task = asyncio.create_task(gctune.sweeper(every=0.01))
        # the time is what is tested: a sweeper every 10 ms runs 3 to 6 times in 55 ms
        # (of a loop in virtual time, so a busy machine cannot make it fewer)
        await asyncio.sleep(0.055)
        task.cancel()

    run_virtual(run())
    assert 3 <= len(full) <= 6 and set(full) == {2}


def _young_per_action() -> float:
    """What a settled host's young passes walk is what each action leaves alive: at a
    busy host, the fewer, the shorter the passes (docs/BENCHMARKS.md, "Issue 22, fifth
    pass"). A table of six bots on the host's own timers (a fake clock), a young
    collection after every action, counting what each one finds. Deterministic: a
    seeded table on a made-up clock. Before the fifth pass (a closure per timer, the
    bots' copies of their views' lists, a new plan tuple for every bot at every change)
    this was 56 an action; now 41."""
    clock = FakeClock()
    host = Host(clock=clock)
    table = host.create_table("T", "foolsgold", seats=6, bots=6, seed="young")
    table.log_limit = 64  # a host without saves
    host.start_game(table)

    async def play(moves: int, count: bool) -> float:
        found, start = 0, table.moves
        while table.moves - start < moves:
            await waiting.settle(1)  # timers already due run on the loop's next turn
            due = clock.next_due()
            if due is None:
                assert table.phase == "over", "the table stopped with nothing due"
                host.start_game(table)
                continue
            clock.advance_to(due)
            if count:
                found += len(gc.get_objects(0))
                gc.collect(0)
        return found / (table.moves - start)

    async def run() -> float:
        await play(100, count=False)  # what the first moves import or cache
        gc.collect()
        gc.disable()
        return await play(300, count=True)

    return asyncio.run(run())


@pytest.mark.slow
def test_a_bots_table_leaves_few_young_objects_an_action() -> None:
    per_action = _in_own_interpreter("_young_per_action")
    assert 10 < per_action < 46, per_action
