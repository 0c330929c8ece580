"""A Gold Nuggets table over real TCP sockets on 127.0.0.1."""

import asyncio
import hashlib

import msgspec

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.games.nuggets import views as n_views
from net.verify import verify_messages

from .helpers import Raw, next_of, play_nuggets, settle


async def test_two_scripted_players_and_a_spectator_play_to_the_end(make_host):
    host = await make_host(rate=10_000, burst=10_000)
    host.create_table("Saloon", "nuggets", seats=2, seed="s1")
    ann = await Client.connect("127.0.0.1", host.port, "Ann")
    bob = await Client.connect("127.0.0.1", host.port, "Ann")  # a name clash
    watcher = await Client.connect("127.0.0.1", host.port, "Cy", spectate=True)
    assert (ann.seat, bob.seat, watcher.seat) == (0, 1, None)
    assert bob.welcome.name == "Ann 2"
    assert watcher.welcome.token is None
    await ann.send(p.Ready())
    await bob.send(p.Ready())
    watched = []

    async def watch():
        return await next_of(watcher, p.Over, seen=watched)

    over_a, over_b, over_w = await asyncio.wait_for(
        asyncio.gather(play_nuggets(ann), play_nuggets(bob), watch()), 30
    )
    assert over_a == over_b == over_w
    assert over_a.seed == "s1"
    assert hashlib.sha256(b"s1").hexdigest() == over_a.seed_hash
    states = [m for m in watched if isinstance(m, p.State)]
    assert states and all(m.seat is None and m.view.seat is None for m in states)
    final = states[-1].view
    assert final.over and final.supply == 0
    assert over_a.scores == final.holdings
    started = next(m for m in watched if isinstance(m, p.Started))
    assert started.seed_hash == over_a.seed_hash


async def test_an_unseeded_game_proves_its_dice_with_the_revealed_seed(make_host):
    host = await make_host(rate=10_000, burst=10_000)
    host.create_table("Saloon", "nuggets", seats=2, bots=1, bot_pace=0.0)
    ann = await Client.connect("127.0.0.1", host.port, "Ann")
    await ann.send(p.Start())
    record = []
    over = await asyncio.wait_for(play_nuggets(ann, record), 30)
    assert len(over.seed) == 64 and int(over.seed, 16) >= 0  # 256 bits from secrets
    started = next(m for m in record if isinstance(m, p.Started))
    before_end = [m for m in record[: record.index(over)]]
    assert all(over.seed not in str(msgspec.to_builtins(m)) for m in before_end)
    record.insert(0, ann.welcome)  # which game: the welcome says
    assert verify_messages(record) == []
    # a host that changed the dice after the fact is caught
    rolled = next(
        m for m in record if isinstance(m, p.State) and isinstance(m.events[0], n_views.Rolled)
    )
    faces = rolled.events[0].faces
    faces[0] = "lasso" if faces[0] != "lasso" else "nugget"
    assert verify_messages(record)
    # and so is a revealed seed that is not the one published
    forged = msgspec.structs.replace(over, seed="0" * 64)
    assert "hash" in verify_messages([ann.welcome, started, forged])[0]


async def test_a_player_who_leaves_mid_game_is_played_for_at_once(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock)
    host.create_table("Saloon", "nuggets", seats=2, first_player=0, bot_pace=0.5)
    ann, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ann.hello("Ann")
    await bob.hello("Bob")
    await bob.send(p.Ready())
    await ann.send(p.Start())
    await bob.expect(p.State)
    await ann.send(p.Leave())
    notice = await bob.expect(p.Notice, where=lambda m: m.event == "standin")
    assert notice.name == "Ann"
    await settle()
    clock.advance(0.5)  # the stand-in's pace: nothing else is due at this table
    state = await bob.expect(p.State)
    assert isinstance(state.events[0], n_views.Rolled) and state.events[0].seat == 0



async def test_verify_record_replays_a_kept_game_through_the_replay_engine(tmp_path):
    """``net.verify.verify_record``: a kept game checks out; one whose recorded events
    were edited does not, and the problem names the move."""
    import msgspec

    from net.clock import FakeClock
    from net.host import Host
    from net.saves import Saved, Store
    from net.verify import verify_record
    from tests.hardening.harness import drive

    clock = FakeClock()
    store = Store(tmp_path, "solo")
    host = Host(clock=clock, store=store)
    table = host.create_table("V", "nuggets", seats=2, bots=2, seed="v", supply=8,
                              bot_pace=0.1)  # fmt: skip
    host.start_game(table)
    await drive(clock, lambda: table.phase == "over")
    await host.close()
    (kept,) = store.kept()
    record = store.load(kept.id)
    assert verify_record(record) == []
    raw = msgspec.json.decode(record.export())
    raw["log"][3]["events"][0]["seat"] = 7
    problems = verify_record(Saved.parse(msgspec.json.encode(raw)))
    assert len(problems) == 1 and "move 4" in problems[0]
