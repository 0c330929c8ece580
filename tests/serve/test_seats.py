"""A seat seen from the other seats when an SSH player drops, end to end: a real
``motherlode serve``, a real OpenSSH client for Ann (killed with -9 mid-turn, a closed
laptop lid), an asyncssh client with a pyte screen for Bob, all on 127.0.0.1.

What Bob must see, and how soon: Ann's drop at once (not after ``--keep-detached``),
the stand-in after the game's grace period, and Ann back the moment she re-attaches.
Then the server stops and comes back with ``--resume``: both ``ssh`` again and land in
their seats with no key pressed."""

from __future__ import annotations

import asyncio
import contextlib
import time

import asyncssh
import pytest

from tests.hardening.ptyapp import free_port
from tests.serve.helpers import OpenSSHPlayer, Player, ServeProcess, key_file
from tests.waiting import until

pytestmark = pytest.mark.timeout(120)

MENU = "Tables at this host"
GRACE = 4.0


async def _game_of_two(serve, ann_key, tmp_path):
    ann = await OpenSSHPlayer.connect(serve.ssh_port, "ann", key_file(ann_key, tmp_path, "ann"))
    bob = await Player.connect(serve.ssh_port, "bob", asyncssh.generate_private_key(
        "ssh-ed25519"), size=(100, 30))
    await _seat_both(ann, bob)
    await ann.wait_for(r"ann, your turn")
    return ann, bob


async def _close(*players) -> None:
    for player in players:
        if player is not None:
            with contextlib.suppress(Exception):
                await player.close()


async def _seat_both(ann, bob) -> None:
    """From the menu to Ann's first turn: Ann opens the table, Bob joins, both ready."""
    await ann.wait_for(MENU, 30)
    await bob.wait_for(MENU, 30)
    ann.send(b"\r")
    await ann.wait_for(r"owner: you")
    bob.send(b"\r")
    await ann.wait_for(r"2\. bob")
    bob.send(b"r")
    await ann.wait_for(r"2\. bob +ready")
    ann.send(b"r")  # the table is full and everyone ready: the game starts
    await bob.wait_for(r"ann's turn")  # the seed gives Ann the first turn


@pytest.mark.slow
async def test_a_real_ssh_client_killed_mid_turn_is_seen_by_the_other_seat_at_once(tmp_path):
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "seats-2", "--grace", str(GRACE))
    ann = bob = None
    try:
        ann_key = asyncssh.generate_private_key("ssh-ed25519")
        ann, bob = await _game_of_two(serve, ann_key, tmp_path)
        dropped = time.monotonic()
        await ann.kill()  # on her turn
        took = await bob.wait_for(r"ann's connection dropped: a bot plays for ann in 4 s",
                                  timeout=2.0)
        assert took <= 2.0
        assert "ann can take the seat back" in bob.text
        await serve.wait_for_line("SSH: ann dropped; their seat is away")
        # the stand-in after the game's grace period (not after --keep-detached's 600 s)
        await bob.wait_for("ann is played by a stand-in bot", timeout=GRACE + 5)
        assert time.monotonic() - dropped >= GRACE - 0.5
        await bob.wait_for(r"ann (rolled|set aside|took|busts)", timeout=20)  # it plays
        # Ann re-attaches with the same key: the seat is hers again at once
        ann = await OpenSSHPlayer.connect(serve.ssh_port, "ann", tmp_path / "ann")
        await ann.wait_for("you have your seat back", timeout=20)
        await bob.wait_for("ann is back and has the seat again", timeout=2.0)
        await serve.wait_for_line("SSH: ann is back")
    finally:
        if ann is not None:
            ann.close()
        if bob is not None:
            await bob.close()
        await serve.stop()


@pytest.mark.slow
async def test_a_keyless_player_who_drops_gives_the_seat_up_and_the_others_are_told(tmp_path):
    """Without a key nobody can come back to the app: the others must not be told the
    seat waits for its player. The app leaves it, and a bot plays it at once."""
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "seats-2", "--grace", "600")
    ann = bob = None
    try:
        ann = await Player.connect(serve.ssh_port, "ann", None)  # no key
        bob = await Player.connect(serve.ssh_port, "bob", asyncssh.generate_private_key(
            "ssh-ed25519"))
        await _seat_both(ann, bob)
        await ann.wait_for(r"ann, your turn")
        ann.conn.abort()  # the line drops, no goodbye
        took = await bob.wait_for(r"ann left the game: a bot plays their seat to the end",
                                  timeout=5.0)
        assert took <= 5.0  # not the 600 s grace
        assert "take the seat back" not in bob.text and "until they are back" not in bob.text
        await bob.wait_for(r"ann (rolled|set aside|took|busts)|bob, your turn", timeout=20)
    finally:
        await _close(ann, bob)
        await serve.stop()


@pytest.mark.slow
async def test_after_a_server_restart_both_players_land_in_their_seats_with_no_key(tmp_path):
    ports = ("--ssh", str(free_port()), "--port", str(free_port()))
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "seats-2", *ports)
    ann = bob = None
    try:
        ann_key = asyncssh.generate_private_key("ssh-ed25519")
        bob_key = asyncssh.generate_private_key("ssh-ed25519")
        ann = await Player.connect(serve.ssh_port, "ann", ann_key)
        bob = await Player.connect(serve.ssh_port, "bob", bob_key)
        await _seat_both(ann, bob)
        assert await serve.interrupt() == 0  # Ctrl-C: the game is kept
        for player in (ann, bob):
            await player.exit_status()
            assert b"ssh again" in player.raw  # told how to come back
            await player.close()
        serve = await ServeProcess.start(tmp_path / "data", "--resume", *ports)
        ann = await Player.connect(serve.ssh_port, "ann", ann_key)
        bob = await Player.connect(serve.ssh_port, "bob", bob_key)
        for player, turn in ((ann, "ann, your turn"), (bob, "ann's turn")):
            await player.wait_for(turn, 30)  # straight to the seat: no key pressed
            await player.wait_for("You have your seat back")
        await serve.wait_for_line("the game goes on")
    finally:
        await _close(ann, bob)
        await serve.stop()


@pytest.mark.slow
async def test_a_web_tab_closed_is_away_for_the_other_seat_at_once(tmp_path):
    """The web door's app ends with its tab: the host sees the line drop at once."""
    import aiohttp

    from tests.serve.web import Tab

    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "2",
                                     "--seed", "seats-2", "--web", "0")
    bob = None
    try:
        bob = await Player.connect(serve.ssh_port, "bob", asyncssh.generate_private_key(
            "ssh-ed25519"), size=(100, 30))
        await bob.wait_for(MENU, 30)
        bob.send(b"\r")
        await bob.wait_for(r"owner: you")
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{serve.web_port}/ws?width=100&height=30"
            async with http.ws_connect(url) as ws:
                tab = Tab(ws)
                await tab.wait_for("Your name at the table")
                await tab.type("cat\r")
                await tab.wait_for("You play as cat")
                await tab.type("\r")
                await bob.wait_for(r"2\. cat")
                await tab.type("r")
                await bob.wait_for(r"2\. cat +ready")
                bob.send(b"r")  # full and ready: the game starts
                await tab.wait_for(r"bob's turn|cat, your turn")
            closed = time.monotonic()  # the tab is closed
        # at once: well inside the 15 s heartbeat that would otherwise notice the tab
        # gone (a bound that tells the two apart, not a speed: a loaded machine took 2.04 s)
        await bob.wait_for(r"cat's connection dropped: a bot plays for cat", timeout=8.0)
        assert time.monotonic() - closed <= 8.0
    finally:
        if bob is not None:
            await bob.close()
        await serve.stop()


@pytest.mark.parametrize("how", ["SIGHUP", "SIGKILL"])
@pytest.mark.slow
async def test_no_served_app_outlives_its_server(tmp_path, how):
    """The server's terminal closes (SIGHUP: a clean stop, everyone told) or the server
    is killed (-9: nobody hangs up on the apps): either way no app is left behind,
    spinning on a dead terminal."""
    import os
    import signal
    import subprocess

    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets")
    ann = None
    try:
        ann = await Player.connect(serve.ssh_port, "ann", asyncssh.generate_private_key(
            "ssh-ed25519"))
        await ann.wait_for(MENU, 30)
        apps = subprocess.run(["pgrep", "-P", str(serve.proc.pid), "-f", "served"],
                              capture_output=True, text=True).stdout.split()
        assert len(apps) == 1
        serve.proc.send_signal(getattr(signal, how))
        await asyncio.wait_for(serve.proc.wait(), 20)

        def gone() -> bool:
            try:
                os.kill(int(apps[0]), 0)
            except ProcessLookupError:
                return True
            return False

        try:
            await until(gone, "the app ends with its server", 15, step=0.1)
        except AssertionError:
            os.kill(int(apps[0]), signal.SIGKILL)
            raise
    finally:
        if ann is not None:
            with contextlib.suppress(Exception):
                await ann.close()
        await serve.stop()
