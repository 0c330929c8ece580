"""SSH flow control that holds while the door reads slowly (issue 56).

SSH lets a client send only as much as the server's window for a channel allows, and
the server widens the window as it takes the data in. asyncssh widens it whenever it
hands data on to the session, to the full window, without counting what it still holds
for a session that paused reading: each time the door read a few KiB of a flood (at
``serve.inflow``'s rate), the window opened again by up to its full size, and the
channel's buffer grew without bound (a client typing 990-character lines as fast as
it could grew the server by about 35 MiB in 20 s).

:func:`hold_windows` makes the widening count the bytes still held, so a client may
have at most one window (2 MiB) at the server, delivered or not: a flood then waits in
the client. It wraps ``SSHChannel._deliver_data`` and reads ``_recv_buf``,
``_recv_window`` and ``_init_recv_window`` (asyncssh's own, checked on asyncssh 2.24.1);
a version without them is left as it is."""

from __future__ import annotations

from typing import Any

from asyncssh.channel import SSHChannel

_DONE = "_motherlode_holds_windows"


def hold_windows(channel_class: type = SSHChannel) -> bool:
    """Make ``channel_class`` widen its window only by what it no longer holds; True if
    it does now (idempotent)."""
    if getattr(channel_class, _DONE, False):
        return True
    deliver = getattr(channel_class, "_deliver_data", None)
    if deliver is None:
        return False

    def _deliver_data(self: Any, data: Any, datatype: Any) -> None:
        held = 0
        window = getattr(self, "_recv_window", None)
        full = getattr(self, "_init_recv_window", None)
        buffered = getattr(self, "_recv_buf", None)
        if window is not None and full is not None and buffered and window < full / 2:
            held = sum(len(chunk) for chunk, _ in buffered)  # once a half window
        self._recv_window += held  # asyncssh's widening sees what is held as not sent
        try:
            deliver(self, data, datatype)
        finally:
            self._recv_window -= held

    channel_class._deliver_data = _deliver_data  # type: ignore[attr-defined]
    setattr(channel_class, _DONE, True)
    return True
