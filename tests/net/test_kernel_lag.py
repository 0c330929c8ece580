"""A lag correction a client cannot inflate (issue 35): the kernel's least round trip
for the connection (``TCP_INFO``'s ``tcpi_min_rtt``) bounds the protocol's estimate,
so a client that holds its probe replies looks no farther away than its link is.

Through a real host on real loopback sockets, on a fake clock: a reply is "held" by
moving the host's clock on before answering, which is exactly what the host sees of a
client that waits. The honest player is told the race as it happened."""

from __future__ import annotations

import socket

import pytest

from net import latency, tcpinfo
from net import protocol as p
from net.clock import FakeClock
from net.games.foolsgold import moves as fm
from net.host import Host
from net.latency import DelayMeter

from .helpers import Raw, settle

#: the most a client on loopback is credited: half its round trip and the slack
CREDITED = latency.KERNEL_SLACK + 0.001

pytestmark = [
    pytest.mark.timeout(30),
    pytest.mark.skipif(not tcpinfo.AVAILABLE, reason="TCP_INFO is Linux's"),
]


def test_the_kernel_reports_a_loopback_round_trip_and_nothing_else():
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    with listener, client, server:
        for _ in range(5):
            client.sendall(b"x")
            server.recv(1)
            server.sendall(b"y")
            client.recv(1)
        rtt = tcpinfo.min_rtt(server)
        assert rtt is not None and 0 < rtt < 0.01  # loopback: microseconds
        left, right = socket.socketpair()
        with left, right:
            assert tcpinfo.min_rtt(left) is None  # a Unix socket: the kernel cannot say
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        with udp:
            assert tcpinfo.min_rtt(udp) is None
    assert tcpinfo.min_rtt(server) is None  # closed
    assert tcpinfo.min_rtt(None) is None and tcpinfo.of_transport(None) is None


def test_the_kernels_round_trip_bounds_the_estimate():
    meter = DelayMeter()
    for _ in range(10):
        meter.add(0.300)  # every reply held 300 ms on a fast link
    assert meter.lag == pytest.approx(0.150)  # what the probes alone claim
    meter.bound(0.0001)  # what the kernel measured: 0.1 ms
    assert meter.lag == pytest.approx(0.00005 + latency.KERNEL_SLACK)  # a jitter's slack
    assert meter.estimate == pytest.approx(0.150)  # kept, for the record
    # a real 80 ms link: the probes and the kernel agree, and the whole delay stands
    real = DelayMeter()
    for rtt in (0.161, 0.160, 0.165, 0.170, 0.162):
        real.add(rtt)
    real.bound(0.160)
    assert real.lag == pytest.approx(real.estimate) and real.lag >= 0.080  # its jitter too
    before = real.lag
    for bad in (None, float("nan"), -1.0, 1e9):
        real.bound(bad)  # nothing the kernel could mean changes nothing
    assert real.lag == before


async def _seat(port: int, name: str) -> Raw:
    raw = await Raw.open(port)
    await raw.send(p.Hello(protocol=3, name=name))
    await raw.expect(p.Welcome)
    return raw


async def _answer(raw: Raw, clock: FakeClock, hold: float, times: int) -> None:
    """Answer ``times`` of the host's probes, each after moving the host's clock on by
    ``hold`` (what a held reply looks like to the host), then on to the next probe.
    Between games the host probes every ``IDLE_EVERY`` seconds, more than any hold."""
    for _ in range(times):
        probe = await raw.expect(p.Probe)
        clock.advance(hold)
        await raw.send(p.ProbeReply(id=probe.id))
        await settle()
        clock.advance(latency.IDLE_EVERY - hold)


async def _host(clock: FakeClock, **settings) -> Host:
    host = Host(clock=clock)
    await host.start("127.0.0.1", 0)
    host.create_table("Camp", "foolsgold", seats=3, seed="kernel-lag", **settings)
    return host


async def test_holding_probe_replies_gains_nothing_where_the_kernel_measures():
    clock = FakeClock()
    host = await _host(clock, lag_cap=0.5)  # the most an owner may allow
    try:
        cheat = await _seat(host.port, "Mallory")
        await _answer(cheat, clock, hold=0.300, times=5)
        await settle()
        table = host.tables.find("Camp")
        member = next(m for m in table.members if m.name == "Mallory")
        peer = member.link
        assert peer.meter.estimate == pytest.approx(0.150)  # the probes were fooled
        assert peer.meter.kernel_rtt is not None and peer.meter.kernel_rtt < 0.01
        assert member.lag <= CREDITED  # the kernel was not
        assert table.play.correction(member) <= CREDITED
        cheat.close()
    finally:
        await host.close()


async def test_a_late_reply_holder_loses_the_race_it_was_late_for():
    """Ann grabs first; Mallory, who held every probe reply 300 ms, grabs 40 ms later
    (the cap allows 150). Ann gets the first nugget, and Bob, watching, sees that
    order with no correction for Mallory."""
    clock = FakeClock()
    host = await _host(clock)
    try:
        ann, mallory, bob = [await _seat(host.port, n) for n in ("Ann", "Mallory", "Bob")]
        await _answer(mallory, clock, hold=0.300, times=5)  # Ann and Bob never answer
        for raw in (ann, mallory, bob):
            await raw.send(p.Ready())
        await bob.expect(p.Started)
        await settle()
        table = host.tables.find("Camp")
        mallory_member = next(m for m in table.members if m.name == "Mallory")
        assert mallory_member.link.meter.estimate > 0.1  # the probes alone: fooled
        await ann.send(fm.GRAB())
        await settle()
        clock.advance(0.040)
        await mallory.send(fm.GRAB())
        await settle()
        clock.advance(0.5)  # past any hold
        await settle()

        def order(state: p.State) -> list[int]:
            return [seat for seat, _ in state.view.grabbed]

        seen = await bob.expect(p.State, lambda s: len(order(s)) == 2)
        assert order(seen) == [0, 1]  # Ann, then Mallory
        lags = seen.view.grab_lags or []
        assert len(lags) == 2 and lags[1] <= CREDITED
        assert [s for s, _ in table.driver.view(None)["grabbed"]] == [0, 1]
    finally:
        await host.close()
