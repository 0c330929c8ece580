"""Client restarts, with real processes: a `motherlode host` and the real app
(`motherlode join`) under a pty, on 127.0.0.1.

- A join killed mid-game (kill -9, or SIGTERM) and run again takes its seat back:
  within the grace period, and after it (from the stand-in); and when the host itself
  is stopped with Ctrl-C, or killed, and restarted with ``--resume``, the app says the
  host is gone, keeps trying and takes its seat back with no key pressed.
- SIGTERM and SIGHUP leave the terminal as it was: main screen, cursor, mouse off,
  echo and line editing on; and a seat killed that way is kept, not given up.

The other player is a raw JSON peer, so what the host says can be checked exactly.
"""

from __future__ import annotations

import signal
import time

import pytest

from tests.hardening.ptyapp import (
    HostCommand,
    Peer,
    Pty,
    app_env,
    free_port,
    motherlode,
    screen_text,
)

GAME = ("--game", "nuggets", "--seats", "2", "--seed", "restart")
RESTORED = ("\x1b[?1049l", "\x1b[?25h", "\x1b[?1000l")  # main screen, cursor, no mouse


def _notice(peer: Peer, event: str, name: str) -> dict:
    return peer.wait(lambda m: m["type"] == "notice" and m["event"] == event
                     and m["name"] == name, f"{name} {event}")


def _seats(peer: Peer) -> list[tuple[str, bool, bool]]:
    return _seats_of(peer.wait(lambda m: m["type"] == "table", "a table update")["table"])


def _seats_of(table: dict) -> list[tuple[str, bool, bool]]:
    return [(s["name"], s["connected"], s["standin"]) for s in table["seats"]]


def _resumed_with_bob_back(port: int, token: str) -> Peer:
    """Ann takes her seat back at a restarted host, and waits until Bob's app has taken
    his too. The two apps reconnect in either order: if Bob's is first, the welcome's
    table already shows him connected and no "back" notice comes to Ann."""
    ann = Peer(port, "Ann", token=token)
    welcome = ann.recv_type("welcome")
    assert welcome["resumed"], welcome
    if _seats_of(welcome["table"]) != [("Ann", True, False), ("Bob", True, False)]:
        ann.wait(lambda m: (m["type"] == "notice" and m["event"] == "back"
                            and m["name"] == "Bob")
                 or (m["type"] == "table" and _seats_of(m["table"])
                     == [("Ann", True, False), ("Bob", True, False)]),
                 "Bob back")  # within one retry (5 s), nobody at Bob's keyboard
    return ann


def _join(port: int, tmp_path) -> Pty:
    return Pty(motherlode("join", f"127.0.0.1:{port}", "--name", "Bob"), app_env(tmp_path))


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_killed_join_takes_its_seat_back(tmp_path):
    port = free_port()
    host = HostCommand(port, tmp_path / "host1.log", *GAME)
    apps: list[Pty] = []
    ann = None
    try:
        ann = Peer(port, "Ann")
        welcome = ann.recv_type("welcome")
        token = welcome["token"]
        ann.send({"type": "configure", "grace": 2, "first_player": 0})
        bob = _join(port, tmp_path)
        apps.append(bob)
        bob.wait_for("Bob")
        # ready once Bob sits: a "ready" is for the table as it is (issue 35)
        ann.wait(lambda m: m["type"] == "notice" and m["event"] == "joined"
                 and m["name"] == "Bob", "Bob joins")
        ann.send({"type": "ready"})
        bob.write(b"r")  # ready: the table is full, the game starts
        ann.wait(lambda m: m["type"] == "started", "the start")
        bob.wait_for("Seed hash")  # the table's log

        # 1. kill -9 mid-game, run again within the grace period
        bob.proc.kill()
        _notice(ann, "away", "Bob")
        bob = _join(port, tmp_path)
        apps.append(bob)
        _notice(ann, "back", "Bob")
        assert _seats(ann) == [("Ann", True, False), ("Bob", True, False)]
        bob.wait_for("Seed hash")
        assert "table is full" not in bob.text

        # 2. SIGTERM: the terminal is restored and the seat kept; back after the grace
        cut = len(bob.raw)
        assert bob.signal(signal.SIGTERM) == 0
        assert all(code in bob.raw[cut:].decode(errors="replace") for code in RESTORED)
        assert bob.terminal_sane()
        _notice(ann, "away", "Bob")
        _notice(ann, "standin", "Bob")  # the grace (2 s) ran out
        bob = _join(port, tmp_path)
        apps.append(bob)
        _notice(ann, "back", "Bob")
        assert _seats(ann) == [("Ann", True, False), ("Bob", True, False)]
        bob.wait_for("Seed hash")

        # 3. the host is stopped (Ctrl-C) and resumed: the app says the host keeps the
        # game, keeps trying, and takes its seat back with no key pressed
        host.interrupt()
        bob.wait_for("The host stopped (it keeps this game); trying again in")
        bob.wait_for("(q leaves, j tries")
        ann.close()
        host = HostCommand(port, tmp_path / "host2.log", *GAME, "--resume")
        ann = _resumed_with_bob_back(port, token)
        bob.wait_for("Reconnected: you have your seat back")

        # 4. the host is killed (-9, no goodbye) and resumed: the same, on its own
        cut = len(bob.raw)
        host.stop()
        bob.wait_for("The host is gone; trying again in")
        ann.close()
        host = HostCommand(port, tmp_path / "host3.log", *GAME, "--resume")
        ann = _resumed_with_bob_back(port, token)
        end = time.monotonic() + 60  # a loaded machine repaints late; never slept on
        while time.monotonic() < end and "Reconnected" not in screen_text(
                bob.raw[cut:].decode(errors="replace")):
            bob.pump(0.2)
        assert "Reconnected: you have your seat back" in screen_text(
            bob.raw[cut:].decode(errors="replace"))
        assert "table is full" not in bob.text and "Traceback" not in bob.text
    finally:
        if ann is not None:
            ann.close()
        for app in apps:
            app.finish()
        host.stop()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.slow
def test_a_signal_leaves_the_terminal_as_it_was(tmp_path, sig):
    app = Pty(motherlode(), app_env(tmp_path))
    try:
        app.wait_for("Join a LAN game")
        assert not app.terminal_sane()  # the app runs the terminal raw
        cut = len(app.raw)
        assert app.signal(sig) == 0
        tail = app.raw[cut:].decode(errors="replace")
        for code in RESTORED:
            assert code in tail, f"{code!r} not written on exit"
        assert app.terminal_sane()
        assert "Traceback" not in app.text
    finally:
        app.finish()
