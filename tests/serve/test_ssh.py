"""The SSH door of ``motherlode serve``, end to end: a real server process, real PTY
apps, an asyncssh client and a pyte screen, all on 127.0.0.1."""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest

from tests.serve.helpers import connect, new_key, serving
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)

MENU = "Tables at this host"


@pytest.mark.slow
async def test_player_lands_in_the_lobby_under_their_ssh_name(tmp_path):
    async with serving(tmp_path, "--game", "nuggets") as (serve, players):
        ann = await connect(serve, players, "ann", new_key())
        await ann.wait_for(MENU)
        await ann.wait_for("You play as ann")
        await ann.wait_for(r"Gold Nuggets at 'Gold Nuggets")
        ann.send(b"\r")  # join the highlighted table
        await ann.wait_for(r"Gold Nuggets at Gold Nuggets table +\(lobby, owner: you\)")
        await ann.wait_for(r"1\. ann +not ready +\(you\)")
        await serve.wait_for_line("SSH: ann connected")


@pytest.mark.slow
async def test_a_resize_changes_the_layout(tmp_path):
    async with serving(tmp_path) as (serve, players):
        ann = await connect(serve, players, "ann", new_key(), size=(100, 30))
        await ann.wait_for(MENU)
        assert "Make the window bigger" not in ann.text
        wide = next(line for line in ann.text.splitlines() if "q  Quit" in line)
        ann.resize(60, 20)  # a narrow layout (40x14 is the least any screen needs)

        def quit_line() -> str:
            return next((line.rstrip() for line in ann.text.splitlines()
                         if "q  Quit" in line), "")

        await until(lambda: 0 < len(quit_line()) < len(wide.rstrip()),  # the box follows
                    lambda: f"the box narrows:\n{ann.text}", 20, step=0.05)
        assert "Make the window bigger" not in ann.text
        ann.resize(36, 12)  # below every layout: the size notice says what it needs
        await ann.wait_for("Make the")  # (a notice at the side wraps its words)
        await ann.wait_for(r"40x14")
        await ann.wait_for(r"36x12")


@pytest.mark.slow
async def test_a_window_bigger_than_240x80_gets_an_app_of_240x80(tmp_path):
    """Issue 56, finding 6, from the seat that met it: an SSH player at 400x200 (and a
    storm of such resizes) is given an app of at most 240x80, so its redraws cost what
    a 240x80 screen costs: the app draws in the window's top 80 rows and left 240
    columns, its footer on row 80."""
    async with serving(tmp_path) as (serve, players):
        ann = await connect(serve, players, "ann", new_key(), size=(400, 200))
        await ann.wait_for(MENU)

        def drawn() -> tuple[int, int]:
            lines = ann.screen.display
            rows = [i for i, line in enumerate(lines) if line.strip()]
            return max(rows) + 1, max(len(line.rstrip()) for line in lines)

        await until(lambda: any("Quit" in line for line in ann.screen.display[70:80]),
                    lambda: f"the footer on row 80:\n{ann.text[:2000]}", 20, step=0.05)
        rows, columns = drawn()
        assert rows <= 80 and columns <= 240, (rows, columns)


@pytest.mark.slow
async def test_help_then_a_lone_esc_closes_it(tmp_path):
    async with serving(tmp_path) as (serve, players):
        ann = await connect(serve, players, "ann", new_key())
        await ann.wait_for(MENU)
        ann.send(b"?")
        await ann.wait_for("Everywhere")
        ann.send(b"\x1b")  # a lone Esc, nothing after it
        took = await ann.wait_gone("Everywhere", timeout=5.0)
        assert took < 5.0
        await ann.wait_for(MENU)


@pytest.mark.slow
async def test_a_session_without_a_pty_gets_a_message_and_exit_1(tmp_path):
    async with serving(tmp_path) as (serve, players):
        ann = await connect(serve, players, "ann", new_key(), term=False)
        assert await ann.exit_status() == 1
        assert b"needs a terminal" in ann.raw


@pytest.mark.slow
async def test_a_hostile_user_name_stays_inside_the_data_directory(tmp_path):
    async with serving(tmp_path) as (serve, players):
        evil = await connect(serve, players, "../../etc", new_key())
        await evil.wait_for(MENU)
        await evil.wait_for(r"You play as \.\./\.\./etc")
        players_dir = (tmp_path / "data" / "serve" / "players").resolve()
        made = list(players_dir.iterdir())
        assert len(made) == 1 and made[0].name.startswith("etc-")
        assert made[0].resolve().parent == players_dir
        assert not (tmp_path / "data" / "etc").exists()
        assert not (tmp_path / "etc").exists()
        # a name as long as a client likes is cut to 20 characters, its directory too
        long = await connect(serve, players, "/.." * 40 + "x" * 300, new_key())
        await long.wait_for(r"(?m)You play as " + re.escape(("/.." * 40)[:20]) + "$")
        assert all(p.resolve().parent == players_dir and len(p.name) < 40
                   for p in players_dir.iterdir())
        # a name that looks like an option of the app's command line stays a name
        option = await connect(serve, players, "--help", new_key())
        await option.wait_for("You play as --help")


@pytest.mark.slow
async def test_sessions_over_the_cap_get_busy(tmp_path):
    async with serving(tmp_path, "--max-sessions", "1") as (serve, players):
        ann = await connect(serve, players, "ann", new_key())
        await ann.wait_for(MENU)
        bob = await connect(serve, players, "bob", new_key())
        assert await bob.exit_status() == 1
        assert b"busy" in bob.raw
        await ann.wait_for(MENU)  # the first player is not disturbed


@pytest.mark.slow
async def test_a_game_waiting_for_its_player_is_never_evicted_at_the_cap(tmp_path):
    """--max-sessions refuses a newcomer rather than hang up on a dropped player's game:
    its player gets it back."""
    async with serving(tmp_path, "--max-sessions", "1") as (serve, players):
        key = new_key()
        ann = await connect(serve, players, "ann", key)
        await ann.wait_for(MENU)
        ann.abort()  # ann's app waits for her
        await serve.wait_for_line("SSH: ann dropped")
        bob = await connect(serve, players, "bob", new_key())
        assert await bob.exit_status() == 1
        assert b"every place is taken" in bob.raw
        back = await connect(serve, players, "ann", key)
        await serve.wait_for_line("SSH: ann is back")
        await back.wait_for("New dice table")  # her menu, repainted


@pytest.mark.slow
async def test_a_drop_reattaches_with_the_same_key_and_not_with_another(tmp_path):
    async with serving(tmp_path, "--game", "nuggets") as (serve, players):
        key = new_key()
        ann = await connect(serve, players, "ann", key)
        await ann.wait_for(MENU)
        ann.send(b"\r")
        await ann.wait_for(r"1\. ann +not ready +\(you\)")
        ann.send(b"r")
        await ann.wait_for(r"1\. ann +ready +\(you\)")
        ann.abort()
        await serve.wait_for_line("SSH: ann dropped; their seat is away")
        back = await connect(serve, players, "ann", key)
        # the same app, repainted, its connection back: the lobby with the seat, no key
        # pressed (a dropped player is not ready any more, as on the LAN)
        await back.wait_for("Reconnected: you have your seat back")
        await back.wait_for(r"1\. ann +not ready +\(you\)")
        await serve.wait_for_line("SSH: ann is back")
        # another key under the same name is refused, and re-attaches to nothing
        thief = await connect(serve, players, "ann", new_key())
        assert await thief.exit_status() == 1
        assert b"belongs to another key" in thief.raw
        # the way in, filled in: this door's port and address, a name nobody pinned
        assert f"ssh -p {serve.ssh_port} ann2@127.0.0.1".encode() in thief.raw
        assert b"PORT" not in thief.raw and b"HOST" not in thief.raw
        # a keyless client gets a fresh app of its own (a name nobody has pinned)
        guest = await connect(serve, players, "guest")
        await guest.wait_for(MENU)
        await guest.wait_for(r"2/5 seated|1/5 seated")
        assert "(you)" not in guest.text
        # another key under another name: a fresh app, not ann's
        carl = await connect(serve, players, "carl", new_key())
        await carl.wait_for(MENU)
        await carl.wait_for("You play as carl")
        await back.wait_for(r"1\. ann +not ready +\(you\)")


@pytest.mark.slow
async def test_ctrl_q_ends_the_session_with_0(tmp_path):
    async with serving(tmp_path) as (serve, players):
        ann = await connect(serve, players, "ann", new_key())
        await ann.wait_for(MENU)
        ann.send(b"\x11")
        assert await ann.exit_status() == 0


@pytest.mark.slow
async def test_a_host_shutdown_tells_every_ssh_player(tmp_path):
    async with serving(tmp_path, "--game", "nuggets") as (serve, players):
        ann = await connect(serve, players, "ann", new_key())
        bob = await connect(serve, players, "bob", new_key())
        await ann.wait_for(MENU)
        await bob.wait_for(MENU)
        bob.send(b"\r")
        await bob.wait_for(r"\(you\)")
        assert await serve.interrupt() == 0
        for player in (ann, bob):
            await player.exit_status()
            assert b"shutting down" in player.raw
        await serve.wait_for_line("telling every player goodbye")


@pytest.mark.slow
async def test_the_host_key_is_kept_0600_and_never_regenerated(tmp_path):
    async with serving(tmp_path) as (serve, players):
        first = next(line for line in serve.lines if "fingerprint is" in line)
    key_file = tmp_path / "data" / "serve" / "ssh_host_ed25519_key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    async with serving(tmp_path) as (serve, players):
        again = next(line for line in serve.lines if "fingerprint is" in line)
        ann = await connect(serve, players, "ann", new_key())
        await ann.wait_for(MENU)
        assert ann.conn.get_server_host_key().get_fingerprint() in again
    assert first == again


@pytest.mark.slow
async def test_authorized_keys_lock_the_door(tmp_path):
    friend, stranger = new_key(), new_key()
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(friend.export_public_key())
    async with serving(tmp_path, "--authorized-keys", str(keys)) as (serve, players):
        ann = await connect(serve, players, "ann", friend)
        await ann.wait_for(MENU)
        for key in (stranger, None):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(serve, players, "eve", key)


async def test_no_forwarding(tmp_path):
    async with serving(tmp_path) as (serve, players):
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", serve.ssh_port, username="ann", known_hosts=None,
            client_keys=[new_key()], agent_path=None), 20.0)  # fmt: skip
        try:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", serve.game_port)
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
                await conn.start_sftp_client()
        finally:
            conn.close()


@pytest.mark.slow
async def test_a_shared_password(tmp_path, monkeypatch):
    monkeypatch.setenv("MOTHERLODE_SERVE_PASSWORD", "gold rush")
    async with serving(tmp_path, "--password") as (serve, players):
        for password in ("wrong", None):
            with pytest.raises(asyncssh.PermissionDenied):
                await asyncio.wait_for(asyncssh.connect(
                    "127.0.0.1", serve.ssh_port, username="eve", known_hosts=None,
                    client_keys=[new_key()], agent_path=None, password=password), 20.0)
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", serve.ssh_port, username="ann", known_hosts=None, encoding=None,
            client_keys=[new_key()], agent_path=None, password="gold rush"), 20.0)
        try:
            proc = await conn.create_process(term_type="xterm", term_size=(100, 30))
            seen = b""
            while b"You play as ann" not in seen:
                seen += await asyncio.wait_for(proc.stdout.read(65536), 20.0)
        finally:
            conn.close()


def test_the_app_starts_by_its_entry_point_and_a_frozen_build_as_itself(monkeypatch, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from serve import cli
    from serve.cli import served_command

    normal = served_command("127.0.0.1", 7777, tmp_path / "t.sock", "ann")
    script = Path(sys.executable).with_name("motherlode")
    assert normal[:2] == [str(script), "served"] and "-m" not in normal
    # no console script beside the interpreter: the entry point from the metadata,
    # which starts the same app (its help names the served command's options)
    monkeypatch.setattr(cli, "SCRIPT", "motherlode-not-installed")
    fallback = served_command("127.0.0.1", 7777, tmp_path / "t.sock", "ann")
    assert fallback[:2] == [sys.executable, "-c"] and fallback[3] == "served"
    shown = subprocess.run([*fallback[:3], "served", "--help"], capture_output=True,
                           text=True, timeout=60)  # fmt: skip
    assert shown.returncode == 0 and "--control" in shown.stdout
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    frozen = served_command("127.0.0.1", 7777, tmp_path / "t.sock", None)
    assert frozen[:2] == [sys.executable, "served"] and "-m" not in frozen
    assert "--name=ann" in normal and not any(a.startswith("--name") for a in frozen)


@pytest.mark.parametrize("name", ["-rf", "--help", "--name", "-", "--host=evil"])
def test_a_name_like_an_option_stays_a_name(tmp_path, name):
    from serve.cli import served_command
    from tui.cli import _app_start, build_parser

    parser = build_parser()
    argv = served_command("127.0.0.1", 7777, tmp_path / "t.sock", name)
    args = parser.parse_args(argv[argv.index("served"):])
    assert args.name == name and args.host == "127.0.0.1"
    assert _app_start(parser, args) == ("served", "127.0.0.1", 7777, str(tmp_path / "t.sock"),
                                        True)


@pytest.mark.slow
async def test_a_flood_of_silent_sockets_from_one_machine_leaves_the_door_open(tmp_path):
    async with serving(tmp_path) as (serve, players):
        silent = [await asyncio.open_connection("127.0.0.1", serve.ssh_port)
                  for _ in range(30)]  # never log in: each holds a place until the time-out
        try:
            # another machine (another loopback source address) is let in at once
            other = await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", serve.ssh_port, username="ann", known_hosts=None,
                encoding=None, client_keys=[new_key()], agent_path=None,
                local_addr=("127.0.0.2", 0)), 20.0)
            proc = await other.create_process(term_type="xterm", term_size=(100, 30))
            seen = b""
            while b"You play as ann" not in seen:
                seen += await asyncio.wait_for(proc.stdout.read(65536), 20.0)
            other.close()
            # the flooding machine itself gets in too: its oldest silent socket makes
            # room (a flood only evicts itself)
            eve = await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", serve.ssh_port, username="eve", known_hosts=None,
                client_keys=[new_key()], agent_path=None), 20.0)
            eve.close()
        finally:
            for _, writer in silent:
                writer.close()


async def test_serve_starts_with_its_own_words_and_no_warnings(tmp_path, monkeypatch):
    """`motherlode serve`'s first lines are its own: no library's deprecation warnings
    (asyncssh's import once printed five about DSA keys above the server's words)."""
    monkeypatch.delenv("PYTHONWARNINGS", raising=False)
    async with serving(tmp_path, "--web", "0") as (serve, _):
        said = "".join(serve.lines)
    assert "Ctrl-C tells every player" in said
    assert "Warning" not in said and "warnings.warn" not in said, said
