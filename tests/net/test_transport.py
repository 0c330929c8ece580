"""The in-process transport and TCP carry the same messages, and local play (hot-seat,
solo against bots) runs through the same host and protocol."""

import msgspec

from net import protocol as p
from net.client import Client, Disconnected
from net.clock import FakeClock
from net.identity import Identity

from .helpers import next_of, play_nuggets


async def _record(make_host, local):
    clock = FakeClock()
    host = await make_host(clock=clock, listen=not local, rate=1000, burst=1000)
    host.create_table(
        "Saloon", "nuggets", seats=3, seed="same", bots=2, bot_pace=0.0, first_player=0
    )
    if local:
        client = await Client.local(host, "Ann", clock=clock)
    else:
        # with a key proved (protocol 4), as the app joins: a person, as in-process
        # (without one the TCP seat would be a guest: ``guest`` in every table update)
        client = await Client.connect("127.0.0.1", host.port, "Ann", clock=clock,
                                      identity=Identity.generate())
    await client.send(p.Start())
    record = []
    await play_nuggets(client, record)
    await client.close()
    out = []
    for message in record:
        data = msgspec.to_builtins(message)
        if data.get("type") == "welcome":
            data["token"] = "<token>"  # random by design
        out.append(data)
    return out


async def test_in_process_and_tcp_give_the_same_message_sequence(make_host):
    local = await _record(make_host, local=True)
    tcp = await _record(make_host, local=False)
    assert len(local) > 50
    assert local == tcp
    assert local[0]["type"] == "welcome" and local[-1]["type"] == "over"


async def test_hot_seat_through_the_in_process_host(make_host):
    host = await make_host(listen=False, rate=1000, burst=1000)
    host.create_table("Kitchen", "nuggets", seats=3, seed="hot", hotseat=True)
    client = await Client.local(host, "Ann")
    await client.send(p.AddLocal(name="Bea"))
    await client.send(p.AddLocal(name="\x1b[1mCal"))
    await next_of(client, p.Welcome, where=lambda w: len(w.seats) == 3)
    assert client.seats == [0, 1, 2]
    await client.send(p.Start())
    over = await play_nuggets(client)
    assert over.seed == "hot"
    names = [s.name for s in host.tables.find("Kitchen").seats]
    assert names == ["Ann", "Bea", "Cal"]


async def test_closing_the_host_says_bye_to_the_in_process_client(make_host):
    host = await make_host(listen=False)
    host.create_table("Kitchen", "nuggets", seats=2)
    client = await Client.local(host, "Ann")
    await host.close()
    bye = await next_of(client, p.Bye)
    assert bye.reason == "shutdown"
    last = await client.recv()
    assert isinstance(last, Disconnected) and last.error is None
