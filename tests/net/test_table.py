"""The sans-I/O table core: plain calls with an explicit ``now``, no sockets, no clock."""

import pytest

from net import protocol as p
from net.games.foolsgold import moves as fm
from net.games.nuggets import moves as nm
from net.protocol import Code
from tests.net.helpers import Inbox, hello, join, nuggets_table

from .helpers import greedy_nuggets


def run_until(table, predicate, start=0.0, step=0.25, limit=5000):
    """Advance the table's own time from wakeup to wakeup until predicate()."""
    now = start
    for _ in range(limit):
        if predicate():
            return now
        wake = table.next_wakeup()
        now = max(now + step, wake) if wake is None else max(now, wake)
        table.tick(now)
    raise AssertionError("the table never got there")


def test_lobby_owner_bots_and_start():
    tables, table = nuggets_table(seed="t1", bot_pace=0.5)
    ann, inbox = join(tables, "Ann")
    assert table.owner is ann and inbox.of(p.Welcome)[0].seat == 0
    bob, bob_inbox = join(tables, "Bob")
    table.handle(bob, p.AddBot(), 1.0)
    assert bob_inbox.errors() == [Code.NOT_OWNER]
    table.handle(ann, p.AddBot(difficulty="impossible"), 1.0)
    assert inbox.errors() == [Code.BAD_SETTING]
    table.handle(ann, p.AddBot(difficulty="hard"), 1.0)
    assert [s.kind for s in table.seats] == ["human", "human", "bot"]
    table.handle(ann, p.AddBot(), 1.0)
    assert inbox.errors()[-1] == Code.TABLE_FULL
    table.handle(ann, p.Start(), 2.0)
    assert inbox.errors()[-1] == Code.NOT_READY and "Bob" in inbox.of(p.Error)[-1].message
    table.handle(bob, p.Ready(), 2.0)
    assert table.phase == "lobby"  # the owner is not ready yet
    table.handle(ann, p.Ready(), 2.0)  # a full table with everyone ready starts
    assert table.phase == "playing"
    assert inbox.of(p.Started) and bob_inbox.of(p.Started)
    # lobby requests are refused during the game
    table.handle(ann, p.Configure(seats=2), 3.0)
    assert inbox.errors()[-1] == Code.NOT_IN_LOBBY


def test_a_game_with_a_bot_runs_to_the_end_on_its_own_time():
    tables, table = nuggets_table(seats=2, seed="t2", bot_pace=0.5)
    ann, inbox = join(tables, "Ann")
    table.add_bot("normal")
    table.handle(ann, p.Start(), 0.0)

    def ann_moves():
        state = inbox.of(p.State)[-1]
        view = state.view
        if not view.over and view.current == 0:
            table.handle(ann, greedy_nuggets(view), now_box[0])
        return table.phase == "over"

    now_box = [0.0]
    now = 0.0
    for _ in range(20_000):
        if ann_moves():
            break
        wake = table.next_wakeup()
        now = max(now, wake) if wake is not None else now + 1
        now_box[0] = now
        table.tick(now)
    assert table.phase == "over"
    assert inbox.errors() == []
    over = inbox.of(p.Over)[0]
    assert over.seed == "t2"
    by = {entry["by"] for entry in table.log}
    assert by == {"player", "bot"}
    # the bot waited its pace before every action
    bot_times = [e["at"] for e in table.log if e["by"] == "bot"]
    assert bot_times and all(t > 0 for t in bot_times)


def test_actions_refused_with_codes_and_state_unchanged():
    tables, table = nuggets_table(seats=2, seed="t3", first_player=0)
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    watcher, w = join(tables, "Cy", spectate=True)
    table.handle(ann, nm.ROLL(), 0.0)
    assert a.errors() == [Code.NOT_PLAYING]
    table.handle(bob, p.Ready(), 0.0)
    table.handle(ann, p.Start(), 0.0)
    before = table.driver.view(None)
    table.handle(bob, nm.ROLL(), 1.0)  # out of turn: the host names whose turn it is
    assert b.of(p.Error)[-1].code == Code.ILLEGAL_ACTION
    assert "Ann's turn" in b.of(p.Error)[-1].message
    table.handle(ann, nm.KEEP(faces=["3"]), 1.0)  # wrong phase: the rules' own message
    assert a.of(p.Error)[-1].code == Code.ILLEGAL_ACTION
    assert "roll first" in a.of(p.Error)[-1].message
    table.handle(ann, nm.ROLL(seat=1), 1.0)  # for another seat
    assert a.of(p.Error)[-1].code == Code.NOT_YOUR_SEAT
    table.handle(ann, fm.GRAB(), 1.0)  # the other game's action
    assert a.of(p.Error)[-1].code == Code.WRONG_GAME
    table.handle(watcher, nm.ROLL(), 1.0)
    assert w.of(p.Error)[-1].code == Code.NOT_SEATED
    table.handle(ann, nm.KEEP(faces=["seven"]), 1.0)
    assert a.of(p.Error)[-1].code == Code.ILLEGAL_ACTION
    assert table.driver.view(None) == before
    # an illegal roll does not use up the seeded dice
    table.handle(ann, nm.ROLL(), 2.0)
    assert a.of(p.State)[-1].view.rolled is not None


def test_hello_refusals():
    tables, table = nuggets_table(seats=2)
    with pytest.raises(Exception) as info:
        tables.hello(p.Hello(protocol=5, name="Ann"), print, print, 0.0)
    assert info.value.code == Code.BAD_VERSION
    with pytest.raises(Exception) as info:
        tables.hello(hello("\x1b[2J\x07"), print, print, 0.0)
    assert info.value.code == Code.BAD_NAME
    with pytest.raises(Exception) as info:
        tables.hello(hello("x" * 21), print, print, 0.0)
    assert info.value.code == Code.BAD_NAME
    with pytest.raises(Exception) as info:
        tables.hello(hello("Ann", table="Nowhere"), print, print, 0.0)
    assert info.value.code == Code.NO_SUCH_TABLE and "Saloon" in info.value.message
    join(tables, "Ann")
    join(tables, "Bob")
    with pytest.raises(Exception) as info:
        tables.hello(hello("Cy"), print, print, 0.0)
    assert info.value.code == Code.TABLE_FULL
    for token in ["1.forged", "999999.x", "nonsense", "", "1." + "A" * 32]:
        with pytest.raises(Exception) as info:
            tables.hello(hello("Ann", token=token), print, print, 0.0)
        assert info.value.code == Code.BAD_TOKEN


def test_names_are_cleaned_and_clashes_get_suffixes():
    tables, table = nuggets_table(seats=5)
    names = []
    for raw in ["Ann", "ann", "\x1b[31mAnn\x1b[0m", "A" * 20, "A" * 20]:
        member, inbox = join(tables, raw)
        names.append(member.name)
    assert names == ["Ann", "ann 2", "Ann 3", "A" * 20, "A" * 18 + " 2"]
    assert all(len(n) <= 20 for n in names)


def test_chat_is_cleaned_and_bounded():
    tables, table = nuggets_table()
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    table.handle(ann, p.Chat(text="hi \x1b[31mthere\x1b]0;x\x07\x9b2J"), 5.0)
    line = b.of(p.ChatLine)[-1]
    assert (line.name, line.seat, line.text, line.at) == ("Ann", 0, "hi there", 5.0)
    table.handle(ann, p.Chat(text="x" * 201), 5.0)
    table.handle(ann, p.Chat(text="\x07\x1b[0m"), 5.0)
    assert a.errors() == [Code.BAD_TEXT, Code.BAD_TEXT]
    assert len(b.of(p.ChatLine)) == 1


def test_configure():
    tables, table = nuggets_table(seats=3)
    ann, a = join(tables, "Ann")
    table.handle(ann, p.Configure(seats=5, first_player=1, grace=10.0, hotseat=True), 0.0)
    s = table.settings
    assert (s.seats, s.first_player, s.grace, s.hotseat) == (5, 1, 10.0, True)
    table.handle(ann, p.Configure(seats=9), 0.0)
    table.handle(ann, p.Configure(grace=-1.0, seats=4), 0.0)  # all or nothing
    assert a.errors() == [Code.BAD_SETTING, Code.BAD_SETTING]
    assert table.settings.seats == 5
    assert a.of(p.TableUpdate)[-1].table.settings.hotseat is True


def test_hotseat_one_connection_plays_several_seats():
    tables, table = nuggets_table(seats=3, seed="hs")
    ann, a = join(tables, "Ann")
    table.handle(ann, p.AddLocal(name="Bea"), 0.0)
    assert a.errors() == [Code.HOTSEAT_OFF]
    table.handle(ann, p.Configure(hotseat=True), 0.0)
    table.handle(ann, p.AddLocal(name="Bea"), 0.0)
    table.handle(ann, p.AddLocal(name="Cal"), 0.0)
    assert a.of(p.Welcome)[-1].seats == [0, 1, 2]
    table.handle(ann, p.Start(), 0.0)
    assert table.phase == "playing"
    now = 0.0
    while table.phase == "playing":
        now += 1
        states = [m for m in a.of(p.State)]
        view = states[-1].view
        assert {m.seat for m in states[-3:]} == {0, 1, 2}  # every seat's view, each change
        current = view.current
        action = greedy_nuggets(view)
        if now % 2:
            action.seat = current  # explicit seat
        table.handle(ann, action, now)  # or the seat whose turn it is
    assert a.errors() == [Code.HOTSEAT_OFF]  # only the one before hot-seat was allowed


def test_drop_grace_stand_in_and_resume():
    tables, table = nuggets_table(seats=2, seed="r1", grace=30.0, bot_pace=0.5, first_player=0)
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    token = b.of(p.Welcome)[0].token
    assert len(token.split(".")[1]) >= 22  # >= 128 bits
    table.handle(bob, p.Ready(), 0.0)
    table.handle(ann, p.Start(), 0.0)
    table.disconnect(bob, 1.0)
    assert a.of(p.Notice)[-1].event == "away"
    assert table.next_wakeup() == 31.0
    # Ann plays her turn; Bob's turn waits for the grace period, then a stand-in plays
    while table.driver.view(None)["current"] == 0:
        table.handle(ann, greedy_nuggets(a.of(p.State)[-1].view), 2.0)
    table.tick(30.0)
    assert not table.seats[1].standin
    table.tick(31.0)
    assert table.seats[1].standin
    assert a.of(p.Notice)[-1].event == "standin"
    run_until(table, lambda: table.driver.view(None)["current"] == 0, start=31.0)
    assert any(e["by"] == "standin" for e in table.log)
    # Bob comes back with his token: seat and private view at once, stand-in gone
    b2 = Inbox()
    back = tables.hello(hello("Bob", token=token), b2.append, print, 200.0)
    assert back is bob
    welcome = b2.of(p.Welcome)[0]
    assert welcome.resumed and welcome.seat == 1 and welcome.token == token
    assert b2.of(p.State)[0].seat == 1
    assert not table.seats[1].standin and table.seats[1].brain is None
    assert a.of(p.Notice)[-1].event == "back"


def test_leaving_in_the_lobby_frees_the_seat_and_passes_ownership():
    tables, table = nuggets_table(seats=3)
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    token = a.of(p.Welcome)[0].token
    table.handle(ann, p.Leave(), 1.0)
    assert a.of(p.Bye)[-1].reason == "left"
    assert [s.name for s in table.seats] == ["Bob"] and table.owner is bob
    assert b.of(p.Notice)[-1].event in ("left", "owner")
    with pytest.raises(Exception) as info:
        tables.hello(hello("Ann", token=token), print, print, 2.0)
    assert info.value.code == Code.BAD_TOKEN


def test_lobby_drop_frees_the_seat_after_grace():
    tables, table = nuggets_table(seats=3, grace=10.0)
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    table.disconnect(bob, 0.0)
    assert table.seats[1].away_since == 0.0
    table.tick(10.0)
    assert [s.name for s in table.seats] == ["Ann"]


def test_a_player_back_after_the_end_gets_the_result():
    tables, table = nuggets_table(seats=2, seed="late", first_player=0)
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    token = b.of(p.Welcome)[0].token
    table.handle(bob, p.Ready(), 0.0)
    table.handle(ann, p.Start(), 0.0)
    now = 0.0
    while table.phase == "playing":
        now += 1
        view = a.of(p.State)[-1].view
        if view.current == 1 and not bob.connected:
            table.tick(now + 100)  # Bob away: his stand-in plays
            continue
        who = ann if view.current == 0 else bob
        table.handle(who, greedy_nuggets(view), now)
        if now == 3:
            table.disconnect(bob, now)
    assert not b.of(p.Over)  # Bob missed the end
    back = Inbox()
    tables.hello(hello("Bob", token=token), back.append, print, now + 1)
    assert back.of(p.Over) == a.of(p.Over)


def test_chat_is_limited_per_table_and_spectators_share_a_small_rate():
    """150 chatty spectators cost the table a few lines a second, not N squared."""
    from net.protocol import Code
    from net.table import Member, Table

    table = Table("Saloon", "nuggets")
    table.max_spectators = 200
    heard: list = []
    ann = Member(name="Ann", deliver=heard.append)
    table.join(ann, 0.0)
    told: list = []
    watchers = [Member(name=f"W{i}", spectator=True, deliver=told.append)
                for i in range(150)]
    for w in watchers:
        table.join(w, 0.0)
    heard.clear()
    now = 1.0
    for step in range(100):  # 10 s at 10 rounds a second, everybody talking
        now = 1.0 + step / 10
        for w in watchers:
            table.handle(w, p.Chat(text="hi"), now)
        table.handle(ann, p.Chat(text="mine"), now)
    lines = [m for m in heard if isinstance(m, p.ChatLine)]
    assert sum(1 for m in lines if m.name == "Ann") == 100  # players are never crowded out
    assert sum(1 for m in lines if m.name != "Ann") <= 8 + 4 * 10  # burst + rate
    assert any(isinstance(m, p.Error) and m.code == Code.RATE_LIMITED for m in told)


def test_a_spectator_flood_reaches_the_seated_once_a_second():
    """100 spectators arriving and leaving in a second: each seated member is told once
    then once more when due (the first arrival by name, the count in the update), not
    200 notices and 200 updates; and the count comes out right."""
    from net.table import Member, Table
    from net.table.core import SPECTATORS_EVERY

    table = Table("Saloon", "nuggets")
    table.max_spectators = 200
    heard: list = []
    ann = Member(name="Ann", deliver=heard.append)
    table.join(ann, 0.0)
    heard.clear()
    first = Member(name="Eve", spectator=True, deliver=lambda m: None)
    table.join(first, 5.0)  # a lone spectator is told at once
    assert [m.name for m in heard if isinstance(m, p.Notice)] == ["Eve"]
    assert [m.table.spectators for m in heard if isinstance(m, p.TableUpdate)] == [1]
    heard.clear()
    crowd = [Member(name=f"W{i}", spectator=True, deliver=lambda m: None) for i in range(100)]
    for i, w in enumerate(crowd):
        table.join(w, 5.0 + i / 200)
    for i, w in enumerate(crowd[60:]):
        table.disconnect(w, 5.5 + i / 200)
    assert heard == []  # nothing until the next telling is due
    due = table.next_wakeup()
    assert due == pytest.approx(5.0 + SPECTATORS_EVERY)
    table.tick(due)
    assert [(m.event, m.name) for m in heard if isinstance(m, p.Notice)] == [
        ("spectating", "W0")]
    assert [m.table.spectators for m in heard if isinstance(m, p.TableUpdate)] == [61]
    assert table.next_wakeup() is None
    heard.clear()
    table.disconnect(first, 9.0)  # quiet since: told at once again
    assert [m.table.spectators for m in heard if isinstance(m, p.TableUpdate)] == [60]
    # a newcomer who left before the telling is not named
    heard.clear()
    ghost = Member(name="Ghost", spectator=True, deliver=lambda m: None)
    table.join(ghost, 9.2)
    table.disconnect(ghost, 9.3)
    table.tick(table.next_wakeup())
    assert [m for m in heard if isinstance(m, p.Notice)] == []
    assert [m.table.spectators for m in heard if isinstance(m, p.TableUpdate)] == [60]


def test_the_odds_are_the_tables_and_follow_a_seat_changing_hands():
    """Issue 57: every Gold Nuggets view says the kind of table its chances are
    calibrated for, from the bots seated now: Ann and Bob with a hard bot play a
    "strong" table; when Bob drops, his stand-in (the table's difficulty, normal) makes
    it "mixed" in what everyone is sent; back, it is "strong" again. A bot added in
    the lobby counts from the deal."""
    tables, table = nuggets_table(seats=3, seed="kinds", grace=30.0, bot_pace=0.5,
                                  first_player=0, difficulty="normal")
    ann, a = join(tables, "Ann")
    bob, b = join(tables, "Bob")
    token = b.of(p.Welcome)[0].token
    table.handle(ann, p.AddBot(difficulty="hard"), 0.0)
    table.handle(bob, p.Ready(), 0.0)
    table.handle(ann, p.Start(), 0.0)
    assert a.of(p.State)[-1].view.table_kind == "strong"  # people are not counted
    assert b.of(p.State)[-1].view.table_kind == "strong"
    table.disconnect(bob, 1.0)
    table.tick(31.0)
    assert table.seats[1].standin
    assert a.of(p.State)[-1].view.table_kind == "mixed"  # sent at once, no move needed
    b2 = Inbox()
    assert tables.hello(hello("Bob", token=token), b2.append, print, 40.0) is bob
    assert a.of(p.State)[-1].view.table_kind == "strong"
    assert b2.of(p.State)[-1].view.table_kind == "strong"
    # the saves' views are the rules' own: the kind is not in them
    assert "table_kind" not in table.driver.view(None)

    tables, table = nuggets_table(seats=3, seed="kinds-2", difficulty="hard")
    ann, a = join(tables, "Ann")
    table.handle(ann, p.AddBot(), 0.0)  # hard, the table's
    table.handle(ann, p.AddBot(difficulty="easy"), 0.0)
    table.handle(ann, p.Start(), 0.0)
    assert a.of(p.State)[-1].view.table_kind == "mixed"
