"""Beacons and browsers on loopback, in this process: tables appear, change, go stale and
go; garbage, floods and failures are survived quietly."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import pytest

from net.discovery import (
    MAX_ENTRIES,
    Announcer,
    Browser,
    beacon_datagram,
    browse,
    bye_datagram,
)
from tests.net.discovery import GARBAGE, GOOD, WAIT, assert_quiet_warning, next_games, table
from tests.waiting import until


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.reads = 0  # how often the browser looked: each sweep looks once

    def __call__(self) -> float:
        self.reads += 1
        return self.now


@contextlib.asynccontextmanager
async def loopback_pair(**browser_options):
    """A beacon-only browser on 127.0.0.1 (ephemeral port) and an announcer aimed at it."""
    async with Browser(mdns=False, beacon=("127.0.0.1", 0), **browser_options) as browser:
        assert browser.active
        target = ("127.0.0.1", browser.beacon_port)
        async with Announcer(mdns=False, beacon=target, interval=0.05) as announcer:
            yield browser, announcer


async def test_beacon_on_loopback_appears_changes_and_is_withdrawn():
    async with loopback_pair() as (browser, announcer):
        changes = browser.changes()
        assert await anext(changes) == []
        await announcer.update(table())
        games = await next_games(changes, bool)
        assert games == [table(host="127.0.0.1")]
        await announcer.update(table(seats_free=1))
        await next_games(changes, lambda g: g and g[0].seats_free == 1)
        await announcer.update(table(table="Bob", game="foolsgold", seats_total=8))
        games = await next_games(changes, lambda g: len(g) == 2)
        assert [(g.game, g.table) for g in games] == [
            ("foolsgold", "Bob"),
            ("nuggets", "Ann's table"),
        ]
        await announcer.withdraw("Ann's table")
        games = await next_games(changes, lambda g: len(g) == 1)
        assert games[0].table == "Bob"
        await announcer.close()  # a bye for every table still announced
        assert await next_games(changes, lambda g: not g) == []


async def test_beacon_announcer_started_with_tables_repeats_them():
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as browser:
        announcer = Announcer(mdns=False, beacon=("127.0.0.1", browser.beacon_port), interval=0.05)
        await announcer.start(table(), table(table="Bob"))
        try:
            changes = browser.changes()
            await next_games(changes, lambda g: len(g) == 2)
        finally:
            await announcer.close()
        assert announcer.tables == [table(), table(table="Bob")]


async def test_beacon_table_goes_stale_on_the_clock():
    clock = FakeClock()
    async with Browser(mdns=False, beacon=("127.0.0.1", 0), stale_after=5.0, clock=clock) as b:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.sendto(beacon_datagram(table()), ("127.0.0.1", b.beacon_port))
        changes = b.changes()
        await next_games(changes, bool)
        clock.now += 4.9  # not yet stale: the sweep runs, nothing changes
        looked = clock.reads
        await until(lambda: clock.reads > looked, "a sweep", WAIT, step=0.001)  # a sweep since
        assert b.games == [table(host="127.0.0.1")]
        clock.now += 0.2
        assert await next_games(changes, lambda g: not g) == []


async def test_beacon_listener_survives_garbage_and_reports_it():
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as browser:
        target = ("127.0.0.1", browser.beacon_port)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for data in GARBAGE:
                sock.sendto(data, target)
            sock.sendto(b"x" * 60000, target)  # far beyond the cap
            evil = json.dumps({**GOOD, "table": "\x1b[2J\x1b[31mRed"}).encode()
            sock.sendto(evil, target)
        games = await next_games(browser.changes(), bool)
        assert [g.table for g in games] == ["Red"]
        assert browser.ignored == len(GARBAGE) + 1


async def test_a_bye_from_another_host_removes_nothing():
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as browser:
        target = ("127.0.0.1", browser.beacon_port)
        changes = browser.changes()
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.sendto(beacon_datagram(table()), target)
            await next_games(changes, bool)
            sock.sendto(bye_datagram("Ann's table", 7778), target)  # another port
            sock.sendto(beacon_datagram(table(table="Marker")), target)
        games = await next_games(changes, lambda g: len(g) == 2)
        assert {g.table for g in games} == {"Ann's table", "Marker"}


async def test_browser_keeps_a_bounded_number_of_tables():
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as browser:
        target = ("127.0.0.1", browser.beacon_port)
        flood = MAX_ENTRIES + 40
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for i in range(flood):
                sock.sendto(beacon_datagram(table(table=f"t{i}")), target)
                # one at a time, so no datagram is lost to a full receive buffer
                handled = lambda n=i + 1: len(browser.games) + browser.ignored == n  # noqa: E731
                await until(handled, "handled", WAIT, step=0.001)
        assert len(browser.games) == MAX_ENTRIES
        assert browser.ignored == flood - MAX_ENTRIES
        # A known table still updates when the browser is full.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.sendto(beacon_datagram(table(table="t0", seats_free=0)), target)
        await next_games(browser.changes(), lambda g: g[0].table == "t0" and g[0].seats_free == 0)


async def test_browse_yields_lists_and_stops_cleanly():
    async with Browser(mdns=False, beacon=("127.0.0.1", 0)) as probe:
        port = probe.beacon_port
    # The port is free again; browse() opens its own Browser on it.
    games_seen = []
    stream = browse(mdns=False, beacon=("127.0.0.1", port))
    games_seen.append(await asyncio.wait_for(anext(stream), WAIT))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.sendto(beacon_datagram(table()), ("127.0.0.1", port))
    games_seen.append(await asyncio.wait_for(anext(stream), WAIT))
    await stream.aclose()
    assert games_seen == [[], [table(host="127.0.0.1")]]
    # aclose() closed the socket: the port can be bound again.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", port))


async def test_closed_browser_ends_its_changes():
    browser = Browser(mdns=False, beacon=("127.0.0.1", 0))
    await browser.start()
    changes = browser.changes()
    assert await anext(changes) == []
    waiting = asyncio.ensure_future(anext(changes))
    await asyncio.sleep(0)
    await browser.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(waiting, WAIT)


# -- failing quietly -------------------------------------------------------------------


async def test_beacon_listener_on_a_taken_port_fails_quietly(caplog):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
        async with Browser(mdns=False, beacon=("127.0.0.1", port)) as browser:
            assert not browser.active and browser.beacon_port is None
            assert await anext(browser.changes()) == []
    assert_quiet_warning(caplog, "beacon listener unavailable")


@pytest.mark.parametrize("interfaces", [[], ["::1"]])
async def test_announcer_without_an_ipv4_interface_fails_quietly(caplog, interfaces):
    # The beacon is IPv4: with no IPv4 interface to send from, nothing is sent, and
    # the announcer still takes updates and closes.
    announcer = Announcer(mdns=False, interfaces=interfaces)
    await announcer.start(table())
    assert not announcer.active
    await announcer.update(table(seats_free=0))
    await announcer.withdraw("Ann's table")
    await announcer.close()
    await announcer.close()  # twice is fine
    assert_quiet_warning(caplog, "beacon unavailable")


async def test_beacon_send_errors_are_logged_once(caplog):
    # UDP port 0 cannot be sent to (EINVAL): a stand-in, on loopback, for a network
    # that refuses the beacon. The announcer logs it once and carries on.
    announcer = Announcer(mdns=False, beacon=("127.0.0.1", 0), interval=0.01)
    await announcer.start(table())
    await announcer.update(table(seats_free=2))
    await announcer.update(table(seats_free=1))
    await announcer.close()
    sent = [r for r in caplog.records if "could not be sent" in r.getMessage()]
    assert len(sent) == 1 and sent[0].exc_info is None


def test_start_twice_is_a_programming_error():
    async def twice():
        async with Announcer(mdns=False, beacon=None) as announcer:
            await announcer.start()

    with pytest.raises(RuntimeError, match="already started"):
        asyncio.run(twice())


# -- private network namespaces: mDNS and multicast for real ---------------------------
