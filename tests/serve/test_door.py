"""The one door interface (``serve.door.Door``): the SSH door and the web door both
offer it (start, stop with a goodbye, sessions, budgets), here as real doors on
127.0.0.1 around small child programs (not the app); and ``motherlode serve`` opens,
lists and closes both through it (a real serve process, the real app)."""

from __future__ import annotations

import asyncio
import inspect
import sys
import time

import aiohttp  # the web extra, which `make test` installs
import asyncssh
import pytest

from net.budgets import Budgets, Ledger
from serve.door import GOODBYE, Door, DoorBudgets, Session
from serve.ssh import DoorConfig, SSHDoor
from serve.web import WebDoor
from tests.serve.helpers import connect, new_key, serving
from tests.serve.web import Tab
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)

# an SSH player's app: says it is ready, then waits for a key (told its player is away,
# SIGUSR1, it waits on, as the app does)
ECHO = ("import signal, sys; signal.signal(signal.SIGUSR1, signal.SIG_IGN); "
        "print('ready', flush=True); sys.stdin.read(1)")
# a tab's app: reads textual-serve's packets until it is told to quit, as the app does
TAB_APP = """
import sys
while len(head := sys.stdin.buffer.read(5)) == 5:
    body = sys.stdin.buffer.read(int.from_bytes(head[1:], "big"))
    if head[:1] == b"M" and b'"quit"' in body:
        break
"""


def _ssh_door(tmp_path, **config) -> SSHDoor:
    return SSHDoor(lambda name: [sys.executable, "-c", ECHO], tmp_path / "serve",
                   config=DoorConfig(**config), ledger=Ledger(Budgets(app_start_burst=3)))


def _web_door(**kw) -> WebDoor:
    return WebDoor([sys.executable, "-c", TAB_APP], ledger=Ledger(Budgets(app_start_burst=3)),
                   **kw)


def _offers_the_interface(door) -> None:
    assert isinstance(door, Door)
    for name in ("start", "stop", "invite", "notes"):
        theirs = inspect.signature(getattr(type(door), name)).parameters
        ours = inspect.signature(getattr(Door, name)).parameters
        assert list(theirs)[:len(ours)] == list(ours), name  # more only as extras
        for extra in list(theirs)[len(ours):]:
            assert theirs[extra].default is not inspect.Parameter.empty, (name, extra)
    assert inspect.signature(type(door).stop).parameters["goodbye"].default == GOODBYE
    for name in ("sessions", "budgets"):
        assert isinstance(inspect.getattr_static(type(door), name), property), name
    assert isinstance(door.budgets, DoorBudgets)
    assert door.budgets.shared is door.ledger.budgets  # one ledger for every door


async def _ssh_player(door: SSHDoor, name: str):
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", door.port, username=name, known_hosts=None, encoding=None,
        client_keys=[new_key()], agent_path=None), 20)
    proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
    seen = b""
    while b"ready" not in seen:
        seen += await asyncio.wait_for(proc.stdout.read(4096), 20)
    return conn, proc


def test_both_doors_give_an_app_at_most_240x80():
    """Issue 56, finding 6: three SSH sessions resizing at 400x200 without end slowed
    another player's chat 3.5-3.8x (each app redraws all its cells); both doors give an
    app at most 240x80, whatever the window asks for (``bench/resize_storm.py``)."""
    from serve.web.door import clamp

    assert DoorConfig().clamp(400, 200) == clamp(400, 200) == (240, 80)
    assert DoorConfig().clamp(200, 60) == clamp(200, 60) == (200, 60)  # below it: as asked


async def test_both_doors_offer_the_interface_before_they_listen(tmp_path):
    ssh, web = _ssh_door(tmp_path, max_sessions=5, keep_detached=30.0), _web_door(
        max_sessions=7, per_address=2)
    for door in (ssh, web):
        _offers_the_interface(door)
        assert door.port == 0 and door.sessions == []
    assert (ssh.name, web.name) == ("ssh", "web")
    assert ssh.budgets == DoorBudgets(max_sessions=5, per_address=None, keep_detached=30.0,
                                      max_size=(240, 80), shared=ssh.ledger.budgets)
    assert web.budgets == DoorBudgets(max_sessions=7, per_address=2, keep_detached=0.0,
                                      max_size=(240, 80), shared=web.ledger.budgets)
    assert ssh.notes()[0] == f"The SSH host key's fingerprint is {ssh.fingerprint}"
    assert web.notes() == []


async def test_the_ssh_door_lists_its_sessions_and_says_goodbye(tmp_path):
    door = _ssh_door(tmp_path)
    before = time.time()
    assert await door.start("127.0.0.1", 0) == door.port > 0
    try:
        _offers_the_interface(door)
        assert door.invite("127.0.0.1") == f"ssh -p {door.port} NAME@127.0.0.1"
        ann, ann_proc = await _ssh_player(door, "ann")
        bob, _ = await _ssh_player(door, "bob")
        sessions = door.sessions
        assert [(s.door, s.who, s.where, s.attached) for s in sessions] == [
            ("ssh", "ann", "127.0.0.1", True), ("ssh", "bob", "127.0.0.1", True)]
        assert before <= sessions[0].since <= sessions[1].since <= time.time()
        bob.abort()  # bob's line drops: his app waits for him
        await until(lambda: [s.attached for s in door.sessions] == [True, False],
                    "the first attached, the second not", 20, step=0.02)
        assert door.sessions[1] == Session("ssh", "bob", "127.0.0.1", sessions[1].since,
                                           attached=False)
    finally:
        await door.stop("Closing for the test. Bye!")
    said = b""
    while chunk := await asyncio.wait_for(ann_proc.stdout.read(4096), 20):
        said += chunk
    await asyncio.wait_for(ann_proc.wait_closed(), 20)
    assert b"Closing for the test. Bye!" in said
    assert ann_proc.exit_status == 0
    assert door.sessions == []
    ann.close()


async def test_the_web_door_lists_its_tabs_and_closes_them(tmp_path):
    door = _web_door()
    before = time.time()
    assert await door.start("127.0.0.1", 0) == door.port > 0
    stopped = False
    try:
        _offers_the_interface(door)
        assert door.invite("127.0.0.1") == f"http://127.0.0.1:{door.port}"
        assert door.invite("::1") == f"http://[::1]:{door.port}"
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws?width=90&height=30")
            await until(lambda: len(door.sessions) == 1, "one session", 20, step=0.02)
            (session,) = door.sessions
            assert (session.door, session.who, session.where, session.attached) == (
                "web", None, "127.0.0.1", True)  # the app asks the name, not the door
            assert before <= session.since <= time.time()
            stopped = True
            await door.stop()
            while not tab.closed:  # the tab's socket ends with the door
                await asyncio.wait_for(tab.receive(), 20)
    finally:
        if not stopped:
            await door.stop()
    await until(lambda: door.sessions == [], "no session", 20, step=0.02)


@pytest.mark.slow
@pytest.mark.timeout(90)
async def test_serve_opens_lists_and_closes_both_doors_through_the_interface(tmp_path):
    async with serving(tmp_path, "--web", "0") as (serve, players):
        lines = serve.output.splitlines()
        ssh_line = lines.index(f"  ssh -p {serve.ssh_port} NAME@127.0.0.1")
        assert lines[ssh_line + 1] == f"  http://127.0.0.1:{serve.web_port}"  # each door's
        assert lines[ssh_line + 2].startswith("The SSH host key's fingerprint is SHA256:")
        ann = await connect(serve, players, "ann", new_key())
        async with aiohttp.ClientSession() as http:
            tab = Tab(await http.ws_connect(
                f"http://127.0.0.1:{serve.web_port}/ws?width=100&height=30"))
            await tab.wait_for("Your name at the table")
            await ann.wait_for("Tables at this host")
            assert await serve.interrupt() == 0  # Ctrl-C: every door stops
            await ann.exit_status()
            assert b"shutting down" in ann.raw
            await asyncio.wait_for(tab.closed.wait(), 20)  # the tab's socket ends too
        await serve.wait_for_line("telling every player goodbye")
