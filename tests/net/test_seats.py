"""Seats outside a game: when someone leaves (or a bot is removed) the seats after them
move down; every connection whose seats moved is told with a fresh ``welcome``, and
``first_player`` follows the person it named. And the table's update hook fires on
every change of its public info (the LAN announcement's free seats)."""

from __future__ import annotations

import asyncio
import random

import pytest

from net import protocol as p
from net.botclient import run_bot
from net.client import Client
from net.clock import FakeClock
from tests.net.helpers import join, nuggets_table

from .helpers import greedy_nuggets, settle


def test_every_change_of_public_info_calls_the_update_hook():
    tables, table = nuggets_table(seats=4, seed="hook")
    calls = []
    table.on_update = calls.append
    ann, _ = join(tables, "Ann")
    assert len(calls) == 1  # a join
    table.handle(ann, p.AddBot(), 1.0)
    assert len(calls) == 2
    bot = next(i for i, s in enumerate(table.seats) if s.kind == "bot")
    table.handle(ann, p.RemoveBot(seat=bot), 1.0)
    assert len(calls) == 3
    table.handle(ann, p.Configure(seats=3), 1.0)
    assert len(calls) == 4 and calls[-1].free_seats == 2
    bob, _ = join(tables, "Bob")
    assert len(calls) == 5 and table.free_seats == 1
    table.handle(bob, p.Leave(), 2.0)
    assert len(calls) == 6 and table.free_seats == 2
    table.add_bot()  # the host API too
    assert len(calls) == 7 and all(c is table for c in calls)


async def test_the_host_wires_the_update_hook_for_every_table(make_host):
    host = await make_host(clock=FakeClock(), listen=False)
    first = host.create_table("One", "nuggets", seats=3)
    seen = []
    host.on_table_update(lambda table: seen.append((table.name, table.free_seats)))
    second = host.create_table("Two", "foolsgold", seats=4)
    first.add_bot()
    second.add_bot()
    assert seen == [("One", 2), ("Two", 3)]


def test_a_leave_in_the_lobby_tells_everyone_after_it_their_new_seat():
    tables, table = nuggets_table(seats=5, seed="shift", hotseat=True)
    ann, ann_in = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    cy, cy_in = join(tables, "Cy")
    table.handle(cy, p.AddLocal(name="Dee"), 1.0)
    assert table.seats_of(cy) == [2, 3]
    ann_welcomes = len(ann_in.of(p.Welcome))
    table.handle(bob, p.Leave(), 2.0)
    welcome = cy_in.of(p.Welcome)[-1]
    assert welcome.seats == [1, 2] == table.seats_of(cy) and welcome.seat == 1
    assert not welcome.resumed and welcome.token == cy.token
    assert [s.name for s in welcome.table.seats] == ["Ann", "Cy", "Dee"]
    assert len(ann_in.of(p.Welcome)) == ann_welcomes  # Ann's seat did not move
    # removing a bot moves those after it down too
    bot = table.add_bot()
    assert bot == 3
    table.add_bot()
    table.handle(ann, p.RemoveBot(seat=0), 3.0)  # not a bot: refused, nothing moves
    assert ann_in.errors()[-1] == "no_such_seat" and len(table.seats) == 5
    before = len(cy_in.of(p.Welcome))
    table.handle(ann, p.RemoveBot(seat=bot), 3.0)
    assert len(cy_in.of(p.Welcome)) == before  # Cy's seats are before the bot
    assert [s.kind for s in table.seats] == ["human", "human", "local", "bot"]


def test_first_player_follows_the_person_or_goes_back_to_random():
    tables, table = nuggets_table(seats=4, seed="first")
    ann, _ = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    cy, _ = join(tables, "Cy")
    table.handle(ann, p.Configure(first_player=2), 1.0)
    table.handle(bob, p.Leave(), 2.0)
    assert table.settings.first_player == 1 and table.seats[1].name == "Cy"
    table.add_bot()
    table.start(3.0)
    assert table.driver.first == 1 and table.seats[table.driver.first].member is cy
    # the person named leaves: the first player is drawn again, not their neighbour
    tables, table = nuggets_table(seats=4, seed="first")
    ann, _ = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    table.handle(ann, p.Configure(first_player=1), 1.0)
    table.handle(bob, p.Leave(), 2.0)
    assert table.settings.first_player is None
    # a first player set on a seat nobody holds yet stays on that seat
    table.handle(ann, p.Configure(first_player=3), 3.0)
    join(tables, "Cy")
    table.handle(table.members[-1], p.Leave(), 4.0)
    assert table.settings.first_player == 3


def test_a_seat_freed_at_the_end_of_a_game_moves_the_next_player_and_tells_them():
    """A player who left mid-game is played by a stand-in; when the game ends that seat
    is freed, and the player after it gets a welcome with the new seat."""
    tables, table = nuggets_table(seats=3, seed="end", supply=6, bot_pace=0.5, first_player=0)
    ann, _ = join(tables, "Ann")
    bob, _ = join(tables, "Bob")
    cy, cy_in = join(tables, "Cy")
    table.start(0.0)
    table.handle(bob, p.Leave(), 0.0)
    now = 0.0
    for _ in range(5000):
        if table.phase == "over":
            break
        view = table.driver.view(None)
        current = view["current"]
        if table.seats[current].member in (ann, cy):
            member = table.seats[current].member
            table.handle(member, greedy_nuggets(table.driver.view(current)), now)
            continue
        now = max(now, table.next_wakeup() or now + 1)
        table.tick(now)
    assert table.phase == "over" and [s.name for s in table.seats] == ["Ann", "Cy"]
    welcome = cy_in.of(p.Welcome)[-1]
    assert welcome.seats == [1] and welcome.table.phase == "over"
    # the welcome comes after the result, whose scores are by the game's seats
    assert cy_in.index(welcome) > cy_in.index(cy_in.of(p.Over)[0])


@pytest.mark.timeout(30)
async def test_three_bot_clients_join_the_second_leaves_and_the_rest_play_to_the_end(make_host):
    """Real sockets: three `motherlode bot` clients join, the second leaves, a host bot
    fills the table; the game starts with the first player the owner chose (the third
    client, now at seat 1), and everyone plays to the end."""
    clock = FakeClock()
    host = await make_host(clock=clock)
    table = host.create_table("Saloon", "nuggets", seats=3, seed="seats", supply=12,
                              first_player=2, bot_pace=0.3)  # fmt: skip
    clients = []
    for name in ("Ann", "Bob", "Cy"):
        clients.append(await Client.connect("127.0.0.1", host.port, name, clock=clock))
    ann, bob, cy = clients
    assert [c.seat for c in clients] == [0, 1, 2]
    plays = [
        asyncio.create_task(run_bot(c, "normal", rng=random.Random(i), pace=0.3, games=1))
        for i, c in enumerate((ann, cy))
    ]
    await bob.send(p.Leave())
    for _ in range(20):
        await settle()
    assert cy.seat == 1 and cy.seats == [1] and ann.seat == 0  # told by a fresh welcome
    assert table.settings.first_player == 1 and table.seats[1].name == "Cy"
    table.add_bot()  # the host fills the seat and starts the game
    host.start_game(table)
    await drive(clock, lambda: table.driver is not None)
    assert table.driver.first == 1  # Cy, as the owner chose
    await drive(clock, lambda: all(t.done() for t in plays), until=600.0)
    results = [t.result() for t in plays]
    assert all(len(r) == 1 for r in results) and results[0][0].winners == results[1][0].winners
    assert table.phase == "over"
    for c in clients:
        await c.close()


async def drive(clock, done, until: float = 60.0) -> None:
    """Advance the fake clock (at most 0.1 s at a time, I/O settling between) until
    ``done()``; fail once the clock passes ``until``: the game stalled."""
    while not done():
        await settle()
        if done():
            return
        assert clock.now() < until, "the game stalled"
        due = clock.next_due()
        clock.advance(0.1 if due is None else min(max(due - clock.now(), 0.0), 0.1))


def test_the_owner_frees_a_seat_held_by_someone_not_ready():
    """A squatter who never gets ready is removed by the owner (``kick``); a ready
    player, a bot and the owner's own seat cannot be."""
    from net.protocol import Code
    from net.table import Member, Table

    table = Table("Saloon", "nuggets")
    got: dict[str, list] = {"ann": [], "sid": [], "rob": []}
    ann = Member(name="Ann", deliver=got["ann"].append)
    sid = Member(name="Sid", deliver=got["sid"].append)
    rob = Member(name="Rob", deliver=got["rob"].append)
    for member in (ann, sid, rob):
        table.join(member, 0.0)
    table.handle(rob, p.Ready(), 1.0)
    table.handle(sid, p.Kick(seat=0), 1.0)  # not the owner
    assert got["sid"][-1].code == Code.NOT_OWNER
    table.handle(ann, p.Kick(seat=2), 1.0)  # Rob is ready
    assert got["ann"][-1].code == Code.NO_SUCH_SEAT
    table.handle(ann, p.Kick(seat=0), 1.0)  # her own seat
    assert got["ann"][-1].code == Code.NO_SUCH_SEAT
    table.handle(ann, p.Kick(seat=1), 2.0)
    assert any(isinstance(m, p.Bye) and m.reason == "kicked" for m in got["sid"])
    assert [s.name for s in table.seats] == ["Ann", "Rob"]
    assert sid not in table.members
    assert any(isinstance(m, p.Notice) and m.event == "kicked" for m in got["rob"])
