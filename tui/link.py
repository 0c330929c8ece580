"""The app's one connection to a table: a `net.client.Client`, and the screens it feeds.

A worker reads the client's stream and posts each item to the app as an `Update`;
the app hands it back to `Link.handle`, which updates the lobby or the table screen.
Actions go out through one queue, in order. Local play (hot-seat, solo) owns an
in-process `net.host.Host`; hosting a LAN game owns a TCP host and its announcer too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from typing import TYPE_CHECKING, Any

from net import protocol as p
from net.client import Disconnected, NetError, Reconnected, Reconnecting
from tui.messages import Update
from tui.screens.common import ChatScreen, ConfirmScreen
from tui.screens.foolsgold import FoolsGoldScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.nuggets import NuggetsScreen

if TYPE_CHECKING:
    from net.client import Client
    from tui.app import MotherlodeApp

log = logging.getLogger("motherlode.tui")

STATUS_SECONDS = 4.0  # how long "Reconnected" stays on screen

# Tasks that outlive a screen (closing a link, announcing): kept here so the loop's
# weak references cannot drop them half-way.
_background: set[asyncio.Task] = set()


def _keep(task: asyncio.Task) -> asyncio.Task:
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


class Link:
    """See the module docstring. `setup` holds the messages a local mode sends itself
    once welcomed (seat the other players, then start)."""

    def __init__(
        self,
        app: MotherlodeApp,
        client: Client,
        *,
        mode: str,
        host: Any = None,
        announcer: Any = None,
        addresses: list[str] | None = None,
        setup: list[Any] | None = None,
    ) -> None:
        self.app = app
        self.client = client
        self.mode = mode
        self.host = host
        self.announcer = announcer
        self.addresses = addresses or []
        self.setup = list(setup or [])
        self.welcome: p.Welcome | None = client.welcome
        self.table_info: p.TableInfo | None = None if self.welcome is None else self.welcome.table
        self.names: list[str] = []
        self.lobby: LobbyScreen | None = None
        self.table: NuggetsScreen | FoolsGoldScreen | None = None
        self.seed_hash: str | None = None
        self.closed = False
        self._said = ""
        self._outbox: asyncio.Queue[Any] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []

    # -- life --------------------------------------------------------------------------

    def start(self) -> None:
        """Begin reading and sending (call once, inside the app's loop)."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._write())]
        if self.mode in ("lan-host", "join"):
            self.lobby = LobbyScreen(self)
            self.app.push_screen(self.lobby)
        for message in self.setup:
            self.send(message)

    async def _read(self) -> None:
        try:
            async for item in self.client:
                self.app.post_message(Update(item))
        except NetError as error:
            self.app.post_message(Update(Disconnected(error.message, error)))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a bug below us: logged, said, never a traceback
            self.app.call_later(self.app.report_error, error)

    async def _write(self) -> None:
        while True:
            message = await self._outbox.get()
            try:
                await self.client.send(message)
            except NetError as error:
                log.info("send failed: %s", error)
            except p.LocalProtocolError as error:  # we built a bad message: say so
                self._say(f"Could not send that: {error.message}")
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a bug below us: logged, said, never a traceback
                self.app.call_later(self.app.report_error, error)
                return

    def send(self, message: Any) -> None:
        """Queue a protocol message for the host (sent in order)."""
        if not self.closed:
            self._outbox.put_nowait(message)

    def close(self) -> asyncio.Task | None:
        """Leave: close the client, the host and the announcer in the background
        (await the returned task to wait for it)."""
        if self.closed:
            return None
        self.closed = True
        for task in self._tasks:
            task.cancel()
        return _keep(asyncio.get_running_loop().create_task(self._shutdown()))

    async def _shutdown(self) -> None:
        if not (self.mode == "hotseat" and self.table is not None and not self.table.finished):
            # (a hot-seat game left half-way keeps its seats: it is saved to resume)
            with contextlib.suppress(Exception):
                await self.client.send(p.Leave())
        with contextlib.suppress(Exception):
            await self.client.close()
        if self.announcer is not None:
            with contextlib.suppress(Exception):
                await self.announcer.close()
        if self.host is not None:
            with contextlib.suppress(Exception):
                await self.host.close("the host left")

    def host_now(self) -> float:
        """The host's clock now, as this client estimates it (from the last state)."""
        return self.client.clock.now() + self.client.offset

    # -- what arrives ------------------------------------------------------------------

    @property
    def seats(self) -> list[int]:
        return [] if self.welcome is None else list(self.welcome.seats)

    @property
    def is_owner(self) -> bool:
        info = self.table_info
        return info is not None and info.owner is not None and info.owner in self.seats

    def handle(self, item: Any) -> None:
        """One item of the client's stream."""
        if self.closed:
            return
        if isinstance(item, p.Welcome):
            self.welcome = item
            self._table(item.table)
            if item.resumed and item.table.phase == "playing" and self.table is None:
                # a saved game taken up again: its table, without a "started"
                self._started(p.Started(seed_hash=item.table.seed_hash or "",
                                        players=[s.name for s in item.table.seats], first=0))
        elif isinstance(item, p.TableUpdate):
            self._table(item.table)
        elif isinstance(item, p.Started):
            self._started(item)
        elif isinstance(item, p.State):
            self._state(item)
        elif isinstance(item, p.ChatLine):
            line = f"{item.name}: {item.text}"
            self._log(line)
        elif isinstance(item, p.Notice):
            self._log(_notice_text(item))
        elif isinstance(item, p.Over):
            self._over(item)
        elif isinstance(item, p.Error):
            self._error(item)
        elif isinstance(item, p.Bye):
            if item.reason not in ("left",):
                self.app.return_to_menu()
                self.app.show_message("The table closed", f"The host ended it: {item.reason}.")
        elif isinstance(item, Reconnecting):
            self._say(
                f"Connection lost ({item.reason}). Reconnecting: attempt {item.attempt}"
                + (f" in {item.delay:g} s" if item.delay else "")
                + "...  (q leaves)"
            )
        elif isinstance(item, Reconnected):
            self.welcome = item.welcome
            self._table(item.welcome.table)
            self._say("Reconnected: you have your seat back.")
            self.app.set_timer(STATUS_SECONDS, self._clear_reconnected)
        elif isinstance(item, Disconnected):
            if item.error is not None:
                self.app.return_to_menu()
                self.app.show_message("Connection lost", f"{item.error.message}\n\n"
                                      "Your game could not be resumed.")

    def _table(self, info: p.TableInfo) -> None:
        self.table_info = info
        if self.announcer is not None:
            _keep(asyncio.get_running_loop().create_task(self._announce(info)))
        if info.phase == "lobby" and not self.names:
            self.names = [s.name for s in info.seats]
        if self.lobby is not None:
            self.lobby.show_table(info)

    async def _announce(self, info: p.TableInfo) -> None:
        from net import discovery

        if self.host is None or self.announcer is None:
            return
        free = info.settings.seats - len(info.seats) if info.phase != "playing" else 0
        with contextlib.suppress(Exception):  # discovery is a convenience, never a failure
            await self.announcer.update(discovery.Announcement(
                game=info.game, table=info.name, seats_free=max(free, 0),
                seats_total=info.settings.seats, port=self.host.port,
                protocol=p.PROTOCOL_VERSION))

    def _started(self, started: p.Started) -> None:
        self.names = list(started.players)
        self.seed_hash = started.seed_hash
        game = self.table_info.game if self.table_info else "nuggets"
        if self.table is not None:
            # a new game at the same table (LAN play again): start from a clean screen
            self.app.pop_screen()
            self.table = None
        if game == "nuggets":
            self.table = NuggetsScreen(
                self.seats,
                ascii_mode=self.app.ascii_mode,
                advisor=self.app.settings.advisor,
                hotseat=self.mode == "hotseat",
            )
        else:
            seat = self.seats[0] if self.seats else None
            self.table = FoolsGoldScreen(seat, self.names, ascii_mode=self.app.ascii_mode,
                                         host_now=self.host_now)
        self.app.push_screen(self.table)
        self.table.add_log(f"Seed hash {started.seed_hash[:16]}... (revealed at the end)")

    def _state(self, state: p.State) -> None:
        if self.table is None:
            return
        # A hot-seat client gets one state per seat it controls; the dice are public,
        # so one of them is enough.
        primary = self.seats[0] if self.seats else None
        if state.seat != primary:
            return
        self.table.show_state(state.view, state.events)

    def _over(self, over: p.Over) -> None:
        ok = hashlib.sha256(over.seed.encode()).hexdigest() == over.seed_hash
        verdict = "matches the hash shown at the start" if ok else "DOES NOT match its hash!"
        self._log(f"Seed revealed: {over.seed[:16]}... {verdict}")

    def _error(self, error: p.Error) -> None:
        if self.table is not None and self.app.screen is self.table:
            self.table.show_error(error.message)
        elif self.lobby is not None:
            self.lobby.show_status(f"Refused: {error.message}")
        else:
            self.app.notify(error.message, severity="error")

    def _log(self, line: str) -> None:
        if self.table is not None:
            self.table.add_log(line)
        if self.lobby is not None:
            self.lobby.add_chat(line)

    def _clear_reconnected(self) -> None:
        if self._said.startswith("Reconnected"):
            self._say("")

    def _say(self, text: str) -> None:
        """A status line that stays until the next one: reconnects and failures."""
        self._said = text
        if self.table is not None:
            self.table.show_status(text)
        if self.lobby is not None:
            self.lobby.show_status(text)

    # -- what the person asks ----------------------------------------------------------

    def open_chat(self) -> None:
        def sent(text: str | None) -> None:
            if text:
                self.send(p.Chat(text=text))

        self.app.push_screen(ChatScreen(), sent)

    def confirm_leave(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.app.return_to_menu()

        finished = self.table is not None and self.table.finished
        if finished and self.lobby is not None:
            # a LAN game ended: back to the lobby, where the owner can start another
            self.app.pop_screen()
            self.table = None
            self.lobby.show_status("The game is over. s starts another; q leaves.")
            return
        if finished or (self.mode == "join" and self.table is None):
            self.app.return_to_menu()
            return
        question = "Leave this table?"
        if self.mode == "hotseat":
            question = "Leave this game? It is saved: Resume it from the menu."
        if self.mode == "lan-host":
            question = "Leave and close the table for everyone?"
        self.app.push_screen(ConfirmScreen(question), answered)


def _notice_text(notice: p.Notice) -> str:
    what = {
        "joined": "joined",
        "left": "left",
        "away": "is away (a bot stands in after the grace period)",
        "back": "is back",
        "standin": "is played by a stand-in bot",
        "owner": "now owns the table",
        "bot": "sits down",
        "renamed": "is your name here (yours was taken)",
        "spectating": "is watching",
    }.get(notice.event, notice.event)
    return f"{notice.name} {what}"
