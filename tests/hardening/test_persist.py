"""Saved tables (``net.saves``): committed before views, restore by token, deadlines on
resume, damaged saves and databases refused and kept, failed commits. In-process hosts
on a fake clock over real sockets on 127.0.0.1; the kill -9 suite is
``test_crash.py``; old save files are ``tests/saves/test_import.py``."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from net import protocol as p
from net import saves as persist
from net.clock import FakeClock
from net.games.foolsgold import moves as fm
from net.saves import Saved, Store
from net.views import to_view
from tests.hardening.harness import Player, saving_host, start_nuggets

from .harness import Raw, drive, settle


def _game_save(store: Store) -> Saved:
    """The one save of a game in the database (in play, or finished)."""
    idents = [i for i in store.find("") if store.load(i).status != "lobby"]
    assert len(idents) == 1, idents
    return store.load(idents[0])


async def test_every_state_sent_is_already_saved(store_dir):
    """Committed before views: whenever a client reads a state, the database (read by
    another connection) already holds the change that state shows."""
    clock = FakeClock()
    store = Store(store_dir)
    reader = Store(store_dir)
    host, table, ann, bob = await start_nuggets(clock, store)
    watcher = await Raw.open(host.port)
    await watcher.hello("watch", spectate=True)
    checked = 0
    try:
        games = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
        while True:
            message = await asyncio.wait_for(watcher.recv(), 5.0)
            if isinstance(message, p.Over):
                break
            if isinstance(message, p.State) and message.events:
                record = _game_save(reader)
                views = [to_view(v[-1]) for _, v in record.steps()]
                assert message.view in views  # the change is committed
                checked += 1
            if clock.next_due() is not None:
                clock.advance_to(clock.next_due())
        await asyncio.gather(*games)
    finally:
        await host.close()
    assert checked > 10
    record = _game_save(reader)
    assert record.status == "finished" and record.replay().over
    assert len(table.log) == 0  # every move is in the database, none in memory
    assert reader.unfinished() == []
    # the one-file record (motherlode export) is the same game, self-contained
    shared = Saved.parse(record.export())
    assert shared.doc.log == record.doc.log and shared.replay().over


async def test_resume_on_a_new_host_with_tokens_and_finish(store_dir):
    clock = FakeClock()
    store = Store(store_dir)
    host, table, ann, bob = await start_nuggets(clock, store, supply=20)
    play = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
    await drive(clock, lambda: table.moves >= 12)
    for task in play:
        task.cancel()
    moves = table.moves
    tokens = {ann.welcome.seat: ann.welcome.token, bob.welcome.seat: bob.welcome.token}
    await host.close("shutdown")  # the host goes away (a crash: test_crash.py)

    saves, problems = persist.load_all(Store(store_dir))
    assert problems == [] and len(saves) == 1
    saved = saves[0]
    assert len(saved.doc.log) == moves
    assert saved.seat_tokens() == tokens
    # the new host's clock starts at the save's time
    clock2 = FakeClock(persist.resume_time(saves))
    store2 = Store(store_dir)
    host2 = saving_host(clock2, store2)
    await host2.start("127.0.0.1", 0)
    try:
        restored = host2.restore(saved)
        assert restored.phase == "playing" and restored.moves == moves
        assert restored.log_base == moves and restored.log == []  # all in the database
        assert all(s.away_since == clock2.now() for s in restored.seats if s.kind == "human")
        # a forged token is refused; the real ones take the seats back
        forged = await Raw.open(host2.port)
        await forged.send(p.Hello(protocol=3, name="x", token=tokens[1][:-2] + "zz"))
        assert (await forged.expect(p.Error)).code == "bad_token"
        ann2 = await Player.join(host2.port, "Ann", token=tokens[ann.welcome.seat])
        bob2 = await Player.join(host2.port, "Bob", token=tokens[bob.welcome.seat])
        for old, new in ((ann, ann2), (bob, bob2)):
            assert new.welcome.resumed and new.welcome.seat == old.welcome.seat
        # a newcomer gets a member id clear of the restored ones
        watcher = await Raw.open(host2.port)
        await watcher.hello("watch", spectate=True)
        ids = [m.id for m in restored.members]
        assert len(ids) == len(set(ids))
        play = [asyncio.create_task(ann2.play()), asyncio.create_task(bob2.play())]
        await drive(clock2, lambda: all(t.done() for t in play))
        assert ann2.over is not None and ann2.over.winners == bob2.over.winners
    finally:
        await host2.close()
    record = store2.load(saved.id)  # the same save, finished
    assert record.status == "finished"
    driver = record.replay()
    assert driver.over and driver.result()[0] == ann2.over.winners
    assert record.doc.log[:moves] == saved.doc.log  # nothing before the stop lost
    # the game's stats were counted across the restore: every turn of each person
    people = {s.name: s for s in store2.stats()}
    assert set(people) == {"Ann", "Bob"}
    turns = [e for e in record.doc.log for ev in e.events
             if ev["type"] in ("took", "stole", "bust") and ev["seat"] == ann.welcome.seat]
    assert people["Ann"].turns == len(turns) and people["Ann"].played == 1


async def test_foolsgold_deadline_keeps_its_time_left_on_resume(store_dir):
    """The host's clock restarts at the last save: a grab race and a call window that
    were pending keep exactly the time they had left, however long the restored game
    then waits for its players."""
    clock = FakeClock(100.0)
    store = Store(store_dir)
    host = saving_host(clock, store)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Camp", "foolsgold", seats=3, seed="fg", grab_timeout=10.0,
                              call_window=5.0)  # fmt: skip
    raws, tokens = [], []
    for name in ("Ann", "Bob", "Cy"):
        raw = await Raw.open(host.port)
        tokens.append((await raw.hello(name)).token)
        raws.append(raw)
    for raw in raws:
        await raw.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    clock.advance(2.0)
    await raws[0].send(fm.GRAB())  # a bluff, at t=102: the call window opens until 107
    await drive(clock, lambda: table.driver.view(None)["grabbed"])
    grabbed_at = table.driver.view(None)["grabbed"][0][1]
    clock.advance(1.5)  # a second grab at 103.5 is saved
    await raws[1].send(fm.GRAB())
    await drive(clock, lambda: len(table.driver.view(None)["grabbed"]) == 2)
    saved_view = table.driver.view(None)
    await host.close("shutdown")

    saves, _ = persist.load_all(Store(store_dir))
    saved = saves[0]
    start = persist.resume_time(saves)
    assert start == pytest.approx(grabbed_at + 1.5)
    clock2 = FakeClock(start)  # hours of wall time may have passed: they do not count
    store2 = Store(store_dir)
    host2 = saving_host(clock2, store2)

    def since_restore() -> list:  # the moves after the restore, as committed
        return [msgspec.to_builtins(e) for e in store2.load(saved.id).doc.log[saved.moves:]]

    restored = host2.restore(saved)
    view = restored.driver.view(None)
    assert view["deadline"] == saved_view["deadline"] == grabbed_at + 5.0
    left = view["deadline"] - restored.clock(clock2.now())
    assert left == pytest.approx(3.5)
    await host2.start("127.0.0.1", 0)
    try:
        clock2.advance(9.0)  # the players take 9 s to come back: the game waits
        await settle()
        back = []  # held: a dropped reference closes its socket
        for name, token in zip(("Ann", "Bob", "Cy"), tokens, strict=True):
            back.append(await Raw.open(host2.port))
            await back[-1].hello(name, token=token)
        await settle()
        assert restored.waiting_for() == [] and restored.held == pytest.approx(9.0)
        assert restored.driver.view(None)["deadline"] - restored.clock(clock2.now()) == (
            pytest.approx(left)
        )
        clock2.advance(left - 0.01)
        await settle()
        assert restored.driver.view(None)["call_closes"] == grabbed_at + 5.0
        assert not any(e["action"] is None for e in since_restore())  # nothing fired yet
        clock2.advance(0.01)
        await settle()
        fired = [e for e in since_restore() if e["action"] is None]
        assert fired and fired[0]["at"] == pytest.approx(grabbed_at + 5.0)
        assert {"type": "call_window_closed", "at": grabbed_at + 5.0} in fired[0]["events"]
    finally:
        await host2.close()
