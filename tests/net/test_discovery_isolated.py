"""Discovery in private network namespaces: mDNS and beacons on a private loopback,
hostile records, no multicast, no network, a host and a client over veth."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from tests.net.discovery import ROOT, WAIT


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
