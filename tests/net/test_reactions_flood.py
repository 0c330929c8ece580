"""A flood of reactions costs the others nothing (issue 61): through the real host, on
a fake clock (so a person's one reaction every 2 s is a count, not a speed), Ann writes
a thousand reactions at once; Bob's and the watcher's round trips carry no more than
they carry when the table is quiet, plus Ann's one reaction. The round trips in
seconds are ``bench/reactions_flood.py``'s (docs/BENCHMARKS.md)."""

from __future__ import annotations

import pytest

from net import protocol as p
from net.clock import FakeClock
from tests.net.helpers import Raw

pytestmark = pytest.mark.timeout(60)


async def hello4(port: int, name: str, **kw) -> Raw:
    raw = await Raw.open(port)
    await raw.send(p.Hello(protocol=4, name=name, **kw))
    await raw.expect(p.Welcome)
    return raw


async def round_trip(raw: Raw, ping: int) -> list:
    """Everything that reached ``raw`` ahead of its pong (the pong's wait, in messages)."""
    await raw.send(p.Ping(id=ping))
    ahead = []
    while not isinstance(message := await raw.recv(), p.Pong) or message.id != ping:
        assert message is not None, "closed"
        ahead.append(message)
    return ahead


def reactions(messages: list) -> list:
    return [m for m in messages if isinstance(m, p.Reaction)]


async def test_a_flood_of_reactions_costs_the_others_nothing(make_host):
    clock = FakeClock()
    # the connection's own limit raised, so every reaction of the flood reaches the
    # table: its limit, one a person every 2 s, is what drops them here
    host = await make_host(clock=clock, burst=5000.0)
    host.create_table("Saloon", "nuggets", seats=3)
    ann = await hello4(host.port, "Ann")
    bob = await hello4(host.port, "Bob")
    eve = await hello4(host.port, "Eve", spectate=True)
    for raw in (ann, bob, eve):
        await round_trip(raw, 0)  # everything of the arrivals read
    quiet = {name: await round_trip(raw, 1) for raw, name in ((bob, "bob"), (eve, "eve"))}
    flood = b"".join(p.encode(p.React(reaction="nice")) for _ in range(1000))
    await ann.send(flood)
    during = {"bob": await round_trip(bob, 2), "eve": await round_trip(eve, 2)}
    own = await round_trip(ann, 3)  # Ann's own line: every flooded message handled
    after = {"bob": await round_trip(bob, 4), "eve": await round_trip(eve, 4)}
    for name in ("bob", "eve"):
        seen = reactions(during[name] + after[name])
        assert [(r.name, r.reaction) for r in seen] == [("Ann", "nice")], name
        # each round trip carried at most what a quiet one did, and that one reaction
        assert len(during[name]) <= len(quiet[name]) + 1, (name, during[name])
        assert len(after[name]) <= len(quiet[name]) + 1, (name, after[name])
    # dropped in silence: Ann hears of her one reaction, nothing of the rest
    assert not [m for m in own if isinstance(m, p.Error)]
    assert len(reactions(own)) <= 1
    # two seconds on, she may react again, and everyone sees it once
    clock.advance(2.0)
    await ann.send(p.React(reaction="gg"))
    await round_trip(ann, 5)
    assert [r.reaction for r in reactions(await round_trip(bob, 6))] == ["gg"]
    assert [r.reaction for r in reactions(await round_trip(eve, 6))] == ["gg"]
    for raw in (ann, bob, eve):
        raw.close()
