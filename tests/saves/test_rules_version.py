"""A save remembers the version of the rules its game was played under (issue 57).

``legacy/db2`` was written at 2be58e5 (``make_db2.py``), the last commit before ruling
F12, when at two seats the player without the nugget lost 1 in every round (F8) and no
save recorded a version of the rules: a finished two-seat match (its seats' statistics
written) and one left in play. This version reads both as version 1: the finished one
replays and verifies as it was played, its statistics unchanged; the one in play goes
on to its end by the rules it began under. A game begun now records version 2."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import msgspec
import pytest

import foolsgold
from net.catalogue import spec
from net.clock import FakeClock
from net.host import Host
from net.saves import SaveError, Store, load_all
from net.saves.replay import replay
from net.verify import verify_record
from tests.hardening.harness import drive
from tests.saves.helpers import play_on

DB2 = Path(__file__).parent / "legacy" / "db2" / "motherlode.db"


def _open(tmp_path: Path) -> tuple[Store, dict, list]:
    shutil.copy(DB2, tmp_path / "motherlode.db")
    with sqlite3.connect(tmp_path / "motherlode.db") as old:
        rows = old.execute("SELECT name, kind, won, counts FROM seat_stats ORDER BY seat")
        before = {name: (kind, won, json.loads(counts)) for name, kind, won, counts in rows}
    store = Store(tmp_path, "tables")
    saves, problems = load_all(store)
    assert problems == []
    return store, before, saves


def _settled(driver) -> list[list[int]]:
    return [e["deltas"] for e in driver.events if e["type"] == "settled"]


def test_a_two_seat_match_saved_before_f12_replays_verifies_and_counts_as_played(tmp_path):
    store, before, _ = _open(tmp_path)
    (done,) = store.kept()
    saved = store.load(done.id)
    assert saved.game == "foolsgold" and len(saved.players) == 2
    assert saved.doc.game.rules == 1  # no version recorded: the rules before F12
    settled = []
    saved.replay(lambda driver, step: settled.extend(
        e["deltas"] for e in step.events if e["type"] == "settled"))
    assert settled and verify_record(saved) == []
    # as played: every round moved both scores (F8 at two), a round with no call +1 / -1
    assert all(sorted(d) in ([-1, 1], [-2, 1], [-1, 0]) for d in settled), settled
    assert any(sorted(d) == [-1, 1] for d in settled)
    # the same moves under F12 would give other events: the version is what replays it
    doc = msgspec.structs.replace(saved.doc, game=msgspec.structs.replace(saved.doc.game,
                                                                         rules=2))
    with pytest.raises(SaveError, match="gives other events"):
        replay(doc, "the save under F12")
    # the statistics read as they were written, for the person and the bot
    stats = {r.name: r for r in store.stats(bots=True)}
    assert {name: (r.played, r.won, r.rounds, r.grabs, r.bluffs, r.calls, r.calls_right)
            for name, r in stats.items()} == {
        name: (1, won, c["rounds"], c["grabs"], c["bluffs"], c["calls"], c["calls_right"])
        for name, (_, won, c) in before.items()}  # fmt: skip
    # and a tally of its replay counts its grabs, bluffs and calls the same (an imported
    # game's way to its stats; its rounds count the first deal, which a live tally,
    # fed by the logged moves, never saw)
    from net.saves.stats import Tally

    tally = Tally(2)
    saved.replay(lambda driver, step: tally.step(driver, step.events))
    counted = ("grabs", "bluffs", "calls", "calls_right")
    assert [tally.counts.get(k, [0, 0]) for k in counted] == [
        [before[n][2][k] for n in saved.players] for k in counted]
    # an exported record is the save as it was kept (no version: version 1), and reads
    # back to the same replay
    record = saved.export()
    assert "rules" not in json.loads(record)["game"]
    from net.saves import Saved

    assert verify_record(Saved.parse(record, "the record")) == []


def test_a_two_seat_match_in_play_before_f12_goes_on_by_its_rules(tmp_path):
    store, _, saves = _open(tmp_path)
    (duo,) = [s for s in saves if s.status == "playing"]
    assert duo.doc.game.rules == 1 and duo.replay().rules == 1
    assert play_on(store, duo) == "finished"
    after = Store(tmp_path, "tables").load(duo.id)
    assert after.doc.game.rules == 1  # now written down
    driver = after.replay()
    assert driver.over and driver.match.rules == 1
    scores = driver.match.scores
    assert max(scores) == 3
    # every round after the resume as before it: F8 at two, both scores moved
    settled = []
    after.replay(lambda d, step: settled.extend(
        e["deltas"] for e in step.events if e["type"] == "settled"))
    assert len(settled) > 3 and all(min(d) < 0 for d in settled)


def test_a_game_begun_now_records_the_rules_it_is_played_under(tmp_path):
    assert spec("foolsgold").rules == foolsgold.RULES == 2
    assert spec("nuggets").rules == 1

    async def run() -> str:
        clock = FakeClock(5.0)
        store = Store(tmp_path, "tables")
        host = Host(clock=clock, store=store)
        table = host.create_table("Two", "foolsgold", seats=2, bots=2, seed="f12-now",
                                  bot_pace=0.2)
        host.start_game(table)
        await drive(clock, lambda: table.phase == "over")
        await host.close()
        return store

    store = asyncio.run(run())
    (done,) = store.kept()
    saved = store.load(done.id)
    assert saved.doc.game.rules == 2 and verify_record(saved) == []
    settled = []
    saved.replay(lambda d, step: settled.extend(
        e["deltas"] for e in step.events if e["type"] == "settled"))
    # F12: every round gives exactly one player a point, and at most one loses one
    assert settled and all(sorted(d) in ([0, 1], [-1, 1]) for d in settled), settled


def test_a_save_of_a_version_this_motherlode_does_not_play_is_named(tmp_path):
    store, _, _ = _open(tmp_path)
    (done,) = store.kept()
    saved = store.load(done.id)
    doc = msgspec.structs.replace(saved.doc, game=msgspec.structs.replace(saved.doc.game,
                                                                         rules=3))
    with pytest.raises(SaveError, match="versions 1 to 2 of its rules, not 3"):
        replay(doc, "a save from the future")
