"""The SSH door's parts: names and directories, pins, the host key, the environment a
client may set, slow readers, and the table directory served apps ask. The door runs
in this process here, around small real child processes (not the app)."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap

import asyncssh
import pytest

from net.host import Host
from net.served import ServedError, TableDirectory, list_tables, new_table
from serve.ssh import DoorConfig, DoorError, Pins, SSHDoor, inside, load_host_key, player_name, slug
from tests.serve.helpers import Player
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)


# -- names, directories, keys ----------------------------------------------------------


@pytest.mark.parametrize("raw", ["../../etc", "..", ".", "/", "a/b", "\\..\\x", "", "  ",
                                 "Ann", "ANN", "José", "名前", "x" * 500])
def test_a_slug_is_a_safe_directory_name(tmp_path, raw):
    name = player_name(raw)
    made = slug(name)
    assert made and len(made) <= 40
    assert set(made) <= set("abcdefghijklmnopqrstuvwxyz0123456789-_")
    assert inside(tmp_path, tmp_path / made).parent == tmp_path.resolve()


def test_names_that_differ_get_different_directories():
    assert slug("Ann") == slug("ann")  # one person, whatever the case
    assert slug("José") != slug("Jose")
    assert slug("../../etc") != slug("etc")


def test_inside_refuses_a_path_outside(tmp_path):
    with pytest.raises(ValueError):
        inside(tmp_path / "players", tmp_path / "players" / ".." / "etc")


def test_player_names_are_cleaned():
    assert player_name("\x1b[31mred\x07") == "red"
    assert player_name("") == "Player"
    assert len(player_name("x" * 100)) == 20


def test_pins_are_first_use_and_kept(tmp_path):
    pins = Pins(tmp_path / "pins.json")
    assert pins.admit("Ann", "SHA256:a")
    assert pins.admit("ann", "SHA256:a")
    assert not pins.admit("ANN", "SHA256:b")
    assert (tmp_path / "pins.json").stat().st_mode & 0o777 == 0o600
    again = Pins(tmp_path / "pins.json")
    assert not again.admit("Ann", "SHA256:b")
    assert again.get("Ann") == "SHA256:a"


def test_damaged_pins_start_empty(tmp_path):
    (tmp_path / "pins.json").write_text("[not json")
    assert Pins(tmp_path / "pins.json").get("Ann") is None


def test_the_host_key_is_made_once(tmp_path):
    first = load_host_key(tmp_path)
    path = tmp_path / "ssh_host_ed25519_key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert first.algorithm == b"ssh-ed25519"
    assert load_host_key(tmp_path).get_fingerprint() == first.get_fingerprint()


def test_a_damaged_host_key_is_said_not_replaced(tmp_path):
    path = tmp_path / "ssh_host_ed25519_key"
    path.write_text("garbage")
    with pytest.raises(DoorError, match="cannot read the SSH host key"):
        load_host_key(tmp_path)
    assert path.read_text() == "garbage"


# -- the door around small children ----------------------------------------------------

ENV_CHILD = textwrap.dedent("""
    import json, os, sys
    keys = ("TERM", "LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR", "EVIL", "PATH_X",
            "MOTHERLODE_CONFIG_DIR")
    print("ENV " + json.dumps({k: os.environ.get(k) for k in keys}), flush=True)
    sys.stdin.read(1)
""")

FLOOD_CHILD = textwrap.dedent("""
    import sys
    print("ready", flush=True)
    if sys.argv[1] != "slow":
        sys.stdin.read(1)
    while True:
        sys.stdout.write("x" * 65536)
        sys.stdout.flush()
""")


async def _door(tmp_path, script: str, **config) -> SSHDoor:
    door = SSHDoor(lambda name: [sys.executable, "-c", script, name], tmp_path / "serve",
                config=DoorConfig(**config))
    await door.start("127.0.0.1", 0)
    return door


async def _arrive(door: SSHDoor, name: str, size: tuple[int, int] = (80, 24)):
    """A player with a key of their own logs in and asks for a terminal of ``size``:
    the connection and its process."""
    conn = await asyncssh.connect(
        "127.0.0.1", door.port, username=name, known_hosts=None, encoding=None,
        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], agent_path=None)
    proc = await conn.create_process(term_type="xterm", term_size=size)
    return conn, proc


async def _exists(path, what: str = "", deadline: float = 20.0) -> None:
    """Wait for ``path`` to exist; fail saying ``what``."""
    await until(path.exists, what or f"{path.name} comes", deadline, step=0.01)


async def test_only_whitelisted_client_variables_reach_the_app(tmp_path):
    door = await _door(tmp_path, ENV_CHILD)
    try:
        conn = await asyncssh.connect(
            "127.0.0.1", door.port, username="ann", known_hosts=None, encoding=None,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")], agent_path=None)
        proc = await conn.create_process(
            term_type="xterm-256color", term_size=(80, 24),
            env={"LANG": "C.UTF-8", "LC_ALL": "$(reboot)", "LC_CTYPE": "C.UTF-8",
                 "COLORTERM": "truecolor", "EVIL": "1", "PATH_X": "/tmp",
                 "MOTHERLODE_CONFIG_DIR": "/etc"})
        line = b""
        while b"ENV " not in line or not line.endswith(b"\n"):
            line += await asyncio.wait_for(proc.stdout.read(4096), 20)
        env = json.loads(line[line.index(b"ENV ") + 4:].splitlines()[0])
        proc.stdin.write(b"x")
        conn.close()
    finally:
        await door.stop()
    assert env["TERM"] == "xterm-256color"
    assert env["LANG"] == "C.UTF-8" and env["LC_CTYPE"] == "C.UTF-8"
    assert env["COLORTERM"] == "truecolor"  # a truecolour terminal gets truecolour
    assert env["LC_ALL"] is None  # a value that is not a locale name is dropped
    assert env["EVIL"] is None and env["PATH_X"] is None
    players = (tmp_path / "serve" / "players").resolve()
    assert env["MOTHERLODE_CONFIG_DIR"].startswith(str(players))


async def test_a_slow_reader_is_dropped_and_others_play_on(tmp_path):
    door = await _door(tmp_path, FLOOD_CHILD, slow_reader_bytes=256 * 1024)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        conn = await asyncssh.connect(
            "127.0.0.1", door.port, username="slow", known_hosts=None, encoding=None,
            client_keys=[key], agent_path=None)
        # a client that never reads: its window fills, then the door's buffer does
        await conn.create_process(term_type="xterm", term_size=(80, 24))
        await asyncio.wait_for(conn.wait_closed(), 30)
        # its app runs on, waiting for it (a keyed player may come back)
        assert len(door.children) == 1
        child = next(iter(door.children))
        assert child.session is None and child.exited is None
        # the door still serves everyone else
        other = await Player.connect(door.port, "fast",
                                     asyncssh.generate_private_key("ssh-ed25519"))
        await other.wait_for("ready")
        await other.close()
    finally:
        await door.stop()
    assert not door.children


# -- the table directory ---------------------------------------------------------------


async def test_the_table_directory_lists_and_opens_tables(tmp_path):
    host = Host()
    host.create_table("Main", "nuggets")
    directory = TableDirectory(host, max_tables=3)
    await directory.start(tmp_path / "run" / "tables.sock")
    try:
        assert (tmp_path / "run").stat().st_mode & 0o777 == 0o700
        tables = await list_tables(directory.path)
        assert [(t.name, t.game, t.phase) for t in tables] == [("Main", "nuggets", "lobby")]
        assert await new_table(directory.path, "foolsgold", "Ann") == "Ann's table"
        assert await new_table(directory.path, "nuggets", "ann") == "ann's table 2"
        with pytest.raises(ServedError, match="3 tables already"):
            await new_table(directory.path, "nuggets", "Bob")
        assert [t.game for t in await list_tables(directory.path)] == \
            ["nuggets", "foolsgold", "nuggets"]
    finally:
        await directory.close()
    assert not (tmp_path / "run" / "tables.sock").exists()
    with pytest.raises(ServedError, match="does not answer"):
        await list_tables(tmp_path / "run" / "tables.sock")


async def test_a_busy_host_lists_all_its_tables(tmp_path):
    """400 tables (a busy night, found by walking ``bench/serve_busy.py``): the list is
    one line of about 300 kB, over asyncio's 64 KiB line limit; it was shown on the menu
    as "Separator is not found, and chunk exceed the limit" and no table was listed."""
    host = Host()
    for n in range(400):
        host.create_table(f"Bots {n}", "foolsgold", seats=6, bots=6)
    directory = TableDirectory(host)
    await directory.start(tmp_path / "run" / "tables.sock")
    try:
        tables = await list_tables(directory.path)
        assert [t.name for t in tables] == [f"Bots {n}" for n in range(400)]
    finally:
        await directory.close()


@pytest.mark.parametrize("line, said", [
    (b"not json", "not JSON"),
    (b"[1]", "not a JSON object"),
    (b'{"op": "drop"}', "Unknown request"),
    (b'{"op": "new", "game": "chess"}', "No game called"),
    (b'{"op": "new", "game": "nuggets", "name": "\\u001b[2J"}', None),
])
def test_the_table_directory_answers_bad_requests_in_words(line, said):
    host = Host()
    answer = TableDirectory(host).answer(line)
    if said is None:  # a hostile name is cleaned
        assert "\x1b" not in answer["table"]
    else:
        assert said in answer["error"]


def test_hostile_names_are_cleaned_before_they_name_a_table():
    host = Host()
    answer = TableDirectory(host).answer(
        json.dumps({"op": "new", "game": "nuggets", "name": "\x1b]0;x\x07Eve" * 10}).encode())
    assert "\x1b" not in answer["table"] and len(answer["table"]) <= 30


def test_served_tables_nobody_holds_go_away():
    """32 tables opened and left empty no longer lock everyone out until a restart."""
    from net.table import Member

    host = Host()
    host.create_table("Main", "nuggets")  # the operator's: never swept
    directory = TableDirectory(host, max_tables=3, empty_for=60.0)
    for name in ("Ann", "Bob"):
        directory.answer(json.dumps({"op": "new", "game": "nuggets", "name": name}).encode())
    assert "3 tables already" in directory.answer(
        b'{"op":"new","game":"nuggets","name":"Cy"}')["error"]
    bobs = host.tables.find("Bob's table")
    bobs.join(Member(name="Bob"), 0.0)
    opened = min(directory._opened.values())
    assert directory.sweep(opened + 30) == []
    assert directory.sweep(opened + 61) == ["Ann's table"]  # empty for 60 s
    assert sorted(host.tables.tables) == ["Bob's table", "Main"]
    assert "table" in directory.answer(b'{"op":"new","game":"nuggets","name":"Cy"}')


# -- start-ups in turn -----------------------------------------------------------------

FRAME_CHILD = textwrap.dedent("""
    import os, pathlib, sys, time
    folder = pathlib.Path(os.environ["FRAMES"])
    (folder / ("started-" + sys.argv[1])).touch()
    sys.stdout.write("\\x1b[?1049h"); sys.stdout.flush()  # its terminal modes, at once
    while not (folder / ("draw-" + sys.argv[1])).exists():
        time.sleep(0.01)
    sys.stdout.write("menu " * 400); sys.stdout.flush()  # a screenful: its first frame
    sys.stdin.read(1)
""")


async def test_an_app_holds_its_start_up_slot_until_its_first_frame(tmp_path, monkeypatch):
    """Arrivals start in turn, each until its first frame, not its first bytes: one
    slot, two players at once; the second app starts only once the first has drawn
    its screen (issue 48: the first to arrive sees their menu first)."""
    frames = tmp_path / "frames"
    frames.mkdir()
    monkeypatch.setenv("FRAMES", str(frames))
    door = await _door(tmp_path, FRAME_CHILD, max_startups=1, first_frame_wait=30.0)
    try:
        first = asyncio.create_task(_arrive(door, "ann"))
        await _exists(frames / "started-ann")
        second = asyncio.create_task(_arrive(door, "bob"))
        conn, proc = await first
        assert b"\x1b[?1049h" in await asyncio.wait_for(proc.stdout.read(64), 20)
        # ann's app wrote its modes: the old slot went free here; now bob waits (the time
        # is what is tested: a second in which bob's app must not start)
        await asyncio.sleep(1.0)
        assert not (frames / "started-bob").exists(), "bob's app started before ann's frame"
        (frames / "draw-ann").touch()
        await _exists(frames / "started-bob")  # ann's frame is out: bob's turn
        (frames / "draw-bob").touch()
        conn2, _ = await asyncio.wait_for(second, 20)
        conn.close()
        conn2.close()
    finally:
        await door.stop()


async def test_an_app_that_never_fills_a_screen_frees_its_slot_after_a_while(tmp_path,
                                                                             monkeypatch):
    """A tiny terminal's whole screen may be less than a frame's bytes: the slot goes
    free ``first_frame_wait`` after the app's first output, and the next app starts."""
    frames = tmp_path / "frames"
    frames.mkdir()
    monkeypatch.setenv("FRAMES", str(frames))
    door = await _door(tmp_path, FRAME_CHILD, max_startups=1, first_frame_wait=0.2)
    try:
        conns = [(await _arrive(door, name))[0] for name in ("ann", "bob")]
        # neither draws a frame; both start, the second once the first's wait is over
        for name in ("ann", "bob"):
            await _exists(frames / f"started-{name}")
        ann, bob = ((frames / f"started-{name}").stat().st_mtime for name in ("ann", "bob"))
        assert bob - ann >= 0.15, "bob's app started before ann's wait was over"
        for conn in conns:
            conn.close()
    finally:
        await door.stop()


TINY_CHILD = textwrap.dedent("""
    import os, pathlib, sys
    (pathlib.Path(os.environ["FRAMES"]) / ("started-" + sys.argv[1])).touch()
    sys.stdout.write("." * 60); sys.stdout.flush()  # a 10x5 screen's worth, and more
    sys.stdin.read(1)
""")


async def test_a_tiny_terminal_does_not_hold_the_slot_for_a_whole_frame(tmp_path,
                                                                         monkeypatch):
    """A client asking for a 10x5 terminal: its app's first screen is a byte a cell,
    not a full frame's bytes, so it frees the slot at once; before, a few such logins
    held every slot for ``first_frame_wait`` each (14 of them kept an honest player
    from his menu for 2.8 s instead of 0.8)."""
    frames = tmp_path / "frames"
    frames.mkdir()
    monkeypatch.setenv("FRAMES", str(frames))
    door = await _door(tmp_path, TINY_CHILD, max_startups=1, first_frame_wait=30.0)
    try:
        conns = [(await _arrive(door, name, size))[0]
                 for name, size in (("tiny", (10, 5)), ("ann", (80, 24)))]
        # 10 s: far less than the 30 s the tiny one could hold
        await _exists(frames / "started-ann", "the tiny terminal held the slot", 10)
        for conn in conns:
            conn.close()
    finally:
        await door.stop()
