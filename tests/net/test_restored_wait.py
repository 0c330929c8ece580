"""A game restored after a crash waits for its people (``Table.hold``): the table's
clock stands still, so no deadline passes and no bot or stand-in acts, game actions
are refused with ``waiting``, and every screen is told who is awaited and for how
long; it goes on once they are all back or the grace period runs out. Sans-I/O: the
table core and a real save file, time passed in by hand."""

from __future__ import annotations

import pytest

from net import protocol as p
from net.games.foolsgold import moves as fm
from net.games.nuggets import moves as nm
from net.saves import Store
from net.table import Refusal, Settings, Table, Tables
from tests.net.helpers import GRACE, Inbox, hello, join, saved_game


def _views(table):
    return [table.driver.view(i) for i in range(len(table.seats))] + [table.driver.view(None)]


@pytest.mark.parametrize("game", ["foolsgold", "nuggets"])
def test_a_restored_game_waits_for_its_people_then_goes_on(game, tmp_path):
    saved, tokens = saved_game(game, tmp_path)
    start = saved.saved_at + 100.0  # the host came back later; the down time never counts
    table = saved.restore(start)
    tables = Tables()
    tables.adopt(table)
    assert table.waiting_for() == [0, 1] and table.clock(start) == pytest.approx(saved.saved_at)
    info = table.info()
    assert info.waiting == [0, 1] and info.wait_left == GRACE
    assert table.next_wakeup() == start + GRACE  # the wait's end, nothing before it
    moves, views = table.moves, _views(table)
    deadline = table.driver.deadline()
    # nothing happens however often the host ticks during the wait
    for t in (start + 1, start + 5, start + 9.99):
        table.tick(t)
    assert table.moves == moves and _views(table) == views
    # Ann is back: she sees the wait, and her actions are refused, changing nothing
    ann_in = Inbox()
    tables.hello(hello("Ann", token=tokens["Ann"]), ann_in.append, lambda r: None, start + 10)
    welcome = ann_in.of(p.Welcome)[0]
    assert welcome.resumed and welcome.table.waiting == [1]
    assert welcome.table.wait_left == pytest.approx(GRACE - 10)
    assert table.waiting_message() == "Waiting for Bob (10 s)"
    ann = table.seats[0].member
    for action in (fm.GRAB(), fm.DRAW(), nm.ROLL(), nm.STOP()):
        table.handle(ann, action, start + 11)
    assert ann_in.errors() == ["waiting"] * 4
    assert "Waiting for Bob" in ann_in.of(p.Error)[0].message
    assert table.moves == moves and _views(table) == views
    # Bob is not back when the grace runs out: a stand-in plays him, the game goes on
    table.tick(start + GRACE)
    assert table.wait_since is None and table.held == pytest.approx(100.0 + GRACE)
    assert table.seats[1].standin and not table.seats[0].standin
    updates = ann_in.of(p.TableUpdate)
    assert updates[-1].table.waiting == [] and updates[-1].table.wait_left is None
    # the game's clock went on from the save: a pending deadline kept its time left
    if deadline is not None:
        assert table.driver.deadline() - table.clock(start + GRACE) == pytest.approx(
            deadline - saved.saved_at
        )
    # and Ann got her view again, on the game's clock, when the game went on
    state = ann_in.of(p.State)[-1]
    assert state.at == pytest.approx(saved.saved_at)
    now = start + GRACE
    while table.moves == moves:
        now = table.next_wakeup()
        table.tick(now)
    first = table.log[-1]
    assert first["at"] - saved.saved_at < 15.0  # not 120 s later: the wait did not count


def test_the_wait_ends_as_soon_as_everyone_is_back(tmp_path):
    saved, tokens = saved_game("foolsgold", tmp_path)
    start = saved.saved_at
    table = saved.restore(start)
    tables = Tables()
    tables.adopt(table)
    inboxes = {}
    for i, name in enumerate(("Ann", "Bob")):
        inboxes[name] = Inbox()
        tables.hello(hello(name, token=tokens[name]), inboxes[name].append, lambda r: None,
                     start + 4 + i)  # fmt: skip
    assert table.wait_since is None and table.held == pytest.approx(5.0)
    assert not any(s.standin for s in table.seats)
    assert inboxes["Ann"].of(p.TableUpdate)[-1].table.waiting == []
    # the next wakeup is on the game's clock again, shifted by the wait
    wake = table.next_wakeup()
    assert wake is not None and wake > start + 5


def test_a_restored_game_without_people_does_not_wait(tmp_path):
    tables = Tables()
    table = tables.add(Table("Bots", "foolsgold", Settings(seats=2, seed="bots", grace=GRACE)))
    store = Store(tmp_path)
    table.on_change = store.touched
    table.add_bot()
    table.add_bot()
    table.start(0.0)
    table.tick(table.next_wakeup())
    saved = store.load(store.unfinished()[0])
    restored = saved.restore(saved.saved_at)
    assert restored.wait_since is None and restored.info().waiting == []
    assert restored.next_wakeup() is not None  # the bots play on at once


def test_a_second_crash_after_a_wait_keeps_the_games_clock(tmp_path):
    """The save carries the table's clock: a game restored twice goes on from the
    time it stood at, whatever the host's clock says."""
    saved, tokens = saved_game("foolsgold", tmp_path)
    start = saved.saved_at + 50.0
    table = saved.restore(start)
    store = Store(tmp_path)
    store.adopt(table, saved)
    table.on_change = store.touched
    tables = Tables()
    tables.adopt(table)
    table.tick(start + GRACE)  # nobody came back: stand-ins play
    now = start + GRACE
    while table.moves < saved.doc.snapshot.entries + 3:
        now = table.next_wakeup()
        table.tick(now)
    store.touched(table, now)
    again = store.load(saved.id)
    assert again.doc.clock == pytest.approx(table.clock(now))
    assert again.saved_at == now and again.doc.clock < now - 60.0
    restored = again.restore(now)
    assert restored.clock(now) == pytest.approx(table.clock(now))
    assert restored.driver.deadline() == table.driver.deadline()
    assert restored.moves == table.moves == len(again.doc.log)


def test_a_person_back_without_their_token_is_told_the_seat_is_kept(tmp_path):
    """Ann's app died with the host, and she comes back from a new one (or an SSH login
    without a key) with no seat token: she is told her seat is kept for the app that
    holds its token, not only that the game has started; a stranger gets the plain
    refusal. Neither changes the table."""
    saved, _ = saved_game("foolsgold", tmp_path)
    start = saved.saved_at + 100.0
    table = saved.restore(start)
    tables = Tables()
    tables.adopt(table)
    moves, views = table.moves, _views(table)
    refused: dict[str, str] = {}
    for name in ("Ann", "Zed"):
        with pytest.raises(Refusal) as caught:
            tables.hello(hello(name, table="Camp"), Inbox().append, lambda r: None, start + 1)
        assert caught.value.code == p.Code.TABLE_FULL
        refused[name] = caught.value.message
    assert "the seat of 'Ann' is kept for the app that holds its seat token" in refused["Ann"]
    assert "without a key" in refused["Ann"] and "spectator" in refused["Ann"]
    assert refused["Zed"] == "The game at 'Camp' has started; join as a spectator to watch."
    assert table.moves == moves and _views(table) == views and table.waiting_for() == [0, 1]


def test_a_person_who_left_the_game_is_told_a_bot_plays_the_seat_to_the_end():
    """Ann left the game (an SSH session that ends leaves it: its token ends with it). A
    new login as Ann is told a bot plays that seat to the end, not that it is kept for
    a token nobody holds; Bob, whose seat is his, still gets the kept-seat answer. The
    table is unchanged."""
    tables = Tables()
    table = tables.add(Table("Camp", "foolsgold", Settings(seats=3, seed="left")))
    ann, _ = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    table.add_bot()
    table.start(0.0)
    table.handle(ann, p.Leave(), 1.0)
    assert table.seats[0].standin and table.seats[0].member is None
    moves, views = table.moves, _views(table)
    refused: dict[str, str] = {}
    for name in ("Ann", "Bob"):
        with pytest.raises(Refusal) as caught:
            tables.hello(hello(name, table="Camp"), Inbox().append, lambda r: None, 2.0)
        assert caught.value.code == p.Code.TABLE_FULL
        refused[name] = caught.value.message
    assert refused["Ann"] == ("The game at 'Camp' has started, and 'Ann' left it: a bot "
                              "plays that seat to the end of this game. Join as a spectator "
                              "to watch.")  # fmt: skip
    assert "the seat of 'Bob' is kept for the app that holds its seat token" in refused["Bob"]
    assert table.moves == moves and _views(table) == views
