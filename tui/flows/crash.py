"""Failures: an unexpected error is logged to a file and said, never shown as a
traceback; the app keeps running where it can."""

from __future__ import annotations

import datetime
import logging
import traceback

from tui.flows.base import Flow
from tui.settings import log_dir

log = logging.getLogger("motherlode.tui")


class CrashFlow(Flow):
    """Crash logs, and the report of an error off the screen's path."""

    def write_log(self, error: BaseException) -> str:
        """Save the traceback under the log directory; a sentence saying where."""
        try:
            directory = log_dir()
            directory.mkdir(parents=True, exist_ok=True)
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = directory / f"crash-{stamp}.log"
            path.write_text(
                "".join(traceback.format_exception(type(error), error, error.__traceback__)),
                encoding="utf-8",
            )
        except OSError as write_error:
            return f"The details could not be saved ({write_error})"
        self.app.crash_log = path
        return f"The details are in {path}"

    def report(self, error: BaseException) -> None:
        """An unexpected error off the screen's path (the connection's tasks): log it, say
        where, and go back to the menu; the app keeps running."""
        log.error("unexpected error", exc_info=error)
        where = self.write_log(error)
        self.app.return_to_menu(give_up=False)  # a bug here is no reason to lose a seat
        self.app.show_message("Something went wrong", f"{error!r}\n\n{where}.")

    def stopped(self, error: BaseException) -> str:
        """The app stops after ``error``: the words printed as it exits."""
        where = self.write_log(error)
        return f"Motherlode stopped after an unexpected error: {error!r}.\n{where}.\n"
