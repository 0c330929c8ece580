"""A terminal an app was killed in (kill -9 mid-game: the mouse reporting, the other
screen, no echo, no line editing) is put back by the next app's start (issue 47): on a
real pty, as the person's shell would have it."""

from __future__ import annotations

import os
import termios

from tui.cli import RESTORE, restore_terminal


def test_the_next_start_puts_back_a_terminal_a_killed_app_left():
    master, slave = os.openpty()
    try:
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~(termios.ECHO | termios.ICANON)  # what Textual's driver leaves
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        with os.fdopen(os.dup(slave), "w") as terminal:
            assert restore_terminal(terminal)
        after = termios.tcgetattr(slave)
        assert after[3] & termios.ECHO and after[3] & termios.ICANON
        written = os.read(master, 4096).decode()
        for mode in ("?1000l", "?1003l", "?1006l", "?1049l", "?25h"):
            assert f"\x1b[{mode}" in written
        assert RESTORE in written
    finally:
        os.close(master)
        os.close(slave)


def test_nothing_is_written_where_there_is_no_terminal(tmp_path):
    with open(tmp_path / "out", "w") as file:
        assert not restore_terminal(file)
    assert (tmp_path / "out").read_text() == ""


def test_a_terminal_that_says_it_has_only_ascii_gets_no_box_drawing(monkeypatch):
    """TERM honoured (issue 47): a vt100 gets ASCII pictures; an xterm keeps them (its
    16 colours are Rich's own reading of TERM)."""
    import io
    import sys

    from tui import glyphs

    monkeypatch.setattr(glyphs, "locale_is_c", lambda: False)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    for term, ascii in (("vt100", True), ("vt220", True), ("ansi", True),
                        ("xterm", False), ("xterm-256color", False)):
        monkeypatch.setenv("TERM", term)
        assert glyphs.ascii_default() is ascii, term
