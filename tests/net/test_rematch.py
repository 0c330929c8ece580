"""The rematch everyone answers (issue 61), at the table: any seat offers at a game's
end, every seat and watcher sees who said what, the game starts when every person said
yes (bots keep their seats) or when the owner starts it with those who did; a decline
or a leave frees the place. The real host, the app, SSH and the plain seat:
``tests/tui/test_rematch_seats.py``."""

from net import protocol as p
from net.protocol import Code
from tests.net.helpers import greedy_nuggets, nuggets_table


def hello4(name, **kw):
    return p.Hello(protocol=4, name=name, **kw)


def seated(tables, name, **kw):
    from tests.net.helpers import Inbox

    inbox = Inbox()
    member = tables.hello(hello4(name, **kw), inbox.append, lambda reason: None, 0.0)
    return member, inbox


def finish(table, members, now=10.0):
    """Play the table's game to its end: people greedily, bots on the table's clock."""
    for _ in range(2000):
        if table.phase != "playing":
            return now
        now += 1.0
        table.tick(now)
        view = table.driver.view(table.driver.view(0)["current"]) \
            if table.phase == "playing" else None
        if view is None or view.get("over"):
            continue
        seat = view["current"]
        member = table.seats[seat].member
        if member is not None and table.seats[seat].kind == "human":
            table.handle(member, greedy_nuggets(table.driver.view(seat)), now)
    raise AssertionError("the game did not end")


def over_table(bots=0, watch=True, seats=3):
    tables, table = nuggets_table(seats=seats, supply=2, bot_pace=0.0)
    people = [seated(tables, name) for name in ("Ann", "Bob", "Cy")[:seats - bots]]
    for _ in range(bots):
        table.add_bot()
    watcher = seated(tables, "Eve", spectate=True) if watch else None
    for member, _ in people:
        table.handle(member, p.Ready(), 1.0)
    assert table.phase == "playing"
    now = finish(table, [m for m, _ in people])
    assert table.phase == "over"
    return tables, table, people, watcher, now


def states(inbox):
    return inbox.of(p.AgainState)


def test_an_offer_reaches_every_seat_and_watcher_and_starts_when_all_said_yes():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), (bob, bob_in), (cy, cy_in) = people
    table.handle(bob, p.Again(answer="yes"), now)
    for inbox in (ann_in, bob_in, cy_in, watcher[1]):
        assert states(inbox)[-1] == p.AgainState(by=1, yes=[1], no=[], waiting=[0, 2])
    table.handle(cy, p.Again(answer="yes"), now + 1)
    assert states(watcher[1])[-1] == p.AgainState(by=1, yes=[1, 2], no=[], waiting=[0])
    assert table.phase == "over"
    games = table.games_played
    table.handle(ann, p.Again(answer="yes"), now + 2)
    assert table.phase == "playing" and table.games_played == games + 1
    assert [s.name for s in table.seats] == ["Ann", "Bob", "Cy"]  # the same seats
    for inbox in (ann_in, bob_in, cy_in, watcher[1]):
        assert states(inbox)[-1] == p.AgainState(by=None, yes=[], no=[], waiting=[],
                                                 started=True)
        assert inbox.of(p.Started)[-1].players == ["Ann", "Bob", "Cy"]


def test_bots_keep_their_seats_and_never_answer():
    tables, table, people, watcher, now = over_table(bots=1)
    (ann, ann_in), (bob, _) = people
    table.handle(ann, p.Again(answer="yes"), now)
    assert states(ann_in)[-1].waiting == [1]  # Bob; the bot at seat 2 waits for nobody
    table.handle(bob, p.Again(answer="yes"), now + 1)
    assert table.phase == "playing"
    assert [s.kind for s in table.seats] == ["human", "human", "bot"]


def test_a_decline_frees_the_seat_and_its_person_watches_the_next_game():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), (bob, bob_in), (cy, cy_in) = people
    table.handle(ann, p.Again(answer="yes"), now)
    table.handle(cy, p.Again(answer="no"), now + 1)
    for inbox in (ann_in, bob_in, cy_in, watcher[1]):
        assert states(inbox)[-1] == p.AgainState(by=0, yes=[0], no=[2], waiting=[1])
    table.handle(bob, p.Again(answer="yes"), now + 2)
    assert table.phase == "playing"
    assert [s.name for s in table.seats] == ["Ann", "Bob"]
    assert cy.spectator and cy in table.members  # still here, watching
    assert cy_in.of(p.Welcome)[-1].seats == [] and cy_in.of(p.Welcome)[-1].token is None
    assert cy_in.of(p.State)[-1].seat is None  # a watcher's view
    assert table.free_seats == 0  # in play; once it ends, Cy's place is free again


def test_a_declined_place_is_free_for_someone_who_joins():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), _, (cy, _) = people
    table.handle(ann, p.Again(answer="yes"), now)
    table.handle(cy, p.Again(answer="no"), now + 1)
    dee, dee_in = seated(tables, "Dee")
    assert [s.name for s in table.seats] == ["Ann", "Bob", "Dee"]
    for inbox in (dee_in, ann_in):  # the newcomer is asked, and everyone sees it
        assert states(inbox)[-1] == p.AgainState(by=0, yes=[0], no=[], waiting=[1, 2])


def test_the_owner_starts_with_those_who_said_yes():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), (bob, bob_in), (cy, cy_in) = people
    table.handle(bob, p.Again(answer="yes"), now)
    table.handle(ann, p.Start(), now + 1)  # Ann owns the table; Cy has not answered
    assert table.phase == "playing"
    assert [s.name for s in table.seats] == ["Ann", "Bob"]
    assert cy.spectator and states(cy_in)[-1].started


def test_a_seat_that_leaves_frees_its_place_and_the_rest_go_on():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), (bob, bob_in), (cy, cy_in) = people
    table.handle(ann, p.Again(answer="yes"), now)
    table.handle(bob, p.Again(answer="yes"), now + 1)
    table.handle(cy, p.Leave(), now + 2)  # the last one waited for: the game starts
    assert table.phase == "playing" and [s.name for s in table.seats] == ["Ann", "Bob"]


def test_the_offer_ends_when_everyone_who_said_yes_has_gone():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), (bob, bob_in), _ = people
    table.handle(bob, p.Again(answer="yes"), now)
    table.handle(bob, p.Again(answer="no"), now + 1)
    assert states(ann_in)[-1] == p.AgainState(by=None, yes=[], no=[], waiting=[])
    assert table.phase == "over"


def test_refusals_change_nothing():
    tables, table, people, watcher, now = over_table()
    (ann, ann_in), _, _ = people
    eve, eve_in = watcher
    table.handle(ann, p.Again(answer="no"), now)  # nothing offered
    table.handle(eve, p.Again(answer="yes"), now)  # a watcher has no seat
    assert ann_in.errors() == [Code.NOT_READY] and eve_in.errors() == [Code.NOT_SEATED]
    assert not states(ann_in) and not states(eve_in)
    tables, table = nuggets_table(seats=2)
    ann, ann_in = seated(tables, "Ann")
    table.handle(ann, p.Again(answer="yes"), 1.0)  # no game yet
    assert ann_in.errors() == [Code.NOT_IN_LOBBY] and table.phase == "lobby"




# -- reactions ---------------------------------------------------------------------


def test_a_reaction_reaches_every_seat_and_watcher_once_a_2_s_a_person():
    tables, table = nuggets_table(seats=3)
    ann, ann_in = seated(tables, "Ann")
    bob, bob_in = seated(tables, "Bob")
    eve, eve_in = seated(tables, "Eve", spectate=True)
    table.handle(ann, p.React(reaction="nice"), 10.0)
    table.handle(ann, p.React(reaction="ouch"), 11.9)  # too soon: dropped
    table.handle(bob, p.React(reaction="gg"), 11.9)  # Bob's own 2 s
    table.handle(eve, p.React(reaction="hurry"), 12.0)  # a watcher reacts too
    table.handle(ann, p.React(reaction="thanks"), 12.0)  # 2 s after her first
    for inbox in (ann_in, bob_in, eve_in):
        assert [(r.seat, r.name, r.reaction) for r in inbox.of(p.Reaction)] == [
            (0, "Ann", "nice"), (1, "Bob", "gg"), (None, "Eve", "hurry"),
            (0, "Ann", "thanks")]
        assert not inbox.of(p.Error)  # dropped in silence


def test_a_reaction_is_one_of_six_words_never_free_text():
    import msgspec
    import pytest

    line = b'{"type":"react","reaction":"\\u001b[2Jhi"}'
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(line, type=p.ClientMessage)
    assert set(p.REACTIONS) == {"nice", "ouch", "bluff", "gg", "hurry", "thanks"}
