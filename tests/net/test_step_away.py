"""Stepping away (``leave`` with ``keep_seat``): the seat stays the player's, a stand-in
plays it at once during a game, and the resume token takes it back."""

from net import protocol as p
from tests.net.helpers import join, nuggets_table


def test_stepping_away_mid_game_stands_in_at_once_and_keeps_the_token():
    tables, table = nuggets_table(seats=2, seed="away", bot_pace=0.5, grace=30.0)
    ann, ann_inbox = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    token = bob_inbox.of(p.Welcome)[0].token
    table.handle(bob, p.Ready(), 1.0)
    table.handle(ann, p.Start(), 1.0)
    assert table.phase == "playing"
    before = len(bob_inbox)
    table.handle(bob, p.Leave(keep_seat=True), 2.0)
    assert bob_inbox[before:] == [p.Bye(reason="left")]
    # not after the 30 s grace: now
    assert table.seats[1].standin and table.seats[1].member is bob
    assert bob in table.members and not bob.connected
    notices = [(n.event, n.name) for n in ann_inbox.of(p.Notice)]
    assert ("stepped_away", "Bob") in notices and ("standin", "Bob") in notices
    assert ("left", "Bob") not in notices
    again, inbox = [], []
    back = tables.hello(p.Hello(protocol=3, name="x", token=token), inbox.append,
                        again.append, 3.0)
    assert back is bob and inbox[0].resumed and inbox[0].seats == [1]
    assert not table.seats[1].standin


def test_stepping_away_in_the_lobby_keeps_the_seat_through_the_grace():
    tables, table = nuggets_table(seats=3, grace=10.0)
    join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    table.handle(bob, p.Leave(keep_seat=True), 1.0)
    assert [s.name for s in table.seats] == ["Ann", "Bob"]
    assert table.seats[1].away_since == 1.0
    table.tick(11.5)
    assert [s.name for s in table.seats] == ["Ann"]


def test_a_plain_leave_still_gives_the_seat_up():
    tables, table = nuggets_table(seats=2, seed="away", grace=30.0)
    ann, _ = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    table.handle(bob, p.Ready(), 1.0)
    table.handle(ann, p.Start(), 1.0)
    table.handle(bob, p.Leave(), 2.0)
    assert bob not in table.members and table.seats[1].member is None
    assert table.seats[1].standin
