"""The terminal as a first-timer's seat meets it (issue 47 items 10 and 11), with real
processes on a real pty:

- ``join`` killed with ``kill -9`` mid-lobby leaves the terminal as Textual had it (no
  echo, no line editing, the other screen, mouse reports). The next ``join`` on the
  same terminal takes the seat back, and when it quits the terminal is the person's
  shell's again: the start put it back before Textual saved what it would restore.
- A terminal that says it has only ASCII and 16 colours (``TERM=vt100``) gets no
  box drawing, no blocks and no colour beyond the 16.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import struct
import subprocess
import termios
import time

import pytest

from tests.hardening.ptyapp import (
    ROOT,
    HostCommand,
    Pty,
    app_env,
    free_port,
    motherlode,
    screen_text,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


class Terminal(Pty):
    """One pty that outlives the programs run on it, as a person's terminal does: the
    programs are run on it one after another (``run``); reading is ``Pty``'s."""

    def __init__(self, env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        self.master, self.slave = os.openpty()
        cols, rows = size
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.env = env
        self.raw = b""
        self.proc: subprocess.Popen | None = None

    def run(self, *args: str) -> None:
        self.raw = b""
        self.proc = subprocess.Popen(motherlode(*args), stdin=self.slave, stdout=self.slave,
                                     stderr=self.slave, env=self.env, cwd=ROOT,
                                     start_new_session=True, close_fds=True)

    def wait_exit(self, deadline: float = 20.0) -> int:
        end = time.monotonic() + deadline
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.1)
        self.pump(0.3)
        code = self.proc.poll()
        assert code is not None, "the app did not exit"
        return code

    def lflag(self) -> int:
        return termios.tcgetattr(self.slave)[3]

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        os.close(self.master)
        os.close(self.slave)


def test_join_after_a_kill_9_takes_the_seat_back_and_leaves_the_terminal_sane(tmp_path):
    port = free_port()
    host = HostCommand(port, tmp_path / "host.log", "--game", "nuggets", "--seats", "3",
                       "--no-save")
    term = Terminal(app_env(tmp_path))
    try:
        assert term.lflag() & termios.ECHO and term.lflag() & termios.ICANON
        term.run("join", "--name", "Ann", f"127.0.0.1:{port}")
        term.wait_for("not ready", 30)
        os.killpg(term.proc.pid, signal.SIGKILL)  # kill -9: no goodbye, nothing restored
        term.proc.wait(10)
        term.pump(0.3)
        # what the person's shell now has: no echo, no line editing
        assert not term.lflag() & termios.ECHO and not term.lflag() & termios.ICANON
        term.run("join", "--name", "Ann", f"127.0.0.1:{port}")
        # the start writes the terminal's resets before anything else
        term.wait_for("not ready", 30)
        first = term.raw.decode("utf-8", errors="replace")
        assert first.index("\x1b[?1000l") < first.index("\x1b[?1049h")
        assert "Ann" in screen_text(term.text)
        term.write(b"q")
        term.wait_for("Leave")
        term.write(b"y")
        term.pump(1.0)
        if term.proc.poll() is None:
            term.write(b"\x11")  # ctrl+q at the menu
        assert term.wait_exit() == 0
        # the person's shell again: echo and line editing, the main screen, no mouse
        assert term.lflag() & termios.ECHO and term.lflag() & termios.ICANON
        tail = term.raw.decode("utf-8", errors="replace")
        last_alt = tail.rindex("\x1b[?1049")
        assert tail[last_alt:last_alt + 8] == "\x1b[?1049l"
    finally:
        term.close()
        host.stop()


# box drawing, block elements and the dice's pips: none on an ASCII terminal
WIDE = re.compile("[\u2500-\u259f\u25a0-\u25ff\u2600-\u27bf]")
BEYOND_16 = re.compile(r"\x1b\[[0-9;]*[34]8;[25];")


def test_a_vt100_gets_ascii_and_16_colours(tmp_path):
    env = app_env(tmp_path)
    env["TERM"] = "vt100"
    env.pop("COLORTERM", None)
    term = Terminal(env)
    try:
        term.run("solo", "--game", "nuggets", "--bots", "1", "--seed", "vt100")
        term.wait_for("enter rolls all seven dice", 30)
        term.write(b"\r")  # roll: the dice on the table
        term.wait_for("rolled")
        term.pump(0.5)
        raw = term.raw.decode("utf-8", errors="replace")
        assert not WIDE.findall(raw), sorted(set(WIDE.findall(raw)))
        assert not BEYOND_16.findall(raw), BEYOND_16.findall(raw)[:5]
        assert "+-" in screen_text(term.text)  # the boxes drawn in ASCII
    finally:
        term.close()
