"""The "escapes" suite: names and chat carrying terminal escape payloads reach the REAL
TUI (``python -m tui.cli join``) running under a pty, and nothing but printable text
comes out of it.

A real host runs in its own process on 127.0.0.1; hostile peers are plain sockets that
write raw JSON lines (so no client-side cleaning helps: the host's cleaning and the
TUI's literal rendering are what is tested). The pty's whole output is captured and
checked byte for byte after the app quits.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.hardening.hostproc import HostProcess
from tests.hardening.ptyapp import Peer, Pty, app_env, motherlode, screen_text

ROOT = Path(__file__).resolve().parents[2]

OSC0 = "\x1b]0;pwned\x07"
OSC52 = "\x1b]52;c;ZXZpbA==\x07"
OSC8 = "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\"
CSI_CLEAR = "\x1b[2J"
DCS = "\x1bP1$rDCSX\x1b\\"
C1_CSI = "\x9b2J"
C1_OSC = "\x9d0;c1title\x9c"
UNTERMINATED = "\x1b]0;never ends"
MARKUP = "[bold red]x[/]"
CLICK = "[@click=app.quit]q[/]"
RLO = "\u202eevil\u202c"
LRI = "\u2066iso\u2069"

# (a hostile name, the name the host keeps) for each seated or watching peer
NAMES = [
    (OSC0 + "Ann", "Ann"),
    (OSC52 + "Bob" + CSI_CLEAR, "Bob"),
    (C1_CSI + "Cy" + C1_OSC, "Cy"),
    ("[bold red]Dee[/]", "[bold red]Dee[/]"),
    (RLO + "Eve", "evilEve"),
]
# chat lines: each is tagged so the test knows which one it is looking at
CHATS = [
    "t0<" + OSC0 + ">",
    "t1<" + OSC52 + ">",
    "t2<" + OSC8 + ">",
    "t3<" + CSI_CLEAR + ">",
    "t4<" + DCS + ">",
    "t5<" + C1_CSI + C1_OSC + ">",
    "t6<" + MARKUP + ">",
    "t7<" + CLICK + ">",
    "t8<" + RLO + LRI + ">",
    "t9<" + CSI_CLEAR * 240 + "long>",  # 969 characters of which 8 survive
    "t10<" + UNTERMINATED,  # swallows the rest: only "t10<" survives
]
SHOWN = [
    "t0<>",
    "t1<>",
    "t2<click>",
    "t3<>",
    "t4<>",
    "t5<>",
    "t6<[bold red]x[/]>",
    "t7<[@click=app.quit]q[/]>",
    "t8<eviliso>",
    "t9<long>",
]
TEN_K = "A" * 10_000
DONE = "ZZDONE"

@pytest.mark.timeout(90)
@pytest.mark.slow
def test_escape_payloads_never_reach_the_terminal(tmp_path):
    host = HostProcess({"tables": [{"name": "Den", "game": "nuggets"}]})
    peers: list[Peer] = []
    app = None
    try:
        app = Pty(motherlode("join", f"127.0.0.1:{host.port}", "--name", "Tester"),
                  app_env(tmp_path))
        # the lobby is up once it shows our own seat
        app.wait_for("Tester")
        app.pump(1.0)
        ready_at = len(app.raw)

        # hostile names: seated players first, then spectators (the table has 5 seats)
        for i, (name, kept) in enumerate(NAMES):
            peer = Peer(host.port, name, spectate=i >= 3)
            welcome = peer.recv_type("welcome")
            assert welcome["type"] == "welcome", welcome
            assert welcome["name"] == kept
            peers.append(peer)
        # the app paints once it has caught up: wait for the last arrival on screen, so
        # the chat lines below do not push the notices away before they are ever painted
        app.wait_for("evilEve is watching")

        # 10k-character strings: refused with a coded error, the host stays up
        big = Peer(host.port, TEN_K)
        assert big.recv_type("welcome")["type"] == "error"
        big.close()
        talker = peers[0]
        talker.send({"type": "chat", "text": TEN_K})
        assert talker.recv_type("chat")["type"] == "error"

        for text in CHATS:
            talker.send({"type": "chat", "text": text})
        talker.send({"type": "chat", "text": DONE})
        app.wait_for(DONE)
        app.pump(1.0)
        assert app.proc.poll() is None, "the app died"

        app.write(b"\x11")  # ctrl+q
        end = time.monotonic() + 15
        while app.proc.poll() is None and time.monotonic() < end:
            app.pump(0.2)
        app.pump(0.3)
        assert app.proc.poll() is not None, "ctrl+q did not quit the app"
    finally:
        for peer in peers:
            peer.close()
        if app is not None:
            app.finish()
        host.stop()

    raw = app.text
    after = raw[len(app.raw[:ready_at].decode("utf-8", errors="replace")) :]
    shown = screen_text(raw)

    # the app ran and quit cleanly
    assert "Traceback" not in shown
    assert app.proc.returncode == 0, app.proc.returncode

    # none of the payloads' sequences, nor their hidden contents, reached the terminal
    for marker in (
        "\x1b]0;pwned",
        "pwned",
        "\x1b]52",
        "ZXZpbA",
        "\x1b]8;;http://evil",
        "http://evil",
        "\x1bP",
        "DCSX",
        "c1title",
        "never ends",
        "\u202e",
        "\u202c",
        "\u2066",
        "\u2069",
    ):
        assert marker not in raw, f"{marker!r} reached the terminal"
    # raw C1 controls: not one character 0x80-0x9f in the decoded output
    assert not [ch for ch in raw if 0x80 <= ord(ch) <= 0x9F]
    # Textual clears the screen at start; nothing clears it once the lobby is up
    assert CSI_CLEAR not in after
    # no OSC of any kind once the lobby is up (Textual's own come at start, if any)
    assert "\x1b]" not in after

    # the cleaned names and lines are shown, markup as literal text
    for _, kept in NAMES[:3]:
        assert kept in shown
    assert "[bold red]Dee[/]" in shown
    for line in SHOWN:
        assert line in shown, f"{line!r} not shown literally"
    assert "t10<" in shown
