"""The app takes in keys only as fast as it handles them (issue 56): Textual's driver
reads its input on a thread and posts every key, paste and mouse report to the app at
once, so a flood of keys (a paste of megabytes, a script) queued without bound in the
app's memory while the app worked through them. :func:`bounded` gives a driver class
whose input thread waits while the app is more than :data:`BACKLOG` messages behind:
the keys then wait in the app's terminal or pipe, which fills, and the door reads no
more from the player (``serve.inflow``): the flood waits in the player's own
connection. A person never meets it: a key is handled in well under a millisecond.

Textual's own: the driver's ``process_message`` (called on the input thread); what it
reads of Textual's internals is in ``tui.textual_internals`` (``messages_waiting``,
``ending``, ``driver_app``)."""

from __future__ import annotations

import functools
import time
from typing import Any

from textual import events
from textual.driver import Driver

from tui.textual_internals import driver_app, ending, messages_waiting

#: messages the app and its focused widget may have waiting before input waits
BACKLOG = 64
PAUSE = 0.005  # seconds between looks while the app catches up


@functools.cache
def bounded(driver: type[Driver]) -> type[Driver]:
    """``driver`` whose input thread waits while the app is behind (see above)."""

    class Bounded(driver):  # type: ignore[valid-type, misc]
        def process_message(self, message: Any) -> None:
            super().process_message(message)
            if not isinstance(message, events.Key | events.MouseEvent | events.Paste):
                return
            app = driver_app(self)
            while not ending(app):
                try:
                    behind = messages_waiting(app)
                except Exception:  # the app is changing screens: look again shortly
                    behind = BACKLOG + 1
                if behind <= BACKLOG:
                    return
                time.sleep(PAUSE)

    Bounded.__name__ = f"Bounded{driver.__name__}"
    return Bounded


class BoundedInput:
    """An app (a mixin before ``App``) whose driver, Textual's for this terminal or
    browser, takes in keys only as fast as the app handles them."""

    def get_driver_class(self) -> type[Driver]:
        return bounded(super().get_driver_class())  # type: ignore[misc]
