"""The SSH door's limits, in one place (their reasons: ``docs/RELIABILITY.md``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from serve.resize import MAX_SIZE


@dataclass
class DoorConfig:
    """Limits of the SSH door."""

    max_sessions: int = 16  # live apps, attached or waiting for their player (a
    # waiting game is never hung up on to make room)
    # apps starting at once, each until its first frame (``Apps.start``): one a core.
    # Forked from the warm parent, a start is about 0.1 CPU-seconds to its menu, and
    # eight arrivals served in turn see their menus in order (median 0.30-0.36 s),
    # where all at once share the cores and all wait for the last (issue 48)
    max_startups: int = field(default_factory=lambda: max(1, os.cpu_count() or 2))
    startup_timeout: float = 15.0
    # seconds an app that has written something may hold its start-up slot before its
    # first frame (a tiny terminal's whole screen may be less than ``FIRST_FRAME``)
    first_frame_wait: float = 0.5
    keep_detached: float = 600.0  # seconds a dropped player's app waits for them
    login_timeout: float = 20.0  # accept -> logged in
    session_timeout: float = 10.0  # logged in -> a session (else closed)
    keepalive_interval: float = 15.0
    keepalive_count_max: int = 3
    slow_reader_bytes: int = 1 << 20
    max_width: int = MAX_SIZE[0]  # the largest terminal an app is given (serve.resize)
    max_height: int = MAX_SIZE[1]
    # connections before login and logged in without a session are counted in the
    # process's ledger (net.budgets), with the host's and the web door's
    max_auth_tries: int = 6  # wrong passwords or keys on one connection (MaxAuthTries)
    auth_delay: float = 0.5  # seconds before answering a password, per wrong one so far
    max_auth_delay: float = 8.0
    max_env: int = 16  # env requests on one session
    max_env_bytes: int = 256  # name + value of one
    resize_every: float = 0.1  # window changes coalesced to one per this many seconds

    def clamp(self, width: int, height: int) -> tuple[int, int]:
        """A terminal size an app may be given: 10 x 5 up to the maximum."""
        width = min(max(width or 80, 10), self.max_width)
        height = min(max(height or 24, 5), self.max_height)
        return width, height
