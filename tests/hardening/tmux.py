"""The real app in a real terminal: a private tmux server (its own socket, no config
file) runs one program in a window of a given size; the tests send it keys as a person
types them and read the screen tmux shows (``capture-pane``), as a person reads it.

Textual's Pilot lays the screen out in-process; this is what a terminal gets from the
app's own bytes, late layouts and all."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable

from tests.hardening.ptyapp import ROOT
from tests.waiting import until_blocking

TMUX = shutil.which("tmux")
# CI (.ci/run) installs tmux and sets MOTHERLODE_REQUIRE_BROWSER: there a missing tmux
# fails the run instead of skipping the tests that need it
REQUIRED = bool(os.environ.get("MOTHERLODE_REQUIRE_BROWSER"))

POLL = 0.05  # seconds between two looks at the screen while waiting
_servers = itertools.count()


class Tmux:
    """``argv`` run with ``env`` in a tmux window of ``size`` (columns, rows), on a tmux
    server of its own; use it as a context manager: the server is killed on the way out,
    whatever happened. The pane stays after the program exits, so its last words can be
    read."""

    def __init__(self, argv: list[str], env: dict[str, str],
                 size: tuple[int, int] = (80, 24)) -> None:
        assert TMUX is not None, "no tmux here"
        self.size = size
        self.socket = f"motherlode-test-{os.getpid()}-{next(_servers)}"
        columns, rows = size
        self.env = {k: v for k, v in env.items() if k not in ("TMUX", "TMUX_PANE")}
        self.env.update(COLUMNS=str(columns), LINES=str(rows))
        self.argv = argv

    def __enter__(self) -> Tmux:
        columns, rows = self.size
        try:
            self._tmux("new-session", "-d", "-s", "app", "-x", str(columns), "-y", str(rows),
                       "-c", str(ROOT), shlex.join(self.argv), ";",
                       "set-option", "-p", "-t", "app", "remain-on-exit", "on")
        except BaseException:
            self.kill()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.kill()

    def _tmux(self, *args: str) -> str:
        done = subprocess.run([TMUX, "-L", self.socket, "-f", os.devnull, *args],
                              env=self.env, capture_output=True, text=True, timeout=20)
        if done.returncode:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def kill(self) -> None:
        """End the server and the program in it (again: a no-op)."""
        subprocess.run([TMUX, "-L", self.socket, "-f", os.devnull, "kill-server"],
                       env=self.env, capture_output=True, timeout=20)

    def keys(self, *keys: str) -> None:
        """Press keys by tmux's names (``Enter``, ``Space``, ``Escape``, ``s``, ``3``)."""
        self._tmux("send-keys", "-t", "app", *keys)

    def screen(self, styles: bool = False) -> str:
        """The text the terminal shows now, a line a row (with its SGR escapes too)."""
        return self._tmux("capture-pane", "-p", *(["-e"] if styles else []), "-t", "app")

    def exited(self) -> bool:
        return self._tmux("display-message", "-p", "-t", "app", "#{pane_dead}").strip() == "1"

    def wait_for(self, want: str | Callable[[str], object], what: str = "",
                 deadline: float = 20.0) -> str:
        """Look at the screen every ``POLL`` seconds until it matches ``want`` (a regular
        expression, or a predicate of the screen's text), for up to ``deadline``
        seconds; return that screen, or fail showing the last one."""
        if isinstance(want, str):
            pattern = re.compile(want)
            what = what or repr(want)
            want = pattern.search
        seen = [""]

        def shown_or_ended() -> bool:
            seen[0] = self.screen()
            return bool(want(seen[0])) or self.exited()

        until_blocking(shown_or_ended, lambda: f"shown: {what}\n{self.screen()}", deadline,
                       step=POLL)
        if not want(seen[0]):  # the app ended first
            raise AssertionError(f"never shown: {what}\n{seen[0]}")
        return seen[0]

    def settled(self, want: Callable[[str], object] = bool, what: str = "a still screen",
                deadline: float = 20.0) -> str:
        """The screen once it matches ``want`` and stays the same for one more look:
        what a person reads, not a frame half drawn."""
        last = [""]

        def still(shown: str) -> bool:
            same, last[0] = shown == last[0], shown
            return same and bool(want(shown))

        return self.wait_for(still, what, deadline)
