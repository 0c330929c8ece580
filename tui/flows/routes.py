"""Every flow the app holds, and which flow opens each `OpenFlow` message.

Two tables: the app's own, and served mode's (`motherlode serve`), where only the
rules, the settings, quitting and the serve host's tables are open to a player. A
message with no route in the table in force is refused with a notice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.flows import messages as m
from tui.flows.crash import CrashFlow
from tui.flows.first_run import FirstRun
from tui.flows.hotseat import HotseatFlow
from tui.flows.lan import HostFlow, JoinFlow
from tui.flows.leave import LeaveFlow
from tui.flows.menu import MenuFlow
from tui.flows.replay import ReplayFlow
from tui.flows.resume import ResumeFlow
from tui.flows.served import ServedFlow
from tui.flows.solo import SoloFlow
from tui.flows.table import TableFlow
from tui.flows.window import WindowFlow

if TYPE_CHECKING:
    from tui.flows.base import Flow

NOT_SERVED = "That is not available when playing on a server."


class Flows:
    """The app's flows, made once with the app."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.first_run = FirstRun(app)
        self.menu = MenuFlow(app)
        self.solo = SoloFlow(app)
        self.hotseat = HotseatFlow(app)
        self.resume = ResumeFlow(app)
        self.host = HostFlow(app)
        self.join = JoinFlow(app)
        self.replay = ReplayFlow(app)
        self.served = ServedFlow(app)
        self.table = TableFlow(app)
        self.leave = LeaveFlow(app)
        self.crash = CrashFlow(app)
        self.window = WindowFlow(app)
        #: the app's own routes
        self.local: dict[type[m.OpenFlow], Flow] = {
            m.Quit: self.menu, m.ShowRules: self.menu, m.ShowSettings: self.menu,
            m.PlayBots: self.solo,
            m.SetUpHotseat: self.hotseat, m.StartHotseat: self.hotseat,
            m.ResumeGame: self.resume,
            m.HostGame: self.host,
            m.FindGame: self.join, m.JoinGame: self.join,
            m.ShowReplays: self.replay, m.ShowStats: self.replay, m.OpenReplay: self.replay,
            m.ShowLeague: self.replay,
        }  # fmt: skip
        #: served mode's routes: nothing that runs on the server's network or disk
        self.serving: dict[type[m.OpenFlow], Flow] = {
            m.Quit: self.menu, m.ShowRules: self.menu, m.ShowSettings: self.menu,
            m.JoinServedTable: self.served, m.NewServedTable: self.served,
            m.JoinGame: self.served,  # join again, or watch: the table this player was at
            m.ShowLeague: self.replay,  # the serve host's league, asked of the serve process
        }  # fmt: skip

    def route(self, message: m.OpenFlow) -> Flow | None:
        """The flow that opens ``message`` now, if any."""
        routes = self.local if self.app.served is None else self.serving
        return routes.get(type(message))

    def open(self, message: m.OpenFlow) -> None:
        """Open what ``message`` asks for, or say why not."""
        flow = self.route(message)
        if flow is not None:
            flow.open(message)
        elif self.app.served is not None:
            self.app.notify(NOT_SERVED, severity="warning")
        else:
            self.app.notify(f"Nothing opens for {type(message).__name__}.", severity="error")
