"""What every flow shares: the app it conducts for, and how a way of playing opens.

A flow is an object the app holds (`tui.flows.routes.Flows`). It pushes screens, asks
questions with their callbacks, and opens sessions through the launchers of
`tui.modes`; the app attaches what a launcher opened. Flows import screens, modes and
the protocol only when they run, so the menu comes up fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.modes import Launch


class Flow:
    """One thing the app does for a person, from the first screen to the session.
    ``app`` is the `tui.app.MotherlodeApp` (not imported: the app imports the flows)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def open(self, message: Any) -> None:
        """Open what ``message`` (a `tui.flows.messages.OpenFlow`) asks for."""
        raise NotImplementedError

    # -- opening a session ------------------------------------------------------------

    def launch_options(self) -> Launch:
        """What the launchers (`tui.modes`) need from the app."""
        from tui.modes import Launch

        app = self.app
        return Launch(
            name=app.settings.name, difficulty=app.settings.difficulty,
            table_options=dict(app.table_options), host_clock=app.host_clock,
            client_clock=app.client_clock, lan_port=app.lan_port, lan_bind=app.lan_bind,
            announce=app.announce, announce_options=dict(app.announce_options),
            connect_timeout=app.connect_timeout, saves=app.saves,
        )  # fmt: skip

    def launch(self, opening: Any) -> None:
        """Open a session from a launcher's coroutine, in a worker; a failure is said."""
        self.app.run_worker(self._launch(opening), group="mode", exclusive=True)

    async def _launch(self, opening: Any) -> None:
        from tui.modes import LaunchFailed

        try:
            session = await opening
        except LaunchFailed as failure:
            if failure.watch is not None:
                self._offer_watch(failure)
            else:
                self.app.show_message(failure.title, failure.body)
            return
        except Exception as error:  # a bug: logged, said, never a traceback
            self.app.flows.crash.report(error)
            return
        self.app.attach(session)

    def _offer_watch(self, failure: Any) -> None:
        """A full table: offer to watch it instead."""
        from tui.flows.messages import JoinGame
        from tui.screens.common import MessageScreen

        host, port = failure.watch

        def answered(key: str | None) -> None:
            if key == "w":
                self.app.flows.open(JoinGame(host, port, watch=True))

        self.app.push_screen(MessageScreen(failure.title, failure.body,
                                           keys=[("w", "watch the game"), ("esc", "back")]),
                             answered)
