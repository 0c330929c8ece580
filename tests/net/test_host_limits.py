"""Hostile input and limits over real TCP: every case gets its code, and the table and
the other clients carry on unaffected."""

import asyncio

import pytest

from net import protocol as p
from net.clock import FakeClock
from net.protocol import Code
from tests.waiting import until, within

from .helpers import Raw, settle


async def _table(make_host, **config):
    host = await make_host(**config)
    host.create_table("Saloon", "nuggets", seats=4)
    ann = await Raw.open(host.port)
    await ann.hello("Ann")
    bob = await Raw.open(host.port)
    await bob.hello("Bob")
    return host, ann, bob


async def _still_fine(ann, bob):
    """Bob's chat reaches Ann, and Ann's ping is answered: both carry on."""
    await bob.send(p.Chat(text="still here"))
    assert (await ann.expect(p.ChatLine)).text == "still here"
    await ann.send(p.Ping(id=7))
    assert (await ann.expect(p.Pong)).id == 7


HOSTILE = [
    (b"{oops\n", Code.BAD_JSON),
    (b'{"type":"chat","text":"\xff"}\n', Code.BAD_UTF8),
    (b'{"type":"ping","id":NaN}\n', Code.BAD_NUMBER),
    (b'{"type":"ping","id":Infinity}\n', Code.BAD_NUMBER),
    (b'{"type":"chat","text":' + b"[" * 100 + b"]" * 100 + b"}\n", Code.TOO_DEEP),
    (b'{"type":"fly"}\n', Code.UNKNOWN_TYPE),
    (b'{"type":"chat","text":5}\n', Code.BAD_FIELD),
    (b'{"type":"chat"}\n', Code.MISSING_FIELD),
    (b'{"type":"hello","protocol": 3,"name":"Again"}\n', Code.HELLO_TWICE),
    (b'{"type":"move","move":"roll"}\n', Code.NOT_PLAYING),
    (b'{"type":"start"}\n', Code.NOT_OWNER),
    (b'{"type":"chat","text":"' + b"x" * 201 + b'"}\n', Code.BAD_TEXT),
]


@pytest.mark.parametrize(("line", "code"), HOSTILE)
async def test_hostile_line_gets_its_code_and_everyone_carries_on(make_host, line, code):
    host, ann, bob = await _table(make_host)
    await bob.send(line)
    assert await bob.error() == code
    await _still_fine(ann, bob)


async def test_oversize_line_error_then_close(make_host):
    host, ann, bob = await _table(make_host, max_line=4096)
    await bob.send(b'{"type":"chat","text":"' + b"x" * 10_000)
    seen = await bob.closed()
    assert [m.code for m in seen if isinstance(m, p.Error)] == [Code.LINE_TOO_LONG]
    assert (await ann.expect(p.Notice, where=lambda m: m.event == "away")).name == "Bob"
    await ann.send(p.Ping(id=1))
    assert (await ann.expect(p.Pong)).id == 1


async def test_before_hello(make_host):
    host = await make_host()
    host.create_table("Saloon", "nuggets")
    raw = await Raw.open(host.port)
    await raw.send(p.Ping())
    assert await raw.error() == Code.HELLO_FIRST
    await raw.send(p.Hello(protocol=9, name="Ann"))
    error = await raw.expect(p.Error)
    assert error.code == Code.BAD_VERSION and "update Motherlode" in error.message
    assert await raw.closed() == []
    # a refused hello other than the version may be retried on the same connection
    raw = await Raw.open(host.port)
    await raw.send(p.Hello(protocol=3, name="\x07"))
    assert await raw.error() == Code.BAD_NAME
    await raw.send(p.Hello(protocol=3, name="Bea", table="Nope"))
    assert await raw.error() == Code.NO_SUCH_TABLE
    assert (await raw.hello("Bea")).seat == 0


async def test_no_hello_within_ten_seconds_is_closed(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock)
    host.create_table("Saloon", "nuggets")
    raw = await Raw.open(host.port)
    await until(lambda: host._peers, "the connection accepted", step=0)
    clock.advance(9.9)
    await settle()
    assert host._peers
    clock.advance(0.1)
    seen = await raw.closed()
    assert [m.code for m in seen] == [Code.HELLO_TIMEOUT]


async def test_a_full_waiting_room_makes_room_from_its_oldest_stranger(make_host):
    """Before hello, a full budget evicts the oldest silent socket, told why; the
    newcomer who says hello at once gets in."""
    host = await make_host(max_connections=2)
    host.create_table("Saloon", "nuggets")
    first, second = await Raw.open(host.port), await Raw.open(host.port)
    await settle()
    third = await Raw.open(host.port)
    assert (await third.hello("Cy")).seat == 0
    seen = await first.closed()
    assert [m.code for m in seen] == [Code.SERVER_FULL]
    assert "hello" in seen[0].message
    second.close()
    third.close()


async def test_spectators_are_capped_per_address_and_told_why_but_a_token_gets_in(make_host):
    """Idle spectators fill their budget: the next one is refused with words, while a
    seated player's reconnect with its token and a new player still get in."""
    from net.budgets import Budgets

    host = await make_host(budgets=Budgets(spectating_per_address=5, pending_per_address=6))
    host.create_table("Saloon", "nuggets", seats=4)
    ann = await Raw.open(host.port)
    token = (await ann.hello("Ann")).token
    watchers = []
    for i in range(5):
        raw = await Raw.open(host.port)
        await raw.hello(f"W{i}", spectate=True)
        watchers.append(raw)
    late = await Raw.open(host.port)
    await late.send(p.Hello(protocol=p.PROTOCOL_VERSION, name="Late", spectate=True))
    seen = await late.closed()
    assert [m.code for m in seen] == [Code.SERVER_FULL]
    assert "your address" in seen[0].message
    ann.close()
    back = await Raw.open(host.port)
    assert (await back.hello("Ann", token=token)).seat == 0
    bob = await Raw.open(host.port)
    assert (await bob.hello("Bob")).seat == 1
    for raw in (*watchers, back, bob):
        raw.close()


async def test_a_table_takes_so_many_spectators(make_host):
    from net.budgets import Budgets

    host = await make_host(budgets=Budgets(spectators_per_table=2))
    host.create_table("Saloon", "nuggets")
    raws = [await Raw.open(host.port) for _ in range(3)]
    for raw in raws[:2]:
        await raw.hello("W", spectate=True)
    await raws[2].send(p.Hello(protocol=p.PROTOCOL_VERSION, name="W", spectate=True))
    error = await raws[2].expect(p.Error)
    assert error.code == Code.TABLE_FULL and "spectators" in error.message
    for raw in raws:
        raw.close()


@pytest.mark.parametrize("token", ["\u00b2.x", "\u0661\u0662.x", "1.\u00e9", "..", ""])
async def test_a_token_that_is_not_ascii_is_answered_bad_token(make_host, token):
    host = await make_host()
    host.create_table("Saloon", "nuggets")
    raw = await Raw.open(host.port)
    await raw.send(p.Hello(protocol=p.PROTOCOL_VERSION, name="X", token=token))
    assert (await raw.expect(p.Error)).code == Code.BAD_TOKEN
    await raw.send(p.Ping(id=1))  # the connection carries on
    assert (await raw.expect(p.Error)).code == Code.HELLO_FIRST
    raw.close()


async def test_full_table(make_host):
    host = await make_host()
    host.create_table("Saloon", "nuggets", seats=2)
    ann, bob, cy = await Raw.open(host.port), await Raw.open(host.port), await Raw.open(host.port)
    await ann.hello("Ann")
    await bob.hello("Bob")
    await cy.send(p.Hello(protocol=3, name="Cy"))
    error = await cy.expect(p.Error)
    assert error.code == Code.TABLE_FULL and "spectator" in error.message
    welcome = await cy.hello("Cy", spectate=True)
    assert welcome.seat is None


async def test_flood_is_rate_limited(make_host):
    clock = FakeClock()  # time stands still: no tokens come back during the flood
    host = await make_host(clock=clock, rate=20, burst=40)
    host.create_table("Saloon", "nuggets")
    raw = await Raw.open(host.port)
    await raw.hello("Ann")  # the hello spends one token
    await raw.send(b"".join(p.encode(p.Ping(id=i)) for i in range(100)))
    pongs, errors = [], []
    while len(pongs) + len(errors) < 40:
        message = await raw.recv()
        if isinstance(message, p.Pong):
            pongs.append(message.id)
        elif isinstance(message, p.Error):
            errors.append(message.code)
    assert pongs == list(range(39))
    assert errors == [Code.RATE_LIMITED]  # one notice, not one per dropped message
    clock.advance(1.0)  # 20 tokens come back
    await raw.send(p.Ping(id="after"))
    assert (await raw.expect(p.Pong)).id == "after"
    # a leave in the middle of a flood is never the message dropped
    await raw.send(b"".join(p.encode(p.Ping(id=i)) for i in range(100)) + p.encode(p.Leave()))
    assert (await raw.expect(p.Bye)).reason == "left"


async def test_a_flooding_connection_is_not_read_until_its_second_ends(make_host):
    """Decoding a flood only to drop it cost every other player's round trip (issue 61:
    0.77 ms to 31.9 ms): over its rate, a connection is not read until the second of its
    notice ends. What it sent meanwhile waits, in order, and is read then: the ping sent
    after the flood is answered once the clock passes that second (read at once and
    dropped, it never was)."""
    clock = FakeClock()  # time stands still until the test moves it
    host = await make_host(clock=clock, rate=20, burst=40)
    host.create_table("Saloon", "nuggets")
    ann, bob = await Raw.open(host.port), await Raw.open(host.port)
    await ann.hello("Ann")
    await bob.hello("Bob")
    await ann.send(b"".join(p.encode(p.Ping(id=i)) for i in range(100)))
    pongs, errors = [], []
    while len(pongs) + len(errors) < 40:
        message = await ann.recv()
        if isinstance(message, p.Pong):
            pongs.append(message.id)
        elif isinstance(message, p.Error):
            errors.append(message.code)
    assert errors == [Code.RATE_LIMITED]
    await ann.send(p.Ping(id="after"))
    for i in range(3):  # the host serves Bob meanwhile
        await bob.send(p.Ping(id=i))
        assert (await bob.expect(p.Pong)).id == i
    clock.advance(0.5)  # half the second: Ann still rests
    await bob.send(p.Ping(id="half"))
    assert (await bob.expect(p.Pong)).id == "half"
    clock.advance(0.5)  # the second ends: Ann is read again, her ping within the limit
    assert (await within(ann.expect(p.Pong), "Ann's ping after the flood")).id == "after"


async def test_a_spectator_floods_at_a_spectator_s_rate(make_host):
    """A spectator only chats and leaves: its messages are capped lower than a
    player's (``spectator_rate``, ``spectator_burst``), before the table sees them."""
    clock = FakeClock()
    host = await make_host(clock=clock, rate=20, burst=40, spectator_rate=2,
                           spectator_burst=10)
    host.create_table("Saloon", "nuggets")
    raw = await Raw.open(host.port)
    await raw.hello("Spec", spectate=True)
    await raw.send(b"".join(p.encode(p.Ping(id=i)) for i in range(100)))
    pongs, errors = [], []
    while not errors:
        message = await raw.recv()
        if isinstance(message, p.Pong):
            pongs.append(message.id)
        elif isinstance(message, p.Error):
            errors.append(message)
    assert pongs == list(range(10))
    assert errors[0].code == Code.RATE_LIMITED and "at most 2 a second" in errors[0].message
    clock.advance(1.0)  # 2 tokens come back
    await raw.send(p.encode(p.Ping(id="a")) + p.encode(p.Ping(id="b")))
    assert (await raw.expect(p.Pong)).id == "a"
    assert (await raw.expect(p.Pong)).id == "b"
    await raw.send(p.Leave())  # never the message dropped
    assert (await raw.expect(p.Bye)).reason == "left"


async def test_a_non_reading_client_is_dropped_and_the_others_keep_pace(make_host):
    from net.budgets import Budgets

    host = await make_host(rate=100_000, burst=100_000, max_queue_bytes=64 * 1024,
                           sndbuf=16 * 1024, budgets=Budgets(chat_rate=1e9, chat_burst=1e9))
    host.create_table("Saloon", "nuggets", seats=4)
    talker, listener = await Raw.open(host.port), await Raw.open(host.port)
    await talker.hello("Ann")
    await listener.hello("Bob")
    sleeper = await Raw.open(host.port, rcvbuf=4096)
    await sleeper.hello("Zed")  # and then never reads again
    text = "y" * 180
    drain = asyncio.create_task(talker.closed())  # the talker reads its echoes
    away = None
    sent = 0
    # batches of 20 lines, each read by the listener before the next: about 630 KB to
    # every member in all, far more than the sleeper's buffers and queue can hold
    while sent < 3000:
        batch = range(sent, sent + 20)
        await talker.send(b"".join(p.encode(p.Chat(text=f"{i} {text}")) for i in batch))
        for i in batch:
            while True:
                message = await listener.recv()
                if isinstance(message, p.ChatLine):
                    assert message.text.startswith(f"{i} ")  # every line, in order
                    break
                if isinstance(message, p.Notice) and message.event == "away":
                    away = (message.name, i)
        sent += 20
    assert away is not None and away[0] == "Zed"
    zed = host.tables.find("Saloon").seats[2]
    assert zed.name == "Zed" and zed.away_since is not None  # the reconnect path
    talker.close()
    drain.cancel()


def test_the_ledger_moves_a_holder_between_stages_the_same_way_for_every_door():
    """``Ledger.settle``, which the host's peers and both doors use: a refusing stage
    leaves the holder where it was; an evicting one makes room from the busiest address
    and hands the evicted to the door with the reason; None forgets the holder."""
    from net import budgets as b

    class Holder:
        def __init__(self, address):
            self.address, self.stage = address, None

    ledger = b.Ledger(b.Budgets(pending=2, pending_per_address=2, spectating=1,
                                spectating_per_address=1), nofile=4096)
    told: list = []
    evict = lambda victim, why: told.append((victim, why))  # noqa: E731
    first, second, third = Holder("10.0.0.1"), Holder("10.0.0.1"), Holder("10.0.0.2")
    assert ledger.settle(first, b.PENDING, evict) and ledger.settle(second, b.PENDING, evict)
    assert ledger.settle(third, b.PENDING, evict)  # full: the busiest address's oldest goes
    assert told == [(first, ledger.why(b.PENDING, "10.0.0.1"))] and first.stage is None
    assert ledger.settle(second, b.SPECTATING, evict) and second.stage == b.SPECTATING
    assert not ledger.settle(third, b.SPECTATING, evict)  # refused: stays pending
    assert third.stage == b.PENDING and ledger.count(b.PENDING, "10.0.0.2") == 1
    assert ledger.settle(third, None, evict) and ledger.settle(third, None, evict)
    assert third.stage is None and ledger.count(b.PENDING, "10.0.0.2") == 0
    assert ledger.snapshot()["count"][b.SPECTATING] == 1 and len(told) == 1


def test_app_starts_per_address_are_a_bucket_refilled_over_time():
    """Every new SSH session or web tab starts an app (half a CPU-second): one address
    gets ``app_start_burst`` at once, then one per ``app_start_every`` seconds, and is
    told how long to wait; another address is not affected."""
    from net import budgets as b

    ledger = b.Ledger(b.Budgets(app_start_burst=3, app_start_every=5.0), nofile=4096)
    assert [ledger.start_app("10.0.0.9", now=100.0) for _ in range(3)] == [None] * 3
    why = ledger.start_app("10.0.0.9", now=100.0)
    assert why == ("Too many new sessions from your address (10.0.0.9): at most 3 at once, "
                   "then one every 5 seconds. Try again in 5 s.")
    assert ledger.start_app("10.0.0.8", now=100.0) is None  # its own bucket
    assert ledger.start_app("10.0.0.9", now=103.0) is not None  # 0.6 of a start: not yet
    assert ledger.start_app("10.0.0.9", now=105.1) is None  # refilled one
    assert ledger.start_app("10.0.0.9", now=105.2) is not None
    assert ledger.start_app("10.0.0.9", now=200.0) is None  # full again after a while
    assert ledger.snapshot()["starts_refused"] == 3


def test_app_starts_from_many_addresses_meet_a_bucket_for_the_server():
    from net import budgets as b

    ledger = b.Ledger(b.Budgets(app_start_burst=2, app_starts=4, app_starts_every=2.0),
                      nofile=4096)
    assert [ledger.start_app(f"10.0.0.{i}", now=50.0) for i in range(4)] == [None] * 4
    why = ledger.start_app("10.0.0.7", now=50.0)
    assert why is not None and why.startswith("The server is starting too many new sessions")
    assert why.endswith("players already here come first. Try again in 2 s.")
    assert ledger.start_app("10.0.0.7", now=52.0) is None  # one more after 2 s
    assert ledger.start_app("10.0.0.7", now=52.0) is not None
    # a refusal takes nothing: 10.0.0.7 still has its second start
    assert ledger.start_app("10.0.0.7", now=54.0) is None


async def test_a_loop_opening_sockets_is_turned_away_at_accept_with_words(make_host):
    """New connections from one address: ``connect_burst`` at once, then
    ``connect_rate`` a second; past that the host answers at accept, in words, and
    counts nothing. A player on another address (here the local one, where the
    server's own apps connect from) is not touched."""
    import asyncio

    from net import budgets as b

    host = await make_host(budgets=b.Budgets(connect_burst=5, connect_rate=0.001))
    host.create_table("Saloon", "nuggets", seats=4)
    ann = await Raw.open(host.port)
    await ann.hello("Ann")
    held = []
    for _ in range(5):
        held.append(await asyncio.open_connection("127.0.0.1", host.port,
                                                  local_addr=("127.0.0.2", 0)))  # fmt: skip
    late = Raw(*await asyncio.open_connection("127.0.0.1", host.port,
                                              local_addr=("127.0.0.2", 0)))  # fmt: skip
    [refused] = await asyncio.wait_for(late.closed(), 10)  # one error, then closed
    assert refused.code == Code.SERVER_FULL
    assert refused.message.startswith("Too many new connections from your address "
                                      "(127.0.0.2): at most 5 at once")  # fmt: skip
    assert host.ledger.count("pending", "127.0.0.2") == 5
    assert host.ledger.snapshot()["connects_refused"] == 1
    for _ in range(3):  # the local address is never counted
        extra = await Raw.open(host.port)
        extra.close()
    await _still_fine(ann, ann)
    for _, w in held:
        w.close()


def test_the_buckets_forget_addresses_that_are_full_again():
    """A scan from thousands of addresses leaves no lasting memory in the ledger."""
    from net import budgets as b

    class Holder:
        def __init__(self, address):
            self.address, self.stage = address, None

    ledger = b.Ledger(b.Budgets(pending=1 << 20, pending_per_address=1 << 20), nofile=1 << 20)
    for i in range(5000):
        assert ledger.arrive(Holder(f"10.1.{i // 250}.{i % 250}"), print, now=0.0) is None
        ledger.start_app(f"10.1.{i // 250}.{i % 250}", now=0.0)
    assert len(ledger._connects) == 5000  # each took a token: none is full yet
    ledger.arrive(Holder("10.9.9.9"), print, now=1000.0)  # everyone refilled long ago
    assert len(ledger._connects) <= 2
    assert ledger.start_app("10.9.9.9", now=1000.0) is None
    assert len(ledger._starts) <= 3 and b.ALL in ledger._starts


async def test_a_full_waiting_room_evicts_another_doors_connection_its_own_way():
    """The ledger is shared by the LAN host and the doors of ``serve``: when a LAN
    connection fills the waiting room, the oldest waiting connection may be the SSH
    door's, and it goes the way its own door said when it came in (the door closes
    it, with the words), not the host's way (a protocol error to a peer it is not).
    The newcomer says hello and sits."""
    from net import budgets as b
    from net.host import Host

    class Gate:  # how the SSH door's connections stand in the ledger (serve.ssh.gate.Gate)
        def __init__(self):
            self.address, self.stage = "127.0.0.2", None

    told: list = []
    ledger = b.Ledger(b.Budgets(pending=2, pending_per_address=2), nofile=4096)
    host = Host(ledger=ledger)
    host.create_table("Saloon", "nuggets")
    await host.start("127.0.0.1", 0)
    try:
        gates = [Gate(), Gate()]
        for gate in gates:
            assert ledger.settle(gate, b.PENDING, lambda victim, why: told.append((victim, why)))
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            "127.0.0.1", host.port, local_addr=("127.0.0.2", 0)), 10)  # fmt: skip
        raw = Raw(reader, writer)
        assert (await raw.hello("Cy")).seat == 0
        assert [victim for victim, _ in told] == [gates[0]]
        assert "pending" in told[0][1] and "127.0.0.2" in told[0][1]
        assert gates[0].stage is None and gates[1].stage == b.PENDING
        raw.close()
    finally:
        await host.close()
