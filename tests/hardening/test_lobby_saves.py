"""Lobby saves (``net.saves``): a table outside a game is saved while a person holds
a seat, so every token survives a crash; one save per table to resume; a clean close
removes it. In-process hosts on a fake clock over real sockets; the kill -9 version is
``test_lobby_resume.py``."""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest

from net import protocol as p
from net import saves as persist
from net.clock import FakeClock
from net.host import Host
from net.saves import Saved, SaveError, Store
from net.table import Settings, Table, Tables
from tests.hardening.harness import Player
from tests.net.helpers import hello, join

from .harness import drive, settle


@pytest.fixture
def store_dir():
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        yield Path(directory)


# the stores of the hosts a test runs, by directory: their writer threads' batches are
# committed before a read from another connection (``_committed``)
_HOST_STORES: dict[Path, list[Store]] = {}


def _host_store(store_dir: Path, **options) -> Store:
    store = Store(store_dir, **options)
    _HOST_STORES.setdefault(store_dir, []).append(store)
    return store


def _committed(store_dir: Path) -> None:
    """Every change the hosts of ``store_dir`` queued so far, committed."""
    for store in _HOST_STORES.get(store_dir, ()):
        store.flush()


def _live(store_dir: Path) -> list[Saved]:
    """The saves to resume (LAN tables), as another connection reads them."""
    _committed(store_dir)
    store = Store(store_dir)
    try:
        return [store.load(ident) for ident in store.unfinished()]
    finally:
        store.close()


async def _crash(host: Host, store_dir: Path) -> None:
    """Close ``host`` as a crash would: its saves stay as they were (no clean close
    removes the lobby saves)."""
    host.store.closed = lambda table: None
    await host.close()


def _sql(store_dir: Path, sql: str, *args) -> list:
    _committed(store_dir)
    conn = sqlite3.connect(store_dir / "motherlode.db")
    try:
        rows = conn.execute(sql, args).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()


def _copy_row(store_dir: Path, row: tuple, ident: str | None = None, change=None,
              wall: float | None = None) -> None:  # fmt: skip
    """Put a saves row back (as an old file would have been imported), with another id,
    document or time if asked."""
    row = list(row)
    doc = json.loads(row[9])
    if ident is not None:
        row[0] = doc["id"] = ident
    if change is not None:
        change(doc)
    row[9] = json.dumps(doc).encode()
    if wall is not None:
        row[8] = wall
    _sql(store_dir, "INSERT OR REPLACE INTO saves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", *row)


async def _lobby(store_dir: Path, **store_options):
    clock = FakeClock(50.0)
    host = Host(clock=clock, store=_host_store(store_dir, **store_options))
    await host.start("127.0.0.1", 0)
    table = host.create_table("Saloon", "nuggets", seats=3, seed="lobby", supply=6,
                              bot_pace=0.5, first_player=0)  # fmt: skip
    return clock, host, table


async def test_a_lobby_is_saved_while_someone_holds_a_seat_and_restored_by_token(store_dir):
    clock, host, table = await _lobby(store_dir)
    table.add_bot()
    host.touched(table)
    assert _live(store_dir) == []  # only bots: nobody to come back
    ann = await Player.join(host.port, "Ann")
    # the token was on disk before the welcome that carried it
    saved = _live(store_dir)
    assert [s.status for s in saved] == ["lobby"]
    assert saved[0].seat_tokens() == {ann.welcome.seat: ann.welcome.token}
    await ann.raw.send(p.Configure(game={"supply": 4}, grace=45.0))
    await ann.raw.send(p.Ready())
    await ann.raw.expect(p.TableUpdate, lambda m: m.table.seats[ann.welcome.seat].ready)
    saved = _live(store_dir)[0]
    assert saved.settings().game["supply"] == 4
    assert saved.doc.owner == int(ann.welcome.token.split(".")[0])
    assert "in the lobby" in saved.describe() and "Ann" in saved.describe()
    with pytest.raises(SaveError, match="holds no game"):
        saved.replay()
    await _crash(host, store_dir)
    saves, problems = persist.load_all(Store(store_dir))
    assert problems == [] and len(saves) == 1
    clock2 = FakeClock(persist.resume_time(saves))
    host2 = Host(clock=clock2, store=_host_store(store_dir))
    calls = []
    host2.on_table_update(calls.append)
    await host2.start("127.0.0.1", 0)
    try:
        restored = host2.restore(saves[0])
        assert restored.phase == "lobby" and restored.settings.game["supply"] == 4
        assert [s.kind for s in restored.seats] == ["bot", "human"]
        assert not restored.seats[1].ready  # back, not ready
        back = await Player.join(host2.port, "Ann", token=ann.welcome.token)
        assert back.welcome.resumed and back.welcome.seat == 1
        assert restored.owner is restored.seats[1].member
        assert calls and calls[-1] is restored  # the update hook is wired for it too
        # the same save goes on; a game replaces it with the game's save
        await back.raw.send(p.Ready())
        await back.raw.send(p.Start())
        await drive(clock2, lambda: restored.phase == "playing")
        assert [s.status for s in _live(store_dir)] == ["playing"]
    finally:
        await host2.close()


async def test_between_games_the_table_is_saved_and_a_clean_close_removes_it(store_dir):
    clock, host, table = await _lobby(store_dir)
    ann = await Player.join(host.port, "Ann")
    table.add_bot()
    await ann.raw.send(p.Ready())
    await ann.raw.send(p.Start())
    await drive(clock, lambda: table.phase == "playing")
    await ann.play()
    await drive(clock, lambda: table.phase == "over")
    host.touched(table)
    saved = _live(store_dir)
    assert [s.status for s in saved] == ["lobby"] and saved[0].doc.phase == "over"
    assert saved[0].doc.result["seed"] == "lobby" and "between games" in saved[0].describe()
    kept = Store(store_dir).kept()
    assert [k.status for k in kept] == ["finished"]  # the game is kept
    await host.close()
    assert _live(store_dir) == []  # everyone was told goodbye: nothing to resume


async def test_one_save_per_table_is_resumed(store_dir):
    """A game's start replaces the lobby's save in one commit. Should both be there
    (old save files imported from a crash between their two writes), the game wins.
    Two lobby saves of one table with the same people: the newer wins. The loser is
    deleted. Saves of one name with nobody in common are all kept."""
    clock, host, table = await _lobby(store_dir)
    ann = await Player.join(host.port, "Ann")
    (lobby_row,) = _sql(store_dir, "SELECT * FROM saves WHERE status = 'lobby'")
    table.add_bot()
    await ann.raw.send(p.Ready())
    await ann.raw.send(p.Start())
    await drive(clock, lambda: table.phase == "playing")
    assert [s.status for s in _live(store_dir)] == ["playing"]  # the lobby's went with it
    await host.close()
    _copy_row(store_dir, lobby_row)  # as if a crash came between two writes
    saves, problems = persist.load_all(Store(store_dir))
    assert problems == [] and [s.status for s in saves] == ["playing"]
    assert _sql(store_dir, "SELECT id FROM saves WHERE status = 'lobby'") == []
    # two lobbies of one table: the newer one is resumed
    Store(store_dir).delete(saves[0].id)
    _copy_row(store_dir, lobby_row, "saloon-older", wall=1.0)
    _copy_row(store_dir, lobby_row)
    saves, problems = persist.load_all(Store(store_dir))
    assert [s.id for s in saves] == [lobby_row[0]]
    assert _sql(store_dir, "SELECT id FROM saves") == [(lobby_row[0],)]
    # a lobby of another host of the same name (nobody in common) is kept: the host
    # restores one and refuses the other by name, deleting nothing

    def other_people(doc):
        for member in doc["members"]:
            member["secret"] = "another-" + member["secret"]

    _copy_row(store_dir, lobby_row, "saloon-other", other_people)
    saves, problems = persist.load_all(Store(store_dir))
    assert sorted(s.id for s in saves) == sorted([lobby_row[0], "saloon-other"])
    host2 = Host(clock=FakeClock(persist.resume_time(saves)))
    host2.restore(saves[0])
    with pytest.raises(SaveError, match="already a table called 'Saloon'"):
        host2.restore(saves[1])
    assert len(_sql(store_dir, "SELECT id FROM saves")) == 2


async def test_a_hot_seat_store_keeps_no_lobby_and_a_damaged_lobby_is_refused(store_dir):
    clock, host, table = await _lobby(store_dir, lobbies=False)
    await Player.join(host.port, "Ann")
    await settle()
    assert _live(store_dir) == []
    assert Store.default("hotseat").lobbies is False and Store.default("tables").lobbies
    await host.close()
    clock, host, table = await _lobby(store_dir)
    await Player.join(host.port, "Ann")
    await _crash(host, store_dir)
    ((ident, good),) = _sql(store_dir, "SELECT id, doc FROM saves")
    doc = json.loads(good)
    doc["seats"][0]["member"] = None
    with pytest.raises(SaveError, match="a lobby seat has no player"):
        Saved.parse(json.dumps(doc).encode()).restore(1e6)
    doc = json.loads(good)
    doc["phase"] = "playing"
    with pytest.raises(SaveError, match="unknown phase"):
        Saved.parse(json.dumps(doc).encode())
    doc = json.loads(good)
    doc["status"] = "playing"  # a game save without its game
    with pytest.raises(SaveError, match="without its game"):
        Saved.parse(json.dumps(doc).encode())
    # giving a lobby save up deletes it: there is no game to replay
    assert Store(store_dir).abandon(ident) == ident and _live(store_dir) == []


async def test_a_restored_table_whose_name_is_taken_is_refused_with_a_save_error(store_dir):
    clock, host, table = await _lobby(store_dir)
    await Player.join(host.port, "Ann")
    await _crash(host, store_dir)
    saves, _ = persist.load_all(Store(store_dir))
    host2 = Host(clock=FakeClock(1e3))
    host2.create_table("Saloon", "nuggets")
    with pytest.raises(SaveError, match="already a table"):
        host2.restore(saves[0])


def test_every_lobby_change_is_on_disk_before_anyone_sees_it(store_dir):
    """At the table core, with no host to save after the fact: each ``table`` update a
    spectator receives is already in the lobby save (seats, settings, owner)."""
    tables = Tables()
    table = tables.add(Table("Saloon", "nuggets", Settings(seats=4, seed="x")))
    table.on_change = Store(store_dir).touched
    checked = []

    def watch(message):
        if not isinstance(message, p.TableUpdate):
            return
        if not any(s.kind == "human" for s in message.table.seats):
            assert _live(store_dir) == []  # nobody to come back: no save
            return
        (saved,) = _live(store_dir)
        assert [s.name for s in saved.doc.seats] == [s.name for s in message.table.seats]
        assert saved.settings().info() == message.table.settings
        owner = next(m for m in saved.doc.members if m.id == saved.doc.owner)
        assert message.table.seats[message.table.owner].name == owner.name
        checked.append(message)

    tables.hello(hello("watch", spectate=True), watch, lambda r: None, 0.0)
    ann, _ = join(tables, "Ann", now=1.0)
    bob, _ = join(tables, "Bob", now=2.0)
    cy, _ = join(tables, "Cy", now=2.5)
    table.handle(ann, p.Configure(game={"supply": 9}, first_player=2), 3.0)
    table.handle(ann, p.AddBot(), 4.0)
    table.handle(ann, p.RemoveBot(seat=3), 5.0)
    table.handle(bob, p.Leave(), 6.0)
    table.handle(ann, p.Leave(), 7.0)  # the owner goes: Cy owns the table
    table.handle(cy, p.Leave(), 8.0)  # nobody left: the save goes
    assert len(checked) == 8 and _live(store_dir) == []
    # the first player stays Cy as her seat moves down twice
    assert [m.table.settings.first_player for m in checked[-3:]] == [2, 1, 0]
