"""Fool's Gold over real TCP on a fake clock: bot clients, a scripted client, a
spectator, a drop with a stand-in, and automatic reconnect."""

import asyncio
import random

import pytest

from net import protocol as p
from net.botclient import run_bot
from net.client import Client, Reconnected, Reconnecting
from net.clock import FakeClock
from net.games.foolsgold import moves as fm

from .helpers import Raw, next_of, settle


def seeded(client: Client) -> random.Random:
    """A bot's own seeded choices: the same game on every run, whatever the order."""
    return random.Random(f"bot/{client.welcome.name}")


async def drive(clock, done, limit=100_000):
    """Advance the fake clock in steps of at most 0.1 s, letting I/O settle between."""
    for _ in range(limit):
        await settle()
        if done():
            return
        due = clock.next_due()
        step = 0.1 if due is None else min(max(due - clock.now(), 0.0), 0.1)
        clock.advance(step)
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_bot_clients_play_a_match_to_the_end(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock, log_keep=None)  # these read the whole log
    host.create_table("Camp", "foolsgold", seats=4, seed="tcp-1")
    clients = [
        await Client.connect("127.0.0.1", host.port, f"Bot{i}", clock=clock) for i in range(4)
    ]
    watcher = await Client.connect("127.0.0.1", host.port, "Eve", spectate=True, clock=clock)
    bots = [asyncio.create_task(run_bot(c, "normal", rng=seeded(c), games=1)) for c in clients]
    watched = asyncio.create_task(next_of(watcher, p.Over))
    await drive(clock, lambda: all(b.done() for b in bots) and watched.done())
    results = [b.result() for b in bots]
    assert all(len(r) == 1 for r in results)
    assert len({(tuple(r[0].winners), tuple(r[0].scores)) for r in results}) == 1
    assert watched.result() == results[0][0]
    table = host.tables.find("Camp")
    assert {e["by"] for e in table.log} <= {"player", "host"}  # no bot inside the host


def scripted_action(view, seat):
    """A plain scripted player: pass the first card on, race once someone grabbed."""
    if view.settled or view.winner is not None:
        return None
    grabbed = [s for s, _ in view.grabbed]
    if view.frozen:
        return fm.GRAB() if seat not in grabbed and view.nuggets_left else None
    hand = view.hand
    if len(hand) == 6:
        return fm.DISCARD(card=fm.CardRef(name=hand[0].name, variant=hand[0].variant))
    if seat == view.start:
        can_draw = view.draw_pile or view.trash_pile
    else:
        can_draw = view.incoming_sizes[seat]
    return fm.DRAW() if can_draw else None


@pytest.mark.slow
async def test_mixed_table_scripted_client_bots_and_a_spectator(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock, log_keep=None)  # these read the whole log
    host.create_table("Camp", "foolsgold", seats=4, seed="mixed", bots=2)
    scripted = await Client.connect("127.0.0.1", host.port, "Sam", clock=clock)
    remote_bot = await Client.connect("127.0.0.1", host.port, "Robo", clock=clock)
    watcher = await Client.connect("127.0.0.1", host.port, "Eve", spectate=True, clock=clock)
    errors, overs = [], []

    async def play():
        await scripted.send(p.Ready())
        async for message in scripted:
            if isinstance(message, p.State):
                action = scripted_action(message.view, scripted.seat)
                if action is not None:
                    await scripted.send(action)
            elif isinstance(message, p.Error):
                errors.append(message)
            elif isinstance(message, p.Over):
                overs.append(message)
                return

    tasks = [
        asyncio.create_task(play()),
        asyncio.create_task(run_bot(remote_bot, "easy", rng=seeded(remote_bot), games=1)),
        asyncio.create_task(next_of(watcher, p.Over)),
    ]
    await drive(clock, lambda: all(t.done() for t in tasks))
    assert overs and overs[0] == tasks[2].result()
    # the scripted player sometimes acts on a stale view: the rules refuse, politely
    assert all(e.code == "illegal_action" for e in errors)
    by = {e["by"] for e in host.tables.find("Camp").log}
    assert {"player", "bot", "host"} <= by


async def test_drop_stand_in_and_take_the_seat_back(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock, log_keep=None)  # these read the whole log
    table = host.create_table("Camp", "foolsgold", seats=3, seed="away", bots=1, grace=15.0)
    keeper = await Client.connect("127.0.0.1", host.port, "Kim", clock=clock)
    leaver = await Raw.open(host.port)
    welcome = await leaver.hello("Lee")
    keeper_bot = asyncio.create_task(run_bot(keeper, "normal", rng=seeded(keeper), games=1))
    await leaver.send(p.Ready())
    await drive(clock, lambda: table.phase == "playing")
    await drive(clock, lambda: clock.now() >= 3.0)
    leaver.writer.transport.abort()  # the line drops without a word
    await drive(clock, lambda: table.seats[welcome.seat].away_since is not None)
    dropped_at = clock.now()
    await drive(clock, lambda: table.seats[welcome.seat].standin)
    assert clock.now() >= dropped_at + 15.0  # the grace period first
    played = len(table.log)
    await drive(clock, lambda: any(e["by"] == "standin" for e in table.log[played:]))
    # back with the token: the seat and its private view at once
    back = await Raw.open(host.port)
    again = await back.hello("Lee", token=welcome.token)
    assert again.resumed and again.seat == welcome.seat
    state = await back.expect(p.State)
    assert state.seat == welcome.seat and state.view.hand is not None
    assert not table.seats[welcome.seat].standin
    count = sum(1 for e in table.log if e["by"] == "standin")
    await drive(clock, lambda: clock.now() >= state.at + 20.0 or table.phase != "playing")
    assert sum(1 for e in table.log if e["by"] == "standin") == count  # handed back
    keeper_bot.cancel()


@pytest.mark.slow
async def test_client_reconnects_on_its_own_and_plays_on(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock)
    table = host.create_table("Camp", "foolsgold", seats=3, seed="auto", bots=2)
    client = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock)
    seen = []

    async def bot_and_watch():
        # run_bot plays; a tap on the stream records what the client surfaced
        original = client.recv

        async def tapped():
            item = await original()
            seen.append(item)
            return item

        client.recv = tapped
        return await run_bot(client, "normal", rng=seeded(client), games=1)

    task = asyncio.create_task(bot_and_watch())
    await drive(clock, lambda: table.phase == "playing")
    await drive(clock, lambda: clock.now() >= 5.0)
    client._writer.transport.abort()
    await drive(clock, task.done)
    kinds = [type(m) for m in seen]
    assert Reconnecting in kinds and Reconnected in kinds
    assert kinds.index(Reconnecting) < kinds.index(Reconnected)
    assert task.result() and task.result()[0].winners


@pytest.mark.slow
async def test_without_saves_a_table_keeps_a_bounded_log(make_host):
    """Nothing reads the log of a host without saves: a long match keeps only the last
    ``log_keep`` entries in memory and still counts every move. The same seeded match
    with the whole log shows what was forgotten is only the oldest entries."""
    tables = []
    for keep in (16, None):
        clock = FakeClock()
        host = await make_host(clock=clock, listen=False, log_keep=keep)
        table = host.create_table("Camp", "foolsgold", seats=3, bots=3, seed="long")
        host.start_game(table)
        longest = 0

        def done(table=table):
            nonlocal longest
            longest = max(longest, len(table.log))
            return table.phase == "over"

        await drive(clock, done)
        tables.append((table, longest))
    (short, longest), (whole, _) = tables
    assert short.moves == whole.moves == len(whole.log) > 100
    assert longest == 16 and short.log_base == whole.moves - 16
    assert short.log == whole.log[-16:]
    assert short.result == whole.result
