"""The addresses a host announces are the ones it listens on: mDNS records, interfaces,
beacons and browsers follow the listen address."""

from __future__ import annotations

import asyncio
import socket

import pytest

from net import discovery
from net.discovery import (
    Announcer,
    Browser,
)
from tests.net.discovery import WAIT, assert_quiet_warning, next_games, table

LOCAL = ["127.0.0.1", "192.0.2.7", "10.1.2.3", "::1", "fd00::7"]


@pytest.mark.parametrize(
    ("listen", "chosen"),
    [
        (["127.0.0.1"], ["127.0.0.1"]),  # loopback only: announced on loopback alone
        (["::1"], ["::1"]),
        (["localhost"], ["127.0.0.1", "::1"]),  # a host name, resolved
        (["192.0.2.7"], ["192.0.2.7"]),
        (["0.0.0.0"], ["192.0.2.7", "10.1.2.3"]),  # every IPv4 address; no AAAA
        (["::"], ["fd00::7"]),  # asyncio binds :: IPv6-only
        (["0.0.0.0", "::"], ["192.0.2.7", "10.1.2.3", "fd00::7"]),  # start_server(None)
        ([""], ["192.0.2.7", "10.1.2.3", "fd00::7"]),
        (["198.51.100.1"], []),  # not an address of this machine: nothing
    ],
)
def test_the_announced_addresses_are_the_ones_the_host_listens_on(listen, chosen):
    got = discovery.announce_on(listen, LOCAL)
    if listen == ["localhost"]:  # whatever the resolver says, loopback and only that
        assert got and set(got) <= {"127.0.0.1", "::1"}
        return
    assert got == chosen


def test_a_wildcard_host_on_a_machine_with_only_loopback_is_announced_there():
    assert discovery.announce_on(["0.0.0.0"], ["127.0.0.1"]) == ["127.0.0.1"]


class FakeZeroconf:
    """Stands in for AsyncZeroconf: records the interfaces and every registered record."""

    def __init__(self, interfaces):
        self.interfaces = interfaces
        self.registered = []
        self.done = asyncio.Event()

    async def async_register_service(self, info, allow_name_change=False):
        self.registered.append(info)
        self.done.set()

    async def async_update_service(self, info):
        self.registered.append(info)

    async def async_unregister_service(self, info):
        pass

    async def async_close(self):
        pass


async def _announce_on_fake_zeroconf(monkeypatch, listen) -> FakeZeroconf:
    """Announce ``table()`` over mDNS only, to a fake zeroconf; returns it once the
    service is registered."""
    made = []

    def fake(interfaces):
        made.append(FakeZeroconf(interfaces))
        return made[-1]

    monkeypatch.setattr(discovery.sockets, "new_zeroconf", fake)
    async with Announcer(listen=listen, beacon=None) as announcer:
        await announcer.update(table())
        await asyncio.wait_for(made[0].done.wait(), WAIT)
    return made[0]


@pytest.mark.parametrize(
    ("listen", "addresses"),
    [("127.0.0.1", ["127.0.0.1"]), (["0.0.0.0"], None)],
)
async def test_mdns_records_and_interfaces_follow_the_listen_address(
    monkeypatch, listen, addresses
):
    zc = await _announce_on_fake_zeroconf(monkeypatch, listen)
    info = zc.registered[0]
    ipv4 = [a for a in discovery.addresses._all_local_addresses() if ":" not in a]
    if addresses is None:  # every IPv4 address but loopback (unless that is all)
        addresses = [a for a in ipv4 if not a.startswith("127.")] or ipv4
    assert zc.interfaces == addresses
    assert info.parsed_addresses() == addresses
    assert "127.0.0.1" not in addresses or listen == "127.0.0.1" or addresses == ["127.0.0.1"]


async def test_a_loopback_host_sends_its_beacon_on_loopback_only():
    announcer = Announcer(listen=["127.0.0.1"], mdns=False)  # the multicast group
    await announcer.start()
    try:
        assert announcer._socks, "a beacon socket on loopback"
        for sock in announcer._socks:
            assert sock.getsockname()[0] == "127.0.0.1"
            iface = sock.getsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, 4)
            assert socket.inet_ntoa(iface) == "127.0.0.1"
    finally:
        await announcer.close()


async def test_an_ipv6_loopback_host_sends_no_beacon():
    # The beacon is IPv4, and its source address is what a browser connects to:
    # from a host on ::1 it could only name an address the host does not listen on.
    announcer = Announcer(listen=["::1"], mdns=False)
    await announcer.start(table())
    assert announcer._socks == []
    await announcer.close()


@pytest.mark.parametrize("listen", ["127.0.0.1", "non-loopback"])
async def test_a_browser_lists_the_host_under_the_address_it_listens_on(listen):
    """A loopback browse: the beacon's source address, which a browser lists, is the
    host's listen address, not whatever the kernel picks."""
    if listen == "non-loopback":
        others = [a for a in discovery.addresses._all_local_addresses() if ":" not in a]
        others = [a for a in others if not a.startswith("127.")]
        if not others:
            pytest.skip("this machine has no IPv4 address besides loopback")
        listen = others[0]
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as browser:
        target = ("127.0.0.1", browser.beacon_port)
        async with Announcer(listen=listen, mdns=False, beacon=target, interval=0.05) as a:
            await a.update(table())
            games = await next_games(browser.changes(), bool)
    assert games == [table(host=listen)]


async def test_a_host_listening_elsewhere_is_not_announced(caplog):
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as browser:
        target = ("127.0.0.1", browser.beacon_port)
        async with Announcer(listen="198.51.100.1", beacon=target, interval=0.01) as a:
            await a.update(table())
            assert not a.active
    assert_quiet_warning(caplog, "not announcing")


@pytest.mark.parametrize(
    ("listen", "transport"),
    [
        (["::1"], ["127.0.0.1"]),  # IPv6 loopback: sent on loopback, AAAA ::1 only
        (["127.0.0.1"], ["127.0.0.1"]),
    ],
)
async def test_mdns_goes_out_over_ipv4_on_the_listen_addresses_interfaces(
    monkeypatch, listen, transport
):
    zc = await _announce_on_fake_zeroconf(monkeypatch, listen)
    assert zc.interfaces == transport
    assert zc.registered[0].parsed_addresses() == listen
