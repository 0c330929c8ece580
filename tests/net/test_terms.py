"""Readiness follows the terms (issue 35): a player's "ready" is for the table as it
was when they said it. The owner changing a setting, a bot sitting down, a person
joining or leaving: every person's "ready" is cleared, and they are told what changed;
``start`` needs fresh readiness. And a setting is a number a person types: -0.0 and
subnormal numbers are refused, changing nothing."""

import pytest

from net import protocol as p
from net.protocol import Code
from tests.net.helpers import join, nuggets_table
from tui.notices import notice_text


def _seated(table, ready):
    return [s.ready for s in table.seats if s.kind == "human"] == ready


def test_a_changed_setting_clears_every_ready_and_says_what_changed():
    tables, table = nuggets_table(seats=3)
    ann, ann_inbox = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    watcher, watcher_inbox = join(tables, "Eve", spectate=True)
    table.handle(bob, p.Ready(), 1.0)
    assert _seated(table, [False, True])
    table.handle(ann, p.Configure(bot_pace=0.3, grace=60.0), 2.0)
    assert _seated(table, [False, False])
    for inbox in (ann_inbox, bob_inbox, watcher_inbox):  # every seat and the spectators
        terms = [n for n in inbox.of(p.Notice) if n.event == "terms"]
        assert [(n.name, n.detail) for n in terms] == [
            ("Ann", "grace 30 s -> 60 s; bot pace 0.9 s -> 0.3 s")]
        assert [s.ready for s in inbox.of(p.TableUpdate)[-1].table.seats] == [False, False]
    assert "Ann changed the table (grace 30 s -> 60 s; bot pace 0.9 s -> 0.3 s): everyone " \
        "says ready again" == notice_text(terms[0])
    # the ready Bob gave for the old terms does not start the game on the new ones
    table.handle(ann, p.Start(), 3.0)
    assert ann_inbox.errors() == [Code.NOT_READY] and table.phase == "lobby"
    assert "Bob" in ann_inbox.of(p.Error)[-1].message
    table.handle(bob, p.Ready(), 4.0)
    table.handle(ann, p.Start(), 5.0)
    assert table.phase == "playing"


def test_the_same_value_again_changes_no_terms():
    tables, table = nuggets_table(seats=3, bot_pace=0.5)
    ann, ann_inbox = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    table.handle(bob, p.Ready(), 1.0)
    table.handle(ann, p.Configure(bot_pace=0.5, seats=3), 2.0)
    assert _seated(table, [False, True])
    assert not [n for n in bob_inbox.of(p.Notice) if n.event == "terms"]


@pytest.mark.parametrize("change", ["bot", "join", "leave", "seats"])
def test_who_sits_at_the_table_is_part_of_the_terms(change):
    tables, table = nuggets_table(seats=4)
    ann, _ = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    cy, _ = join(tables, "Cy")
    table.handle(bob, p.Ready(), 1.0)
    table.handle(cy, p.Ready(), 1.0)
    assert _seated(table, [False, True, True])
    if change == "bot":
        table.handle(ann, p.AddBot(), 2.0)
    elif change == "join":
        join(tables, "Dan", now=2.0)
    elif change == "leave":
        table.handle(cy, p.Leave(), 2.0)
    else:
        table.handle(ann, p.Configure(seats=3), 2.0)
    humans = [s for s in table.seats if s.kind == "human"]
    assert not any(s.ready for s in humans), change
    # Bob is told: the table update he gets lists every person as not ready
    last = bob_inbox.of(p.TableUpdate)[-1].table
    assert not any(s.ready for s in last.seats if s.kind == "human"), change


@pytest.mark.parametrize("value", [-0.0, 5e-324, -5e-324, 2.2e-308])
def test_negative_zero_and_subnormal_numbers_are_refused_and_change_nothing(value):
    tables, table = nuggets_table(seats=3)
    ann, ann_inbox = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    table.handle(bob, p.Ready(), 1.0)
    before = (table.settings.bot_pace, len(bob_inbox))
    table.handle(ann, p.Configure(bot_pace=value), 2.0)
    error = ann_inbox.of(p.Error)[-1]
    assert error.code == Code.BAD_SETTING and "bot_pace must be a plain number" in error.message
    assert (table.settings.bot_pace, len(bob_inbox)) == before  # Bob sees nothing change
    assert _seated(table, [False, True])
    table.handle(ann, p.Configure(bot_pace=0.0), 3.0)  # zero itself is a setting
    assert table.settings.bot_pace == 0.0 and ann_inbox.of(p.Error)[-1] is error


def test_a_bot_client_says_ready_again_when_the_terms_change():
    """``motherlode bot`` takes any terms: a person joining after it cleared its ready,
    and it readies again, so the owner's start is not held up by a bot."""
    from net.botclient import BotSeat

    tables, table = nuggets_table(seats=3)
    ann, ann_inbox = join(tables, "Ann")
    bot = BotSeat()
    robo, robo_inbox = join(tables, "Robo")

    def answer() -> None:
        while robo_inbox:
            for reply in bot.receive(robo_inbox.pop(0)):
                table.handle(robo, reply, 1.0)

    answer()
    assert _seated(table, [False, True])
    join(tables, "Cy", now=2.0)  # new terms: every ready cleared, the bot's too
    assert table.seats[1].ready is False
    answer()
    assert _seated(table, [False, True, False])


def test_an_owner_away_hands_the_table_to_the_person_seated_longest():
    """An owner who walks away no longer holds the table for the whole grace (up to
    600 s): after ``OWNER_AWAY`` it passes to the person seated longest who is here,
    everyone is told, and the new owner can start."""
    from net.table.core import OWNER_AWAY

    tables, table = nuggets_table(seats=3, grace=600.0)
    ann, _ = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    cy, cy_inbox = join(tables, "Cy")
    table.disconnect(ann, 10.0)
    assert table.next_wakeup() == 10.0 + OWNER_AWAY  # the grace's 600 s come later
    table.tick(10.0 + OWNER_AWAY - 0.5)
    assert table.owner is ann
    table.handle(bob, p.Start(), 20.0)
    assert bob_inbox.errors() == [Code.NOT_OWNER]
    table.tick(10.0 + OWNER_AWAY)
    assert table.owner is bob
    for inbox in (bob_inbox, cy_inbox):  # every seat is told, and sees it in the table
        assert [n.name for n in inbox.of(p.Notice) if n.event == "owner"] == ["Bob"]
        assert inbox.of(p.TableUpdate)[-1].table.owner == 1
    assert notice_text(bob_inbox.of(p.Notice)[-1]) == "Bob now owns the table"
    # the new owner may free the away seat (as any owner may) and start
    table.handle(cy, p.Ready(), 50.0)
    table.handle(bob, p.Start(), 51.0)
    assert bob_inbox.errors()[-1] == Code.NOT_READY and "Ann" in bob_inbox.of(p.Error)[-1].message
    table.handle(bob, p.Kick(seat=0), 52.0)
    table.handle(cy, p.Ready(), 53.0)  # a seat freed is new terms: ready again
    table.handle(bob, p.Start(), 54.0)
    assert table.phase == "playing" and [s.name for s in table.seats] == ["Bob", "Cy"]


def test_an_owner_back_in_time_keeps_the_table_and_nobody_here_keeps_it_for_them():
    from net.table.core import OWNER_AWAY

    tables, table = nuggets_table(seats=3, grace=600.0)
    ann, _ = join(tables, "Ann")
    bob, bob_inbox = join(tables, "Bob")
    table.disconnect(ann, 0.0)
    token = ann.token
    table.tick(OWNER_AWAY - 1)
    back, _ = join(tables, "Ann", now=OWNER_AWAY - 0.5, token=token)
    assert back is ann and table.owner is ann
    table.tick(OWNER_AWAY + 5)
    assert table.owner is ann and not [n for n in bob_inbox.of(p.Notice) if n.event == "owner"]
    # everyone away: the table waits for its owner (nobody here to take it)
    table.disconnect(bob, 100.0)
    table.disconnect(ann, 100.0)
    assert table.owner_handover() is None
    table.tick(100.0 + OWNER_AWAY + 1)
    assert table.owner is ann


def test_a_bot_removed_is_said_as_its_sitting_down_was_and_so_is_the_ready_it_clears():
    """Issue 47: an Add bot and a Remove bot in a row (a phone's double tap) left the
    log saying "Dusty (bot) sits down" beside a free seat, and adding it again cleared
    the owner's ready mark without a word. Each coming and going is said, and the
    readiness it clears with it."""
    tables, table = nuggets_table(seats=3)
    ann, ann_inbox = join(tables, "Ann")
    table.handle(ann, p.Ready(), 1.0)
    table.handle(ann, p.AddBot(), 2.0)
    bot = next(i for i, s in enumerate(table.seats) if s.kind == "bot")
    name = table.seats[bot].name
    table.handle(ann, p.RemoveBot(seat=bot), 2.1)
    table.handle(ann, p.AddBot(), 3.0)  # nobody ready now: nothing cleared to say
    said = [notice_text(n) for n in ann_inbox.of(p.Notice) if "bot" in n.event]
    assert said == [f"{name} sits down: everyone says ready again",
                    f"{name} leaves the table (the owner removed it)",
                    f"{name} sits down"], said
    table.handle(ann, p.Ready(), 4.0)
    table.handle(ann, p.RemoveBot(seat=bot), 5.0)
    assert notice_text(ann_inbox.of(p.Notice)[-1]) == \
        f"{name} leaves the table (the owner removed it): everyone says ready again"
    assert [s.kind for s in ann_inbox.of(p.TableUpdate)[-1].table.seats] == ["human"]
