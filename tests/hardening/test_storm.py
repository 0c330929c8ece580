"""Storm: random drops (a clean abort, or half a frame then an abort) and token
reconnects, plus forged tokens, during many concurrent games of both games, played by
bot clients and scripted clients over TCP. Every game finishes, every client sees the
same result as its table-mates, and no seat is lost or duplicated.

The host and the clients run on one fake clock; drops and the bots' choices are
seeded, so a run plays the same games whatever the machine's speed or the test order
(unseeded bots once played a Fool's Gold match past the step limit, by chance).
``bench/stress_storm.py`` is the long version (200 concurrent games, real clock).
"""

import asyncio
import random

import pytest

from net import protocol as p
from net.botclient import run_bot
from net.client import Client, Disconnected, Reconnected
from net.clock import FakeClock
from net.host import Host, HostConfig
from net.protocol import Code

from .harness import Raw, greedy_nuggets, settle

NUGGETS_TABLES = 10
FOOLSGOLD_TABLES = 2
STORM_STEPS = 4000  # 400 s of storm; then the games play out (a match can run long)
DROP_RATE = 0.0015  # per player and step of 0.1 s: one drop every ~70 s of play
FORGE_RATE = 0.005


class Player:
    """One client at a table: a scripted Gold Nuggets player or a bot; records the seats
    it was given on every (re)connect."""

    def __init__(self, client: Client, table: str, kind: str) -> None:
        self.client = client
        self.table = table
        self.kind = kind
        self.seats = [client.seat]
        self.reconnects = 0
        self.errors: list[str] = []
        self.over: p.Over | None = None
        self.byes: list[str] = []
        self.last: list[str] = []

    def tap(self) -> None:
        """Record reconnects and errors from the stream the bot or script reads."""
        original = self.client.recv

        async def recv():
            item = await original()
            self.last.append(type(item).__name__)
            if isinstance(item, Reconnected):
                self.reconnects += 1
                self.seats.append(item.welcome.seat)
            elif isinstance(item, p.Error):
                self.errors.append(item.code)
            elif isinstance(item, p.Bye):
                self.byes.append(item.reason)
            elif isinstance(item, Disconnected):
                raise AssertionError(f"{self.client.welcome.name} disconnected: {item}")
            return item

        self.client.recv = recv

    async def play(self) -> None:
        self.tap()
        if self.kind == "bot":
            # seeded, as every bot in the suite: a bot's choices are the same each run
            rng = random.Random(f"storm/{self.client.welcome.name}")
            results = await run_bot(self.client, "normal", rng=rng, games=1)
            assert results, f"{self.client.welcome.name}: no result; byes {self.byes}"
            self.over = results[0]
            return
        client = self.client
        await client.send(p.Ready())
        async for message in client:
            if isinstance(message, p.State) and message.seat == client.seat:
                view = message.view
                if not view.over and view.current == message.seat:
                    await client.send(greedy_nuggets(view))
            elif isinstance(message, p.Over):
                self.over = message
                return


def describe(tables, players, clock) -> str:
    """What the unfinished tables and their clients look like (a failure message)."""
    lines = [f"not every game finished at t={clock.now():.1f}"]
    for table in tables:
        if table.phase == "over":
            continue
        view = table.driver.view(None)
        keys = ("current", "phase", "hand_sizes", "incoming_sizes", "draw_pile", "grabbed",
                "caller", "settled", "deadline", "round_no", "frozen", "scores")  # fmt: skip
        lines.append(f"{table.name}: { ({k: view.get(k) for k in keys}) }")
        lines.append(f"  next_wakeup={table.next_wakeup()} log={len(table.log)}")
        kinds: dict[str, int] = {}
        for entry in table.log:
            for event in entry["events"]:
                kinds[event["type"]] = kinds.get(event["type"], 0) + 1
        lines.append(f"  events={kinds}")
        lines.append(f"  last={[e['events'] for e in table.log[-3:]]}")
        for i, seat in enumerate(table.seats):
            member = seat.member
            lines.append(
                f"  seat {i} {seat.name}: standin={seat.standin} away={seat.away_since} "
                f"plan={seat.plan} connected={member.connected if member else None}"
            )
        for pl in players:
            if pl.table == table.name:
                lines.append(
                    f"  {pl.client.welcome.name}: reconnects={pl.reconnects} "
                    f"writer={pl.client._writer is not None} last={pl.last[-4:]}"
                )
    return "\n".join(lines)


@pytest.mark.slow
async def test_drops_and_reconnects_during_many_games_lose_no_seat():
    clock = FakeClock()
    host = Host(clock=clock, config=HostConfig(rate=1e9, burst=1e9, spectator_rate=1e9,
                                               spectator_burst=1e9))
    await host.start("127.0.0.1", 0)
    rng = random.Random(2026)
    try:
        players: list[Player] = []
        for t in range(NUGGETS_TABLES):
            name = f"N{t}"
            host.create_table(name, "nuggets", seats=3, seed=f"storm-{t}", grace=3.0)
            for s in range(3):
                kind = "script" if s < 2 else "bot"
                client = await Client.connect(
                    "127.0.0.1", host.port, f"{name}p{s}", table=name, clock=clock
                )
                players.append(Player(client, name, kind))
        for t in range(FOOLSGOLD_TABLES):
            name = f"F{t}"
            # the round cap bounds a match whatever the bots do (issue 44)
            host.create_table(
                name, "foolsgold", seats=3, seed=f"storm-fg-{t}", grace=3.0, round_cap=40
            )
            for s in range(3):
                client = await Client.connect(
                    "127.0.0.1", host.port, f"{name}p{s}", table=name, clock=clock
                )
                players.append(Player(client, name, "bot"))
        tasks = [asyncio.create_task(player.play()) for player in players]
        tables = [host.tables.find(name) for name in {pl.table for pl in players}]
        for _ in range(500):
            if all(t.phase == "playing" for t in tables):
                break
            await settle()
        assert all(t.phase == "playing" for t in tables)
        members = {t.name: [s.member for s in t.seats] for t in tables}

        drops = forged = 0
        for _step in range(100_000):
            await settle()
            if all(task.done() for task in tasks):
                break
            roll = rng.random()
            live = [pl for pl in players if not pl.over and pl.client._writer is not None]
            # the same chance of a drop for each player, however many are still playing
            storm = _step < STORM_STEPS
            if storm and roll < DROP_RATE * len(live):
                victim = rng.choice(live).client
                if rng.random() < 0.5:
                    victim._writer.write(b'{"type":"ro')  # half a frame, then gone
                victim._writer.transport.abort()
                drops += 1
            elif storm and roll > 1 - FORGE_RATE:
                # a forged token for a real seat: refused, and the seat stays put
                table = rng.choice(tables)
                member = rng.choice(members[table.name])
                raw = await Raw.open(host.port)
                await raw.send(p.Hello(protocol=3, name="Mallory", token=f"{member.id}.{'A' * 32}"))
                assert (await raw.expect(p.Error)).code == Code.BAD_TOKEN
                raw.close()
                forged += 1
            due = clock.next_due()
            clock.advance(0.1 if due is None else min(max(due - clock.now(), 0.0), 0.1))
        assert all(task.done() for task in tasks), describe(tables, players, clock)
        for task in tasks:
            task.result()  # no player failed

        assert drops >= 30 and forged >= 3
        assert sum(pl.reconnects for pl in players) >= drops * 0.9
        for table in tables:
            assert table.phase == "over"
            mine = [pl for pl in players if pl.table == table.name]
            # every client of the table saw the same result
            assert len({(tuple(pl.over.winners), tuple(pl.over.scores)) for pl in mine}) == 1
            # no seat lost or duplicated: each client kept its one seat through every
            # reconnect, the seats are the same members as at the start, one each
            assert sorted(pl.seats[0] for pl in mine) == list(range(len(mine)))
            assert all(set(pl.seats) == {pl.seats[0]} for pl in mine)
            assert [s.member for s in table.seats] == members[table.name]
            assert len({id(m) for m in members[table.name]}) == len(mine)
        # the rules refused only stale moves (a script acting on a view from before a drop)
        assert {e for pl in players for e in pl.errors} <= {Code.ILLEGAL_ACTION}
        # no connection serves a member another connection also serves
        served = [peer.member for peer in host._peers if peer.member is not None]
        assert len({id(m) for m in served}) == len(served)
        for player in players:
            await player.client.close()
    finally:
        await host.close()
