"""Saved tables (``net.persist``): saves before views, restore by token, deadlines on
resume, damaged files refused, atomic writes. In-process hosts on a fake clock over
real sockets on 127.0.0.1; the kill -9 suite is ``test_crash.py``."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path

import pytest

from net import persist
from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from net.persist import Saved, SaveError, Store
from net.views import to_view

from .harness import Raw, drive, greedy_nuggets, settle


@pytest.fixture
def store_dir():
    # tmpfs when there is one: fsync is real work on a disk, and these tests save a lot
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        yield Path(directory)


def saving_host(clock, store: Store) -> Host:
    return Host(clock=clock, store=store)


class Player:
    """A scripted Gold Nuggets player on a raw TCP connection (it can resume by token)."""

    def __init__(self, raw: Raw, welcome: p.Welcome) -> None:
        self.raw, self.welcome = raw, welcome
        self.seen: list = []
        self.over: p.Over | None = None

    @classmethod
    async def join(cls, port: int, name: str, token: str | None = None) -> Player:
        raw = await Raw.open(port)
        welcome = await raw.hello(name, token=token)
        return cls(raw, welcome)

    async def play(self) -> None:
        """Play until the game is over."""
        while self.over is None:
            message = await self.raw.recv()
            if message is None:
                return
            self.seen.append(message)
            if isinstance(message, p.Over):
                self.over = message
            elif isinstance(message, p.State) and message.seat == self.welcome.seat:
                view = message.view
                if not view.over and view.current == message.seat:
                    await self.raw.send(greedy_nuggets(view))


async def _start_nuggets(clock, store, supply=12):
    host = saving_host(clock, store)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Saloon", "nuggets", seats=3, bots=1, seed="s", supply=supply,
                              bot_pace=0.5)  # fmt: skip
    ann = await Player.join(host.port, "Ann")
    bob = await Player.join(host.port, "Bob")
    await ann.raw.send(p.Ready())
    await bob.raw.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    return host, table, ann, bob


@pytest.mark.parametrize("spill", [persist.SPILL, 3])
async def test_every_state_sent_is_already_saved(store_dir, spill):
    """Save before views: whenever a client reads a state, the newest save on disk
    already holds the change that state shows (with ``spill=3`` most of it in the
    history file)."""
    clock = FakeClock()
    store = Store(store_dir / "tables", store_dir / "games", spill=spill)
    host, table, ann, bob = await _start_nuggets(clock, store)
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
                files = list((store_dir / "tables").glob("*.json"))
                files += list((store_dir / "games").glob("*.json"))
                files = [f for f in files if Saved.load(f).status != "lobby"]
                assert len(files) == 1
                record = Saved.load(files[0])
                views = [to_view(v[-1]) for _, v in record.steps()]
                assert message.view in views  # the change is on disk
                checked += 1
            if clock.next_due() is not None:
                clock.advance_to(clock.next_due())
        await asyncio.gather(*games)
    finally:
        await host.close()
    assert checked > 10
    record = Saved.load(next((store_dir / "games").glob("*.json")))
    assert record.status == "finished" and record.replay().over
    assert record.doc.history is None  # the archive is one self-contained file
    assert not list((store_dir / "tables").iterdir())  # the save and its history


@pytest.mark.parametrize("spill", [persist.SPILL, 5])
async def test_resume_on_a_new_host_with_tokens_and_finish(store_dir, spill):
    clock = FakeClock()
    store = Store(store_dir / "tables", store_dir / "games", spill=spill)
    host, table, ann, bob = await _start_nuggets(clock, store, supply=20)
    play = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
    await drive(clock, lambda: table.moves >= 12)
    for task in play:
        task.cancel()
    moves = table.moves
    tokens = {ann.welcome.seat: ann.welcome.token, bob.welcome.seat: bob.welcome.token}
    await host.close("shutdown")  # the host goes away (a crash: test_crash.py)

    saves, problems = persist.load_all(Store(store_dir / "tables", store_dir / "games"))
    assert problems == [] and len(saves) == 1
    saved = saves[0]
    assert len(saved.doc.log) == moves
    assert (saved.history_entries > 0) == (spill < moves)  # the history file is read
    assert saved.seat_tokens() == tokens
    # the new host's clock starts at the save's time
    clock2 = FakeClock(persist.resume_time(saves))
    host2 = saving_host(clock2, Store(store_dir / "tables", store_dir / "games", spill=spill))
    await host2.start("127.0.0.1", 0)
    try:
        restored = host2.restore(saved)
        assert restored.phase == "playing" and restored.moves == moves
        assert restored.log_base == saved.history_entries and len(restored.log) < spill
        assert all(s.away_since == clock2.now() for s in restored.seats if s.kind == "human")
        # a forged token is refused; the real ones take the seats back
        forged = await Raw.open(host2.port)
        await forged.send(p.Hello(protocol=1, name="x", token=tokens[1][:-2] + "zz"))
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
    record = Saved.load(next((store_dir / "games").glob("*.json")))
    assert record.status == "finished"
    driver = record.replay()
    assert driver.over and driver.result()[0] == ann2.over.winners
    assert record.doc.log[moves - 1] == saved.doc.log[-1]  # nothing before the stop lost


async def test_foolsgold_deadline_keeps_its_time_left_on_resume(store_dir):
    """The host's clock restarts at the last save: a grab race and a call window that
    were pending keep exactly the time they had left, however long the restored game
    then waits for its players."""
    clock = FakeClock(100.0)
    store = Store(store_dir / "tables", store_dir / "games")
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
    await raws[0].send(p.Grab())  # a bluff, at t=102: the call window opens until 107
    await drive(clock, lambda: table.driver.view(None)["grabbed"])
    grabbed_at = table.driver.view(None)["grabbed"][0][1]
    clock.advance(1.5)  # a second grab at 103.5 is saved
    await raws[1].send(p.Grab())
    await drive(clock, lambda: len(table.driver.view(None)["grabbed"]) == 2)
    saved_view = table.driver.view(None)
    await host.close("shutdown")

    saves, _ = persist.load_all(Store(store_dir / "tables", store_dir / "games"))
    saved = saves[0]
    start = persist.resume_time(saves)
    assert start == pytest.approx(grabbed_at + 1.5)
    clock2 = FakeClock(start)  # hours of wall time may have passed: they do not count
    host2 = saving_host(clock2, Store(store_dir / "tables", store_dir / "games"))
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
        assert not any(e["action"] is None for e in restored.log)  # nothing fired yet
        clock2.advance(0.01)
        await settle()
        fired = [e for e in restored.log if e["action"] is None]
        assert fired and fired[0]["at"] == pytest.approx(grabbed_at + 5.0)
        assert {"type": "call_window_closed", "at": grabbed_at + 5.0} in fired[0]["events"]
    finally:
        await host2.close()


def _saved_bytes(store_dir: Path) -> tuple[Path, bytes]:
    path = next((store_dir / "tables").glob("*.json"))
    return path, path.read_bytes()


async def _a_saved_game(store_dir: Path) -> tuple[Path, bytes]:
    clock = FakeClock()
    host, table, ann, bob = await _start_nuggets(clock, Store(store_dir / "tables"), supply=30)
    play = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
    await drive(clock, lambda: table.moves >= 8)
    for task in play:
        task.cancel()
    await host.close()
    return _saved_bytes(store_dir)


def _tamper(data: bytes, change) -> bytes:
    doc = json.loads(data)
    change(doc)
    return json.dumps(doc).encode()


async def test_damaged_saves_are_refused_with_a_reason_and_kept(store_dir):
    path, good = await _a_saved_game(store_dir)
    assert Saved.parse(good).replay() is not None

    def events(doc):
        doc["log"][1]["events"][0]["seat"] = 9

    def snapshot(doc):
        doc["snapshot"]["public"]["supply"] += 1

    def seed(doc):
        doc["game"]["seed"] = "other"

    def drop_move(doc):
        del doc["log"][2]

    def version(doc):
        doc["version"] = 99

    cases = {
        "cut short": good[: len(good) // 2],
        "not JSON": b"\x00\xff garbage",
        "another file": b'{"hello": 1}',
        "wrong version": _tamper(good, version),
        "other events": _tamper(good, events),
        "other snapshot": _tamper(good, snapshot),
        "other seed": _tamper(good, seed),
        "a move missing": _tamper(good, drop_move),
    }
    expected = {
        "cut short": "not a whole save",
        "not JSON": "not a whole save",
        "another file": "not a Motherlode save",
        "wrong version": "format version 99",
        "other events": "does not replay",
        "other snapshot": "differs from its snapshot",
        "other seed": "seed does not match",
        "a move missing": "",
    }
    for case, data in cases.items():
        path.write_bytes(data)
        store = Store(store_dir / "tables")
        saves, problems = persist.load_all(store)
        if saves:  # the file reads: restoring it replays and checks it
            with pytest.raises(SaveError) as caught:
                saves[0].restore(saves[0].saved_at)
            problems = [str(caught.value)]
        assert len(problems) == 1, case
        assert str(path) in problems[0] and expected[case] in problems[0], (case, problems)
        assert path.read_bytes() == data  # kept as it was


async def test_a_failed_write_leaves_the_last_save_whole(store_dir):
    path, good = await _a_saved_game(store_dir)
    for stage in ("written", "synced"):

        def fail(name, stage=stage):
            if name == stage:
                raise OSError(28, "No space left on device")

        with pytest.raises(OSError):
            persist.atomic_write(path, b'{"torn": true}', fail)
        assert path.read_bytes() == good
        assert [f.name for f in path.parent.iterdir()] == [path.name]  # no temp left
    # a crash mid-write leaves a temp file: it is swept, never read as a save
    (path.parent / f".{path.name}.abc.tmp").write_bytes(b'{"torn"')
    saves, problems = persist.load_all(Store(path.parent))
    assert problems == [] and len(saves) == 1
    assert [f.name for f in path.parent.iterdir()] == [path.name]
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # tokens and the seed are private


async def test_a_failing_disk_is_reported_once_and_the_game_goes_on(store_dir):
    reports: list[str] = []
    blocked = store_dir / "file"
    blocked.write_text("not a directory")
    store = Store(blocked / "tables", report=reports.append)
    clock = FakeClock()
    host = saving_host(clock, store)
    table = host.create_table("T", "nuggets", seats=2, bots=2, seed="x", supply=8, bot_pace=0.1)
    host.start_game(table)
    await drive(clock, lambda: table.phase == "over")
    await host.close()
    assert len([r for r in reports if "cannot save" in r]) == 1


async def test_replay_steps_show_each_seat_only_its_own_hand(store_dir):
    clock = FakeClock()
    store = Store(store_dir / "tables", store_dir / "games")
    host = saving_host(clock, store)
    table = host.create_table("Camp", "foolsgold", seats=3, bots=3, seed="r", bot_pace=0.2)
    host.start_game(table)
    await drive(clock, lambda: table.driver.match.round_no >= 2 or table.phase == "over")
    await host.close()
    saved = Saved.load(next((store_dir / "tables").glob("*.json")))
    steps = saved.steps()
    assert len(steps) == len(saved.doc.log) + 1
    step, views = steps[-1]
    assert [v["seat"] for v in views] == [0, 1, 2, None]
    assert views[-1]["hand"] is None
    hands = [v["hand"] for v in views[:-1]]
    assert all(isinstance(h, list) for h in hands)
    # what replays is what the table showed: the last step's public view
    assert views[-1] == json.loads(json.dumps(table.driver.view(None)))


async def test_a_long_match_keeps_memory_and_the_save_flat(store_dir):
    """A Fool's Gold match of many rounds: the table never holds more than ``spill``
    entries, the save stays small while the history grows, a restore at any point of
    it rebuilds the same game, and the finished game is one self-contained record."""
    clock = FakeClock()
    store = Store(store_dir / "tables", store_dir / "games", spill=32)
    host = saving_host(clock, store)
    table = host.create_table("Camp", "foolsgold", seats=4, bots=4, seed="long", bot_pace=0.2)
    host.start_game(table)
    live = store_dir / "tables"
    longest, biggest, history, checks = 0, 0, 0, 0

    def watch() -> bool:
        nonlocal longest, biggest, history, checks
        longest = max(longest, len(table.log))
        for path in live.glob("*.json"):
            biggest = max(biggest, path.stat().st_size)
            if table.moves > 60 * (checks + 1):  # now and then: the save restores
                checks += 1
                saved = Saved.load(path)
                restored = saved.restore(saved.saved_at)
                assert restored.moves == len(saved.doc.log) == table.moves
                assert restored.log == table.log and restored.log_base == table.log_base
                assert _digest(restored) == _digest(table)
        for path in live.glob("*.history"):
            history = max(history, path.stat().st_size)
        return table.phase == "over"

    await drive(clock, watch)
    await host.close()
    assert table.driver.match.round_no >= 3 and checks >= 5
    assert longest <= 32
    assert history > 4 * biggest  # most of the game is in the history, not the save
    assert not list(live.iterdir())
    record = next((store_dir / "games").glob("*.json"))
    saved = Saved.parse(record.read_bytes())  # no other file needed
    assert saved.status == "finished" and len(saved.doc.log) == table.moves
    assert saved.replay().result() == table.driver.result()


def _digest(table) -> str:
    return persist._digest(table.driver, len(table.seats))


async def _a_game_with_history(store_dir: Path) -> tuple[Path, Path]:
    clock = FakeClock()
    store = Store(store_dir / "tables", spill=4)
    host, table, ann, bob = await _start_nuggets(clock, store, supply=30)
    play = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
    await drive(clock, lambda: table.moves >= 14)
    for task in play:
        task.cancel()
    await host.close()
    path = next((store_dir / "tables").glob("*.json"))
    return path, path.with_suffix(".history")


async def test_a_damaged_history_is_refused_and_a_torn_append_ignored(store_dir):
    path, history = await _a_game_with_history(store_dir)
    saved = Saved.load(path)
    assert saved.history_entries >= 8 and len(saved.doc.log) >= 14
    good = history.read_bytes()
    committed = saved.doc.history.bytes

    def edited(data: bytes) -> bytes:
        return data.replace(b'"by":"player"', b'"by":"bot"', 1)

    cases = {
        "cut short": (good[: committed // 2], "does not match its history"),
        "edited": (edited(good), "does not match its history"),
        "missing": (None, "cannot be read"),
    }
    for case, (data, expected) in cases.items():
        if data is None:
            history.unlink()
        else:
            history.write_bytes(data)
        saves, problems = persist.load_all(Store(store_dir / "tables"))
        assert saves == [] and len(problems) == 1, case
        assert str(path) in problems[0] and expected in problems[0], (case, problems)
        assert path.exists()  # kept as it was
        if data is not None:
            assert history.read_bytes() == data
    # a save naming someone else's history is refused too
    history.write_bytes(good)
    original = path.read_bytes()
    path.write_bytes(_tamper(original, lambda d: d["history"].update(file="../x.history")))
    saves, problems = persist.load_all(Store(store_dir / "tables"))
    assert saves == [] and "not its own" in problems[0]
    path.write_bytes(original)

    # a crash in the middle of an append leaves bytes past the committed length: they
    # are ignored, and the next append writes over them
    history.write_bytes(good + b'{"at": 1.0, "by": "pla')
    saves, problems = persist.load_all(Store(store_dir / "tables"))
    assert problems == [] and len(saves) == 1
    clock = FakeClock(persist.resume_time(saves))
    host = saving_host(clock, Store(store_dir / "tables", store_dir / "games", spill=4))
    table = host.restore(saves[0])
    for i, seat in enumerate(table.seats):
        if seat.kind != "bot":
            table._stand_in(i, clock.now())  # play on without the people
    host.touched(table)
    await drive(clock, lambda: table.phase == "over")
    await host.close()
    record = Saved.load(next((store_dir / "games").glob("*.json")))
    assert record.doc.log[: len(saved.doc.log)] == saved.doc.log
    assert record.replay().over
    assert not list((store_dir / "tables").iterdir())


async def test_abandon_and_sweep_keep_the_history(store_dir):
    path, history = await _a_game_with_history(store_dir)
    saved = Saved.load(path)
    store = Store(store_dir / "tables", store_dir / "games")
    # a stray history without its save (a crash between the deletes) is swept
    stray = path.parent / "old-game.history"
    stray.write_bytes(b"{}\n")
    assert store.sweep() == 1 and not stray.exists() and history.exists()
    target = store.abandon(path)
    assert not path.exists() and not history.exists()
    record = Saved.parse(target.read_bytes())
    assert record.status == "abandoned" and record.doc.log == saved.doc.log
    assert record.replay() is not None
    # a live save whose game is already archived (a crash before its delete) is swept
    path.write_bytes(b"{}")
    history.write_bytes(b"{}\n")
    assert store.sweep() == 2 and not path.exists() and not history.exists()


async def test_version_1_saves_still_load(store_dir):
    path, good = await _a_saved_game(store_dir)
    doc = json.loads(good)
    assert doc["history"] is None
    doc["version"] = 1
    del doc["history"]
    path.write_bytes(json.dumps(doc).encode())
    saves, problems = persist.load_all(Store(store_dir / "tables"))
    assert problems == [] and saves[0].replay() is not None
    assert Store(store_dir / "tables").abandon(path).exists()
