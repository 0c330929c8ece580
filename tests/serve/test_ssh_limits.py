"""The SSH door's limits (issue 20), against an in-process door and a trivial app:
a login with no session is closed, one session per connection, env requests capped,
wrong passwords throttled, pins only for admitted sessions, look-alike names refused,
a pins file that expires and never follows a symlink."""

import asyncio
import json
import sys
import time

import asyncssh
import pytest

from serve.pins import Pins
from serve.ssh import DoorConfig, SSHDoor
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)

ECHO = "import sys; print('ready', flush=True); sys.stdin.read(1)"


async def _door(tmp_path, password=None, ledger=None, **config) -> SSHDoor:
    door = SSHDoor(lambda name: [sys.executable, "-c", ECHO], tmp_path / "serve",
                config=DoorConfig(**config), password=password, ledger=ledger)
    await door.start("127.0.0.1", 0)
    return door


def _connect(door, name="ann", **kw):
    kw.setdefault("client_keys", [asyncssh.generate_private_key("ssh-ed25519")])
    return asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", door.port, username=name, known_hosts=None, encoding=None,
        agent_path=None, **kw), 20)


def _session(conn):
    return conn.create_process(term_type="xterm", term_size=(80, 24))


async def _refusal(conn) -> bytes:
    """What a session the door refuses is told."""
    refused = await _session(conn)
    return await asyncio.wait_for(refused.stderr.read(), 20)


async def _ready(proc) -> None:
    seen = b""
    while b"ready" not in seen:
        seen += await asyncio.wait_for(proc.stdout.read(4096), 20)


async def test_a_login_that_opens_no_session_is_closed(tmp_path):
    door = await _door(tmp_path, session_timeout=0.5)
    try:
        conn = await _connect(door)
        assert door.ledger.count("idle") == 1
        await asyncio.wait_for(conn.wait_closed(), 10)
        assert door.ledger.count("idle") == 0
    finally:
        await door.stop()


async def test_one_session_per_connection(tmp_path):
    door = await _door(tmp_path)
    try:
        conn = await _connect(door)
        first = await _session(conn)
        await _ready(first)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(term_type="xterm", term_size=(80, 24))
        assert len(door.children) == 1
        conn.close()
    finally:
        await door.stop()


async def test_env_requests_are_capped_in_number_and_size(tmp_path):
    door = await _door(tmp_path, max_env=4)
    try:
        conn = await _connect(door)
        env = {f"LC_X{i}": "C" for i in range(50)}
        env["LANG"] = "x" * 30000
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24), env=env)
        await _ready(proc)
        (child,) = door.children
        channel = child.session.process.channel
        assert len(channel._env) <= 4
        assert all(len(v) < 300 for v in channel._env.values())
        conn.close()
    finally:
        await door.stop()


async def test_wrong_passwords_are_slowed_then_cut_off(tmp_path):
    door = await _door(tmp_path, password="gold rush 1849", auth_delay=0.2,
                       max_auth_tries=3)
    try:
        assert door.auth_delay("127.0.0.1", 0) == 0  # a first guess is answered at once
        with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
            await _connect(door, client_keys=None, password="nope",
                           preferred_auth="password")
        assert door.failures["127.0.0.1"][0] >= 1
        # the address's record slows its next guesses, growing per wrong one, capped
        assert 0 < door.auth_delay("127.0.0.1", 0) < door.auth_delay("127.0.0.1", 2)
        door.failures["127.0.0.1"] = (10_000, time.monotonic())
        assert door.auth_delay("127.0.0.1", 5) == door.config.max_auth_delay
        door.failures.clear()
        conn = await _connect(door, client_keys=None, password="gold rush 1849",
                              preferred_auth="password")
        conn.close()
    finally:
        await door.stop()


async def test_a_busy_door_pins_nothing_and_look_alikes_are_refused(tmp_path):
    door = await _door(tmp_path, max_sessions=1)
    try:
        ann = await _connect(door, "ann")
        await _ready(await _session(ann))
        bob = await _connect(door, "bob")
        assert b"busy" in await _refusal(bob)
        assert door.pins.get("bob") is None  # refused: not pinned
        assert door.pins.get("ann") is not None
        fake = await _connect(door, "\u0430nn")  # a Cyrillic a, another key
        assert b"belongs to another key" in await _refusal(fake)
        for conn in (ann, bob, fake):
            conn.close()
    finally:
        await door.stop()
    saved = json.loads((tmp_path / "serve" / "pins.json").read_text())
    assert [v["name"] for v in saved.values()] == ["ann"]


def test_pins_expire_and_never_follow_a_symlink(tmp_path):
    path = tmp_path / "pins.json"
    old = time.time() - 400 * 24 * 3600
    path.write_text(json.dumps({"ann-x": {"fp": "SHA256:a", "name": "ann", "used": old},
                                "bob-x": {"fp": "SHA256:b", "name": "bob",
                                          "used": time.time()}}))
    pins = Pins(path)
    assert set(pins.pins) == {"bob-x"}
    target = tmp_path / "elsewhere"
    target.write_text("{}")
    path.unlink()
    path.symlink_to(target)
    assert Pins(path).pins == {}  # a planted symlink is not read
    pins.save()
    assert target.read_text() == "{}"  # nor written through
    assert not path.is_symlink()


@pytest.mark.slow
async def test_a_refused_session_takes_its_connection_with_it(tmp_path):
    """A login whose one session is refused (the door is full) holds no place after."""
    door = await _door(tmp_path, max_sessions=1)
    try:
        ann = await _connect(door, "ann")
        await _ready(await _session(ann))
        bob = await _connect(door, "bob")
        assert b"busy" in await _refusal(bob)
        await asyncio.wait_for(bob.wait_closed(), 10)
        assert door.ledger.count("seated") == 1
        ann.close()
    finally:
        await door.stop()


async def test_churned_sessions_from_one_address_are_refused_with_words(tmp_path):
    """Opening and closing sessions in a loop starts an app each time: past the
    address's burst the door refuses at once, saying how long to wait; the session
    already playing is not touched."""
    from net.budgets import Budgets, Ledger

    door = await _door(tmp_path, ledger=Ledger(Budgets(app_start_burst=2,
                                                       app_start_every=600.0)))  # fmt: skip
    try:
        ann = await _connect(door, "ann")
        playing = await _session(ann)
        await _ready(playing)
        churn = await _connect(door, "bob")
        await _ready(await _session(churn))
        churn.close()
        said = await _refusal(await _connect(door, "cal"))
        assert b"Too many new sessions from your address (127.0.0.1)" in said
        assert b"Try again in 600 s." in said
        playing.stdin.write(b"x\r")  # ann's app was untouched until now
        assert await asyncio.wait_for(playing.wait(), 20) is not None
        assert door.ledger.snapshot()["starts_refused"] == 1
    finally:
        await door.stop()


async def test_a_loop_opening_connections_is_turned_away_at_accept_with_words(tmp_path):
    from net.budgets import Budgets, Ledger

    door = await _door(tmp_path, ledger=Ledger(Budgets(connect_burst=1, connect_rate=0.001)))
    try:
        first = await _connect(door, "ann", local_addr=("127.0.0.2", 0))
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await _connect(door, "bob", local_addr=("127.0.0.2", 0))
        assert "Too many new connections from your address (127.0.0.2)" in refused.value.reason
        await _ready(await _session(first))  # the first one plays on
        assert door.ledger.snapshot()["connects_refused"] == 1
        first.close()
    finally:
        await door.stop()


async def test_openssh_turned_away_at_accept_prints_the_words(tmp_path):
    """OpenSSH writes its key exchange after reading the server's version: the refusal
    waits for the client's version line, so the words arrive before the close."""
    from net.budgets import Budgets, Ledger

    door = await _door(tmp_path, ledger=Ledger(Budgets(connect_burst=1, connect_rate=0.001)))
    try:
        first = await _connect(door, "ann", local_addr=("127.0.0.2", 0))
        ssh = await asyncio.create_subprocess_exec(
            "ssh", "-F", "/dev/null", "-b", "127.0.0.2", "-p", str(door.port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "BatchMode=yes", "bob@127.0.0.1", "-T",
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        _, said = await asyncio.wait_for(ssh.communicate(), 20)
        assert ssh.returncode == 255
        assert b"Too many new connections from your address (127.0.0.2)" in said
        assert b"Broken pipe" not in said
        await _ready(await _session(first))  # ann plays on
        first.close()
    finally:
        await door.stop()


async def test_refused_sockets_linger_boundedly(tmp_path, monkeypatch):
    """A refused socket waits (for the client's version) only while fewer than
    LINGER_MAX others do: a flood of silent sockets is closed at once past that."""
    from net.budgets import Budgets, Ledger
    from serve.ssh.screen import Screen

    monkeypatch.setattr(Screen, "LINGER", 60.0)  # none closes on its timer here
    door = await _door(tmp_path, ledger=Ledger(Budgets(connect_burst=0, connect_rate=0.001)))
    held = []
    try:
        for _ in range(Screen.LINGER_MAX + 8):
            held.append(await asyncio.open_connection("127.0.0.1", door.port,
                                                      local_addr=("127.0.0.2", 0)))
        told = [await asyncio.wait_for(reader.read(4096), 20) for reader, _ in held]
        assert all(b"Too many new connections" in words for words in told)
        # the last 8 were closed at once; the first LINGER_MAX wait
        for reader, _ in held[Screen.LINGER_MAX:]:
            assert await asyncio.wait_for(reader.read(), 20) == b""
        assert door.lingering == Screen.LINGER_MAX
        reader, writer = held[0]
        writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")  # its version line: closed now
        assert await asyncio.wait_for(reader.read(), 20) == b""
        await asyncio.sleep(0)
        assert door.lingering == Screen.LINGER_MAX - 1
        assert door.ledger.count("pending") == 0  # nothing refused was counted
    finally:
        for _, writer in held:
            writer.close()
        await door.stop()
    await until(lambda: door.lingering == 0, "the closed sockets' ends reach the door", 10,
                step=0.05)
