"""A Fool's Gold hand looks the same after every way of coming back (issue 18), with
real processes: a `motherlode host`, the real app (`motherlode join`) under a pty of
80x24 read through pyte, and Ann as a raw JSON peer.

Bob draws and passes the card in slot 2, so his hand has a gap; then
1. his app is killed (kill -9) and run again: the new app draws the hand it had;
2. the host is stopped (Ctrl-C) and started again with ``--resume``: the same.
Each time the hand's rows on the screen (every character and its colour) are what
they were before the drop."""

from __future__ import annotations

import time

import pyte
import pytest

from tests.hardening.ptyapp import HostCommand, Peer, Pty, app_env, free_port, motherlode

GAME = ("--game", "foolsgold", "--seats", "2", "--seed", "slots")


def _screen(app: Pty) -> pyte.Screen:
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(app.raw)
    return screen


def _hand(app: Pty) -> list[list[tuple[str, str]]] | None:
    """The hand's seven rows as (character, colour) pairs, or None when no hand shows."""
    screen = _screen(app)
    rows = screen.display
    top = next((y for y, line in enumerate(rows) if line.startswith(("╭─1", "┏━1"))), None)
    if top is None or top + 7 > len(rows):
        return None
    return [[(screen.buffer[y][x].data, screen.buffer[y][x].fg) for x in range(80)]
            for y in range(top, top + 7)]  # fmt: skip


def _text(hand) -> str:
    return "\n".join("".join(ch for ch, _ in row) for row in hand or [])


def _wait_hand(app: Pty, ok=lambda hand: True, deadline: float = 30.0):
    """The hand on the screen once it shows and ``ok(hand)`` holds."""
    end = time.monotonic() + deadline
    hand = None
    while time.monotonic() < end:
        app.pump(0.2)
        hand = _hand(app)
        if hand is not None and ok(hand):
            return hand
    shown = _text(hand) if hand else "\n".join(_screen(app).display)
    raise AssertionError(f"the hand never showed as wanted; the screen:\n{shown}")


def _screen_until(app: Pty, done, deadline: float = 20.0) -> bool:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        app.pump(0.2)
        if done():
            return True
    raise AssertionError("never; the screen:\n" + "\n".join(_screen(app).display))


def _notice(peer: Peer, event: str, name: str) -> dict:
    return peer.wait(lambda m: m["type"] == "notice" and m["event"] == event
                     and m["name"] == name, f"{name} {event}")


def _join(port: int, tmp_path) -> Pty:
    return Pty(motherlode("join", f"127.0.0.1:{port}", "--name", "Bob"), app_env(tmp_path))


@pytest.mark.timeout(180)
@pytest.mark.slow
def test_the_hand_keeps_its_slots_and_looks_after_a_kill_and_a_host_restart(tmp_path):
    port = free_port()
    host = HostCommand(port, tmp_path / "host1.log", *GAME)
    apps: list[Pty] = []
    ann = None
    try:
        ann = Peer(port, "Ann")
        token = ann.recv_type("welcome")["token"]
        # Bob (seat 1) starts: he draws from the draw pile; nobody stands in for minutes
        ann.send({"type": "configure", "grace": 600, "first_player": 1})
        bob = _join(port, tmp_path)
        apps.append(bob)
        bob.wait_for("Bob")
        # ready once Bob sits: a "ready" is for the table as it is (issue 35)
        ann.wait(lambda m: m["type"] == "notice" and m["event"] == "joined"
                 and m["name"] == "Bob", "Bob joins")
        ann.send({"type": "ready"})
        bob.write(b"r")  # ready: the game starts
        ann.wait(lambda m: m["type"] == "started", "the start")
        dealt = _wait_hand(bob)
        assert "╭─6" not in _text(dealt)  # five cards
        bob.write(b"d")  # a sixth card, marked new
        drawn = _wait_hand(bob, lambda hand: "6━new" in _text(hand))
        passed = _text(drawn).splitlines()[1][13:26]  # slot 2's name row
        bob.write(b"2")  # pass the card in slot 2: its slot stays, empty
        before = _wait_hand(bob, lambda hand: "new" not in _text(hand))
        rows = _text(before).splitlines()
        assert rows[1][13:26] == "│" + " " * 11 + "│" != passed  # the gap
        assert rows[0].count("╭─") == 6 and "new" not in rows[0]
        assert rows[1][:13] == _text(dealt).splitlines()[1][:13]  # slot 1 stayed
        ann.wait(lambda m: m["type"] == "state" and m["view"]["incoming_sizes"][0] == 1,
                 "the passed card at Ann's")

        # 1. kill -9, and the app run again: the same hand, slot for slot, look for look
        bob.proc.kill()
        _notice(ann, "away", "Bob")
        bob = _join(port, tmp_path)
        apps.append(bob)
        _notice(ann, "back", "Bob")
        assert _wait_hand(bob, lambda hand: hand == before) == before

        # 2. the host stopped with Ctrl-C and resumed: the same again
        host.interrupt()
        gone = _screen_until(bob, lambda: "The host stopped" in "\n".join(
            _screen(bob).display))  # the app waits for the host, the hand still shown
        ann.close()
        host = HostCommand(port, tmp_path / "host2.log", *GAME, "--resume")
        ann = Peer(port, "Ann", token=token)
        welcome = ann.recv_type("welcome")
        assert welcome["resumed"]
        # Bob's app comes back on its own (no key pressed): before Ann, or after her
        # (then she hears it); a notice sent before she arrived is not hers to wait for
        bob_seat = next(s for s in welcome["table"]["seats"] if s["name"] == "Bob")
        if not bob_seat["connected"]:
            _notice(ann, "back", "Bob")
        assert _wait_hand(bob, lambda hand: hand == before) == before
        assert "Traceback" not in bob.text and gone
    finally:
        if ann is not None:
            ann.close()
        for app in apps:
            app.finish()
        host.stop()
