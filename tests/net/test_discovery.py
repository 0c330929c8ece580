"""LAN discovery: the wire formats, hostile input, and real sends and receives.

Three kinds of test:
- pure: TXT records and beacon datagrams built and parsed, garbage refused;
- in this process, without privileges: the beacon over unicast 127.0.0.1 on an
  ephemeral port (appear, change, withdraw, go stale, survive garbage and floods);
- in private network namespaces: mDNS and the multicast beacon on the namespace's own
  loopback (``unshare -n`` as root, ``unshare -rn`` otherwise), and between two
  namespaces joined by a veth pair (``ip netns``, root only). Nothing is ever sent
  outside loopback or those namespaces.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import ifaddr
import pytest

from net import discovery
from net.discovery import (
    MAX_DATAGRAM,
    MAX_ENTRIES,
    Announcement,
    Announcer,
    Browser,
    beacon_datagram,
    browse,
    bye_datagram,
    format_address,
    local_addresses,
    parse_datagram,
    parse_txt,
    txt_properties,
)
from net.text import TABLE_NAME_MAX
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
WAIT = 10.0  # seconds: the bound on waiting for an expected packet, never a sleep


def table(**changes) -> Announcement:
    fields = dict(
        game="nuggets", table="Ann's table", seats_free=3, seats_total=4, port=7777, protocol=1
    )
    fields.update(changes)
    return Announcement(**fields)


# -- pure: cleaning and validation -----------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann's table", "Ann's table"),
        ("\x1b[2J\x1b[Hwipe", "wipe"),
        ("a\x1b]0;pwned\x07b", "ab"),  # OSC: set the terminal title
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # OSC 8 hyperlink
        ("\x9b31mC1", "C1"),
        ("tab\there\nnew\rline", "tab here new line"),
        ("bell\x07 nul\x00 del\x7f", "bell nul del"),
        ("evil\u202etxt.exe", "eviltxt.exe"),  # bidi override
        ("x" * 100, "x" * TABLE_NAME_MAX),
        ("x" * (TABLE_NAME_MAX - 1) + " y", "x" * (TABLE_NAME_MAX - 1)),
        ("Zoë 🎲 table", "Zoë 🎲 table"),
    ],
)
def test_announcement_cleans_and_caps_its_table_name(raw, clean):
    # The cleaning itself is net.text's (tested there); every path here goes through it.
    assert table(table=raw).table == clean


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"table": "\x1b[0m \x07"}, "empty once cleaned"),
        ({"table": 5}, "must be text"),
        ({"seats_total": 0}, "seats_total must be a whole number from 1 to 64"),
        ({"seats_free": 5}, "seats_free must be a whole number from 0 to 4, not 5"),
        ({"seats_free": -1}, "seats_free"),
        ({"seats_free": True}, "not True"),  # a bool is not a seat count
        ({"port": 0}, "port must be a whole number from 1 to 65535"),
        ({"port": 7777.0}, "port"),
        ({"protocol": "1"}, "protocol"),
        ({"host": "example.com"}, "not an IP address"),
    ],
)
def test_announcement_refuses_bad_values(changes, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        table(**changes)


def test_address_formatting():
    assert table(host="192.0.2.7").address == "192.0.2.7:7777"
    assert table(host="fd00::2").address == "[fd00::2]:7777"
    assert format_address("fe80::1%eth0", 80) == "[fe80::1%eth0]:80"


def test_local_addresses_are_the_non_loopback_ones():
    found = local_addresses()
    expected = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            if text.startswith("127.") or text == "::1" or text.lower().startswith("fe80"):
                continue
            expected.add(text)
    assert set(found) == expected
    assert len(found) == len(set(found))
    v4 = [":" not in a for a in found]
    assert v4 == sorted(v4, reverse=True)  # IPv4 first


def test_mdns_addresses_on_our_own_network_come_first():
    ours = [ipaddress.ip_network("192.168.1.0/24"), ipaddress.ip_network("fd00::/64")]
    given = [
        "172.17.0.1",
        "fd00::5",
        "224.0.0.251",
        "0.0.0.0",
        "192.168.1.5",
        "2001:db8::1",
        "192.168.1.5",
        "10.0.0.1",
    ]
    assert discovery.addresses._usable_addresses(given, ours) == [
        "192.168.1.5",
        "fd00::5",
        "172.17.0.1",
        "10.0.0.1",
        "2001:db8::1",
    ]
    assert discovery.addresses._usable_addresses(["not an ip", "::"], ours) == []


# -- pure: TXT records -----------------------------------------------------------------


def as_txt(props: dict) -> dict:
    """What zeroconf hands a browser: bytes keys and values."""
    return {k.encode(): None if v is None else v.encode() for k, v in props.items()}


def test_txt_round_trip():
    sent = table(game="foolsgold", seats_free=0, seats_total=8, protocol=3)
    props = txt_properties(sent)
    assert props == {
        "txtvers": "1",
        "protocol": "3",
        "game": "foolsgold",
        "table": "Ann's table",
        "free": "0",
        "seats": "8",
    }
    got = parse_txt(as_txt(props), "192.0.2.7", 7777)
    assert got == Announcement(
        game="foolsgold",
        table="Ann's table",
        seats_free=0,
        seats_total=8,
        port=7777,
        protocol=3,
        host="192.0.2.7",
    )


GOOD_TXT = txt_properties(table())


@pytest.mark.parametrize(
    "props",
    [
        {k: v for k, v in GOOD_TXT.items() if k != "table"},
        {k: v for k, v in GOOD_TXT.items() if k != "txtvers"},
        {**GOOD_TXT, "txtvers": "2"},
        {**GOOD_TXT, "free": "-1"},
        {**GOOD_TXT, "free": "３"},  # a fullwidth digit is not a digit here
        {**GOOD_TXT, "free": "9"},  # more free than seats
        {**GOOD_TXT, "seats": "999999"},
        {**GOOD_TXT, "free": None},  # a key without a value
        {**GOOD_TXT, "game": "chess"},
        {**GOOD_TXT, "table": "\x1b[0m"},
        {**GOOD_TXT, "table": "x" * 300},  # longer than a TXT string can be
    ],
)
def test_bad_txt_is_ignored(props):
    assert parse_txt(as_txt(props), "192.0.2.7", 7777) is None


def test_txt_table_name_is_cleaned_and_bad_utf8_replaced():
    props = as_txt({**GOOD_TXT, "table": "\x1b[5mblink"})
    assert parse_txt(props, "192.0.2.7", 7777).table == "blink"
    props[b"table"] = b"caf\xe9"
    assert parse_txt(props, "192.0.2.7", 7777).table == "caf\ufffd"
    assert parse_txt("not a dict", "192.0.2.7", 7777) is None


# -- pure: beacon datagrams ------------------------------------------------------------


def test_beacon_round_trip():
    sent = table(game="foolsgold", table="Zoë's", seats_free=5, seats_total=6)
    data = beacon_datagram(sent)
    assert json.loads(data) == {
        "motherlode": 1,
        "protocol": 1,
        "game": "foolsgold",
        "table": "Zoë's",
        "free": 5,
        "seats": 6,
        "port": 7777,
    }
    assert parse_datagram(data, "10.1.2.3") == Announcement(
        game="foolsgold",
        table="Zoë's",
        seats_free=5,
        seats_total=6,
        port=7777,
        protocol=1,
        host="10.1.2.3",
    )
    assert parse_datagram(bye_datagram("Zoë's", 7777), "10.1.2.3") == ("Zoë's", 7777)


GOOD = json.loads(beacon_datagram(table()))
GARBAGE = [
    b"",
    b"\xff\xfe\x00garbage",
    b"null",
    b"[1, 2, 3]",
    b'"motherlode"',
    b"{" * 600,
    b"[" * 500 + b"]" * 500,  # deep, but under the size cap
    json.dumps({**GOOD, "motherlode": 2}).encode(),
    json.dumps({**GOOD, "motherlode": True}).encode(),
    json.dumps({**GOOD, "free": True}).encode(),
    json.dumps({**GOOD, "port": 7777.0}).encode(),
    json.dumps({**GOOD, "port": 70000}).encode(),
    json.dumps({**GOOD, "seats": "4"}).encode(),
    json.dumps({**GOOD, "table": ["list"]}).encode(),
    json.dumps({**GOOD, "table": "\x1b[0m\x00"}).encode(),
    json.dumps({**GOOD, "game": None}).encode(),
    json.dumps({k: v for k, v in GOOD.items() if k != "protocol"}).encode(),
    json.dumps({**GOOD, "pad": "x" * MAX_DATAGRAM}).encode(),  # oversize, else fine
    b'{"motherlode":1,"protocol":1,"game":"nuggets","table":"t","free":NaN,"seats":4,"port":7777}',
    json.dumps({"motherlode": 1, "bye": True, "table": "", "port": 7777}).encode(),
    json.dumps({"motherlode": 1, "bye": True, "table": "t"}).encode(),
]


@pytest.mark.parametrize("data", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_datagrams_are_ignored(data):
    assert parse_datagram(data, "10.1.2.3") is None


def test_hostile_beacon_text_is_cleaned():
    data = json.dumps({**GOOD, "table": "\x1b]0;owned\x07Free \x9b2Jbeer"}).encode()
    assert parse_datagram(data, "10.1.2.3").table == "Free beer"


def test_instance_name_fits_dns_sd():
    name = discovery.sockets._instance_name(table(table="é" * 40 + ".x", game="foolsgold"))
    assert len(name.encode()) <= 63 and "." not in name and name.startswith("éé")


# -- real sends and receives: the beacon over unicast loopback, no privileges ----------


async def next_games(changes, predicate, timeout: float = WAIT):
    """The first list from ``changes`` that satisfies ``predicate``, within a bound."""

    async def first():
        async for games in changes:
            if predicate(games):
                return games

    return await asyncio.wait_for(first(), timeout)


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


def assert_quiet_warning(caplog, text: str) -> None:
    records = [r for r in caplog.records if r.name == "net.discovery"]
    assert any(text in r.getMessage() and r.levelno == logging.WARNING for r in records), [
        r.getMessage() for r in records
    ]
    assert all(r.exc_info is None for r in records)  # no traceback anywhere


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


def _can(argv: list[str]) -> bool:
    try:
        return subprocess.run(argv, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.fixture(scope="module")
def isolate() -> list[str]:
    """The command prefix that runs a command in a fresh network namespace, in which
    it may bring loopback up: ``unshare -n`` as root, ``unshare -rn`` (a user
    namespace) otherwise."""
    if not shutil.which("unshare") or not shutil.which("ip"):
        pytest.skip("needs unshare and ip (util-linux, iproute2) to make a private network")
    candidates = [["unshare", "-rn"]]
    if os.geteuid() == 0:
        candidates.insert(0, ["unshare", "-n"])
    for prefix in candidates:
        if _can([*prefix, "ip", "link", "set", "lo", "up"]):
            return prefix
    pytest.skip(
        "needs root, or unprivileged user namespaces (unshare -rn), to create a "
        "private network namespace"
    )


def run_isolated(prefix: list[str], script: str, *, loopback: bool = True) -> dict:
    """Run ``COMMON`` and ``script`` with this Python in a fresh network namespace
    and return the JSON object it prints last."""
    # A fresh namespace has loopback down and without an address until it is set up.
    shell = ("ip link set lo up && " if loopback else "") + 'exec "$0" -c "$1"'
    proc = subprocess.run(
        [*prefix, "sh", "-c", shell, sys.executable, COMMON + textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=25,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1]) | {"stderr": proc.stderr}


COMMON = """
import asyncio, json, logging, sys
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf
from net.discovery import *
logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
WAIT = 8

def ann(**kw):
    base = dict(game="nuggets", table="Ann's table", seats_free=3, seats_total=4,
                port=7777, protocol=1)
    return Announcement(**(base | kw))

async def until(browser, predicate):
    async def wait():
        async for games in browser.changes():
            if predicate(games):
                return [[g.game, g.table, g.seats_free, g.seats_total, g.host, g.port,
                         g.protocol] for g in games]
    return await asyncio.wait_for(wait(), WAIT)
"""


@pytest.mark.slow
def test_mdns_and_multicast_beacon_on_a_private_loopback(isolate):
    script = """
    async def main():
        out = {}
        lo = ["127.0.0.1"]
        async with Browser(interfaces=lo, beacon=None) as by_mdns, \\
                Browser(interfaces=lo, mdns=False) as by_beacon, \\
                Browser(interfaces=lo) as both, \\
                Announcer(interfaces=lo) as announcer:
            await announcer.update(ann(table="\\x1b[31mAnn's table"))
            await announcer.update(ann(game="foolsgold", table="Bob", seats_total=8,
                                       seats_free=8))
            two = lambda g: len(g) == 2
            out["mdns"] = await until(by_mdns, two)
            out["beacon"] = await until(by_beacon, two)
            out["both"] = await until(both, two)
            await announcer.update(ann(seats_free=1))
            one_free = lambda g: any(x.seats_free == 1 for x in g)
            out["mdns_update"] = await until(by_mdns, one_free)
            out["beacon_update"] = await until(by_beacon, one_free)
            await announcer.withdraw("Bob")
            one = lambda g: len(g) == 1
            out["mdns_withdrawn"] = await until(by_mdns, one)
            out["beacon_withdrawn"] = await until(by_beacon, one)
            await announcer.close()
            out["mdns_closed"] = await until(by_mdns, lambda g: not g)
            out["both_closed"] = await until(both, lambda g: not g)
        print(json.dumps(out))

    asyncio.run(main())
    """
    out = run_isolated(isolate, script)
    ann = ["nuggets", "Ann's table", 3, 4, "127.0.0.1", 7777, 1]
    bob = ["foolsgold", "Bob", 8, 8, "127.0.0.1", 7777, 1]
    assert out["mdns"] == out["beacon"] == out["both"] == [bob, ann]  # listed once
    assert out["mdns_update"] == out["beacon_update"] == [bob, [*ann[:2], 1, *ann[3:]]]
    assert out["mdns_withdrawn"] == out["beacon_withdrawn"] == [[*ann[:2], 1, *ann[3:]]]
    assert out["mdns_closed"] == out["both_closed"] == []


def test_hostile_mdns_records_are_cleaned_or_ignored(isolate):
    # A raw zeroconf responder publishes what a hostile host might.
    script = """
    GOOD = {"txtvers": "1", "protocol": "1", "game": "nuggets", "free": "1", "seats": "2"}
    RECORDS = {
        "evil": GOOD | {"table": "\\x1b]0;owned\\x07\\x1b[2JFree beer\\u202e"},
        "no-table": GOOD,
        "bad-free": GOOD | {"table": "x", "free": "lots"},
        "too-many": GOOD | {"table": "y", "free": "3"},
        "old": GOOD | {"table": "z", "txtvers": "9"},
        "chess": GOOD | {"table": "c", "game": "chess"},
    }

    async def main():
        lo = ["127.0.0.1"]
        async with Browser(interfaces=lo, beacon=None) as browser:
            zc = AsyncZeroconf(interfaces=lo)
            for label, props in RECORDS.items():
                info = AsyncServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=7777,
                                        properties=props, server="evil.local.",
                                        parsed_addresses=["127.0.0.1"])
                await zc.async_register_service(info, cooperating_responders=True)
            games = await until(browser, bool)
            async def all_seen():
                while browser.ignored < len(RECORDS) - 1:
                    await asyncio.sleep(0.05)
            await asyncio.wait_for(all_seen(), WAIT)
            print(json.dumps({"games": browser_games(browser), "ignored": browser.ignored,
                              "first": games}))
            await zc.async_close()

    def browser_games(browser):
        return [g.table for g in browser.games]

    asyncio.run(main())
    """
    out = run_isolated(isolate, script)
    assert out["first"] == [["nuggets", "Free beer", 1, 2, "127.0.0.1", 7777, 1]]
    assert out["games"] == ["Free beer"]
    assert out["ignored"] >= 5  # each bad record at least once (updates may repeat one)


def test_discovery_fails_quietly_without_multicast(isolate):
    # Another responder holds UDP 5353 and the beacon port for itself (as avahi does
    # with disallow-other-stacks), and nothing else: every path is down, none raises.
    script = """
    import socket
    holders = []
    for port in (5353, BEACON_PORT):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("0.0.0.0", port))
        holders.append(s)

    async def main():
        browser = Browser()
        await browser.start()
        announcer = Announcer(mdns=True, beacon=None)
        await announcer.start(ann())
        await announcer.update(ann(seats_free=0))
        first = await anext(browser.changes())
        out = {"browser": browser.active, "announcer": announcer.active, "games": first}
        await announcer.close()
        await browser.close()
        print(json.dumps(out))

    asyncio.run(main())
    """
    out = run_isolated(isolate, script)
    assert (out["browser"], out["announcer"], out["games"]) == (False, False, [])
    assert "LAN discovery (mDNS) unavailable" in out["stderr"]
    assert "LAN beacon listener unavailable" in out["stderr"]


def test_discovery_fails_quietly_with_no_network_at_all(isolate):
    # Loopback never brought up: no interface has an address.
    script = """
    async def main():
        async with Browser() as browser, Announcer() as announcer:
            await announcer.update(ann())
            out = {"browser": browser.active, "announcer": announcer.active,
                   "games": browser.games, "local": local_addresses()}
        print(json.dumps(out))

    asyncio.run(main())
    """
    out = run_isolated(isolate, script, loopback=False)
    assert out["browser"] is out["announcer"] is False
    assert out["games"] == out["local"] == []
    assert "unavailable" in out["stderr"]


# -- two namespaces joined by a veth pair: a host and a client on their own LAN --------


@pytest.fixture
def veth_lan():
    """Two network namespaces joined by a veth pair, 10.77.0.1/24 and 10.77.0.2/24;
    always torn down. Root only: ``ip netns`` needs it."""
    if os.geteuid() != 0:
        pytest.skip("needs root: ip netns add (the loopback namespace tests run without it)")
    if not shutil.which("ip"):
        pytest.skip("needs ip (iproute2)")
    tag = f"ml{os.getpid() % 100000}"
    ns = (f"{tag}h", f"{tag}c")
    links = (f"{tag}vh", f"{tag}vc")
    commands = [
        ["ip", "netns", "add", ns[0]],
        ["ip", "netns", "add", ns[1]],
        ["ip", "link", "add", links[0], "type", "veth", "peer", "name", links[1]],
        ["ip", "link", "set", links[0], "netns", ns[0]],
        ["ip", "link", "set", links[1], "netns", ns[1]],
        ["ip", "-n", ns[0], "addr", "add", "10.77.0.1/24", "dev", links[0]],
        ["ip", "-n", ns[1], "addr", "add", "10.77.0.2/24", "dev", links[1]],
    ]
    for name, link in zip(ns, links, strict=True):
        commands += [
            ["ip", "-n", name, "link", "set", "lo", "up"],
            ["ip", "-n", name, "link", "set", link, "up"],
        ]
    try:
        for argv in commands:
            subprocess.run(argv, check=True, capture_output=True, timeout=10)
        yield ns
    finally:
        for name in ns:  # deleting a namespace deletes its end of the veth pair, and so both
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)
        subprocess.run(["ip", "link", "del", links[0]], capture_output=True, timeout=10)


HOST_SIDE = (
    COMMON
    + """
async def main():
    async with Announcer(interfaces=["10.77.0.1"]) as announcer:
        await announcer.update(ann())
        print("announced", flush=True)
        loop = asyncio.get_running_loop()
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            if line.strip() == "seat":
                await announcer.update(ann(seats_free=2))
            elif line.strip() == "close":
                break
    print("closed", flush=True)

asyncio.run(main())
"""
)

CLIENT_SIDE = (
    COMMON
    + """
async def main():
    iface = ["10.77.0.2"]
    async with Browser(interfaces=iface, beacon=None) as by_mdns, \\
            Browser(interfaces=iface, mdns=False) as by_beacon:
        print(json.dumps({"ready": True}), flush=True)
        async def report(path, browser):
            async for games in browser.changes():
                print(json.dumps({path: [[g.table, g.seats_free, g.host, g.port]
                                         for g in games]}), flush=True)
        await asyncio.gather(report("mdns", by_mdns), report("beacon", by_beacon))

asyncio.run(main())
"""
)


@pytest.mark.slow
async def test_host_and_client_in_two_namespaces_over_veth(veth_lan):
    host_ns, client_ns = veth_lan
    client = await asyncio.create_subprocess_exec(
        "ip",
        "netns",
        "exec",
        client_ns,
        sys.executable,
        "-c",
        CLIENT_SIDE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )
    host = await asyncio.create_subprocess_exec(
        "ip",
        "netns",
        "exec",
        host_ns,
        sys.executable,
        "-c",
        HOST_SIDE,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )
    seen = {"mdns": [], "beacon": []}

    async def until_both(expected):
        async def read():
            while not (
                seen["mdns"]
                and seen["mdns"][-1] == expected
                and seen["beacon"]
                and seen["beacon"][-1] == expected
            ):
                line = await client.stdout.readline()
                assert line, (await client.stderr.read()).decode()
                for path, games in json.loads(line).items():
                    if path in seen:
                        seen[path].append(games)

        await asyncio.wait_for(read(), WAIT)

    try:
        assert await asyncio.wait_for(host.stdout.readline(), WAIT) == b"announced\n"
        await until_both([["Ann's table", 3, "10.77.0.1", 7777]])
        host.stdin.write(b"seat\n")
        await until_both([["Ann's table", 2, "10.77.0.1", 7777]])
        host.stdin.write(b"close\n")
        await until_both([])  # mDNS goodbye and beacon bye, not a time-out
        assert await asyncio.wait_for(host.stdout.readline(), WAIT) == b"closed\n"
        assert await asyncio.wait_for(host.wait(), WAIT) == 0
        stderr = (await host.stderr.read()).decode()
        assert "Traceback" not in stderr and "WARNING" not in stderr, stderr
    finally:
        for proc in (host, client):
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


# -- announcing only where the host listens (issue 10, point 5) ------------------------

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
