"""The app's one connection to a table: a `net.client.Client`, what runs its host, and
the seat it holds.

A session reads the client's stream and posts typed messages (`tui.messages`: the
table changed, a game started, a new view, a log line, a status, a refusal, the end)
to its target, the app, which hands them to the screens. Actions go out through one
queue, in order. How a session behaves is data (`Policy`), fixed by the launcher that
opened it (`tui.modes`): who closes the host, whether leaving can keep the seat.

Joining a remote table, the session also keeps the seat's resume token on disk
(`net.seats`), so a player whose terminal dies takes the seat back with the next
`join`. The session knows no screens and no app: it only posts messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
from dataclasses import dataclass
from typing import Any

from net import protocol as p
from net.client import Client, Disconnected, NetError, Reconnected, Reconnecting
from net.league.cli import rated_line
from net.protocol import Code
from net.views import tag
from tui.messages import (
    AgainChanged,
    ChatSaid,
    GameStarted,
    LogLine,
    Reacted,
    Refused,
    SessionEnded,
    StatusLine,
    TableChanged,
    ViewChanged,
)
from tui.notices import again_news, notice_text, reaction_text

log = logging.getLogger("motherlode.tui")

STATUS_SECONDS = 4.0  # how long "Reconnected" stays on screen

# Tasks that outlive a screen (closing a session): kept here so the loop's weak
# references cannot drop them half-way.
_background: set[asyncio.Task] = set()


def _keep(task: asyncio.Task) -> asyncio.Task:
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


@dataclass(frozen=True)
class Policy:
    """How a session behaves, by the way it was opened."""

    kind: str  # "solo", "hotseat", "lan-host" or "join": for logs and tests
    lobby: bool = False  # a LAN table: its lobby comes first and stays under the game
    hotseat: bool = False  # several people at this keyboard
    owns_host: bool = False  # the host runs in this app: closing ends it for everyone
    saved: bool = False  # a game left half-way is saved to resume (the seats stay)
    remote: bool = False  # the host is elsewhere: stepping away keeps the seat


SOLO = Policy("solo", owns_host=True)
HOTSEAT = Policy("hotseat", hotseat=True, owns_host=True, saved=True)
LAN_HOST = Policy("lan-host", lobby=True, owns_host=True)
JOIN = Policy("join", lobby=True, remote=True)


class Session:
    """See the module docstring. ``setup`` holds what a local mode sends itself once
    welcomed (seat the other players, then start)."""

    def __init__(
        self,
        client: Client,
        policy: Policy,
        *,
        host: Any = None,
        lan: Any = None,
        seat_file: Any = None,
        address: tuple[str, int] | None = None,
        addresses: list[str] | None = None,
        setup: list[Any] | None = None,
        on_close: Any = None,
    ) -> None:
        self.client = client
        self.policy = policy
        self.host = host  # a net.host.Host this session runs (local play), or None
        self.lan = lan  # a net.lan.LanHost this session runs, or None
        self.seat_file = seat_file  # a net.seats.Held for a remote seat, or None
        self.address = address  # (host, port) of a remote table, or None
        self.addresses = list(addresses or [])
        self.setup = list(setup or [])
        self.on_close = on_close  # called once the session has closed (the saves' fate)
        self.welcome: p.Welcome | None = client.welcome
        self.table: p.TableInfo | None = None if self.welcome is None else self.welcome.table
        self.in_game = False
        #: the rematch offer as the host last told it (``again``), None before one
        self.again: p.AgainState | None = None
        self.finished = False  # the last game ended (its result is on screen)
        self.closed = False
        self._target: Any = None
        self._said = ""
        self._wait_timer: asyncio.TimerHandle | None = None
        self._countdown: asyncio.TimerHandle | None = None
        self.reconnecting = False  # the line dropped and the client is coming back
        self._outbox: asyncio.Queue[Any] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        #: round trips awaited (:meth:`round_trip`), by the ping's id
        self._pings: dict[int, asyncio.Future[None]] = {}
        self._ping_id = 0

    # -- life --------------------------------------------------------------------------

    def start(self, target: Any) -> None:
        """Begin reading and sending; messages go to ``target.post_message`` (call once,
        inside the app's loop)."""
        self._target = target
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._write())]
        for message in self.setup:
            self.send(message)

    def _post(self, message: Any) -> None:
        if not self.closed and self._target is not None:
            self._target.post_message(message)

    async def _read(self) -> None:
        try:
            async for item in self.client:
                self.handle(item)
        except NetError as error:
            self.handle(Disconnected(error.message, error))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a bug below us: logged, said, never a traceback
            log.exception("the connection's reader failed")
            self._post(SessionEnded(self, "Something went wrong", repr(error), error=error))

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
                log.exception("the connection's writer failed")
                self._post(SessionEnded(self, "Something went wrong", repr(error), error=error))
                return

    def send(self, message: Any) -> None:
        """Queue a protocol message for the host (sent in order)."""
        if not self.closed:
            self._outbox.put_nowait(message)

    def round_trip(self) -> asyncio.Future[None]:
        """A future done once the host has handled everything sent before it: a ping
        follows them, and the host answers a connection's messages in order (a move's
        state or its refusal comes before the pong)."""
        self._ping_id += 1
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pings[self._ping_id] = answered
        self.send(p.Ping(id=self._ping_id))
        return answered

    def close(self, *, give_up: bool = True, step_away: bool = False) -> asyncio.Task | None:
        """End the session in the background (await the returned task to wait for it).

        ``give_up``: tell the host we leave, so the seat goes (a stand-in finishes a game
        in play). ``step_away``: keep the seat, and a stand-in plays it until we are
        back (a remote table). Neither: just close the connection, as a dropped line
        does (the seat waits through the grace period). A hot-seat game left half-way
        keeps its seats whatever is asked: it is saved to resume."""
        if self.closed:
            return None
        self.closed = True
        for task in self._tasks:
            task.cancel()
        if self._wait_timer is not None:
            self._wait_timer.cancel()
        self._stop_countdown()
        if self.policy.saved and self.in_game and not self.finished:
            give_up = step_away = False
        return _keep(asyncio.get_running_loop().create_task(self._shutdown(give_up, step_away)))

    async def _shutdown(self, give_up: bool, step_away: bool) -> None:
        if step_away and self.policy.remote:
            with contextlib.suppress(Exception):
                await self.client.send(p.Leave(keep_seat=True))
        elif give_up:
            with contextlib.suppress(Exception):
                await self.client.send(p.Leave())
        with contextlib.suppress(Exception):
            await self.client.close()
        if self.seat_file is not None:
            if give_up and not step_away:
                self.seat_file.forget()
            else:
                self.seat_file.release()  # kept on disk: the next join takes it back
        if self.lan is not None:
            with contextlib.suppress(Exception):
                await self.lan.close("the host left")
        elif self.host is not None and self.policy.owns_host:
            with contextlib.suppress(Exception):
                await self.host.close("the host left")
        if self.on_close is not None:
            try:
                self.on_close()
            except Exception:  # the saves' clean-up must never stop the app
                log.exception("closing the session's saves failed")

    def host_now(self) -> float:
        """The host's clock now, as this client estimates it (from the last state)."""
        return self.client.clock.now() + self.client.offset

    # -- what arrives ------------------------------------------------------------------

    @property
    def seats(self) -> list[int]:
        return [] if self.welcome is None else list(self.welcome.seats)

    @property
    def is_owner(self) -> bool:
        info = self.table
        return info is not None and info.owner is not None and info.owner in self.seats

    def handle(self, item: Any) -> None:
        """One item of the client's stream."""
        if self.closed:
            return
        if isinstance(item, p.Welcome):
            self._welcomed(item)
        elif isinstance(item, p.TableUpdate):
            self._table(item.table)
        elif isinstance(item, p.Started):
            self._started(item.players, item.seed_hash)
        elif isinstance(item, p.State):
            # A hot-seat client gets one state per seat it controls; the dice are
            # public, so one of them is enough.
            if self.in_game and item.seat == (self.seats[0] if self.seats else None):
                game = self.table.game if self.table else None
                if game is not None and tag(item.view) != game:
                    # a host at fault: said so, never drawn on the other game's table
                    self._say(f"The host sent a view of another game ({tag(item.view)}).")
                    return
                self._post(ViewChanged(self, item.view, item.events))
        elif isinstance(item, p.AgainState):
            news = again_news(self.again, item, self.table)
            self.again = item
            self._post(AgainChanged(self, item, news))
        elif isinstance(item, p.Reaction):
            self._post(Reacted(self, item.seat, item.reaction, reaction_text(item)))
        elif isinstance(item, p.ChatLine):
            self._post(ChatSaid(self, item.name, item.text))
        elif isinstance(item, p.Notice):
            self._post(LogLine(self, notice_text(item, self.table)))
        elif isinstance(item, p.Over):
            self.finished = True
            ok = hashlib.sha256(item.seed.encode()).hexdigest() == item.seed_hash
            verdict = "matches the hash shown at the start" if ok else "DOES NOT match its hash!"
            self._post(LogLine(self, f"Seed revealed: {item.seed[:16]}... {verdict}"))
        elif isinstance(item, p.Rated):  # one line: "Rated: Ann 1512 → 1527, +15"
            self._post(LogLine(self, rated_line(item)))
        elif isinstance(item, p.Error):
            self._post(Refused(self, item.message))
        elif isinstance(item, p.Pong):
            answered = self._pings.pop(item.id, None) if isinstance(item.id, int) else None
            if answered is not None and not answered.done():
                answered.set_result(None)
        elif isinstance(item, p.Bye):
            self._bye(item.reason)
        elif isinstance(item, Reconnecting):
            self._reconnecting(item)
        elif isinstance(item, Reconnected):
            self.reconnecting = False
            self._stop_countdown()
            self._welcomed(item.welcome)
            if item.welcome.table.waiting:
                # back first at a restored game: the status line says whom it waits
                # for, so the log keeps the news that this seat is back
                self._post(LogLine(self, "Reconnected: you have your seat back."))
            else:
                self._say("Reconnected: you have your seat back.")
                asyncio.get_running_loop().call_later(STATUS_SECONDS,
                                                      self._clear_reconnected)
        elif isinstance(item, Disconnected):
            self._disconnected(item)

    def _welcomed(self, welcome: p.Welcome) -> None:
        self.welcome = welcome
        if self.seat_file is not None and welcome.token is not None:
            with contextlib.suppress(OSError):
                self.seat_file.update(welcome.token, welcome.table.name)
        self._table(welcome.table)
        if welcome.table.phase == "playing" and not self.in_game:
            # a game already running: a spectator arriving late, a seat taken back
            info = welcome.table
            self._started([s.name for s in info.seats], info.seed_hash or "")
            if welcome.resumed and welcome.seats:
                self._post(LogLine(self, "You have your seat back."))

    def _table(self, info: p.TableInfo) -> None:
        self.table = info
        self._post(TableChanged(self, info, self.seats, self.is_owner))
        self._waiting(info)

    def _waiting(self, info: p.TableInfo) -> None:
        """A restored game waits for its people: say for whom, counting down."""
        if self._wait_timer is not None:
            self._wait_timer.cancel()
            self._wait_timer = None
        if not info.waiting:
            if self._said.startswith("Waiting for"):
                self._say("")
            return
        names = [s.name for s in info.seats if s.seat in info.waiting]
        loop = asyncio.get_running_loop()
        until = None if info.wait_left is None else loop.time() + info.wait_left

        def tick() -> None:
            left = "" if until is None else f" ({max(0, round(until - loop.time()))} s)"
            self._say(f"Waiting for {', '.join(names)}{left}: the game goes on once they "
                      "are back.")
            if until is not None and not self.closed:
                self._wait_timer = loop.call_later(1.0, tick)

        tick()

    def _started(self, players: list[str], seed_hash: str) -> None:
        if self.table is None:  # a host at fault: a game before its table
            self._say("The host started a game without saying which: ask the host.")
            return
        self.in_game = True
        self.finished = False
        self._post(GameStarted(self, self.table.game, list(players), self.seats, seed_hash))

    def _bye(self, reason: str) -> None:
        if reason == "left":
            return  # we asked to leave
        if reason == "kicked":
            if self.seat_file is not None:
                self.seat_file.forget()
                self.seat_file = None
            self._post(SessionEnded(self, "Your seat was freed", "The table's owner gave "
                                    "your seat to someone else (you were not ready)."))
            return
        if reason == "replaced":
            self._post(SessionEnded(self, "Your seat moved", "Another connection took this seat "
                                    "with its resume token (the same player, from elsewhere)."))
            return
        body = {"shutdown": "The host shut down.",
                "the host left": "The player hosting this table left it."}.get(
                    reason, f"The host ended it: {reason}.")
        if self.address is not None:
            body += "\n\nPress j to join again once the host is back."
        self._post(SessionEnded(self, "The table closed", body, rejoin=self.address))

    def _disconnected(self, item: Disconnected) -> None:
        self.reconnecting = False
        self._stop_countdown()
        if item.error is None:
            return
        if self.seat_file is not None and item.error.code in (Code.BAD_TOKEN, Code.NO_SUCH_TABLE):
            self.seat_file.forget()
            self.seat_file = None
        body = f"{item.error.message}\n\nYour game could not be resumed."
        rejoin = None
        if self.seat_file is not None and self.address is not None:
            body += " Your seat is kept: press j to try again once the host is back."
            rejoin = self.address
        self._post(SessionEnded(self, "Connection lost", body, rejoin=rejoin))

    def _reconnecting(self, item: Reconnecting) -> None:
        """Say what the client is doing to come back, counting down to the next try."""
        self.reconnecting = True
        self._stop_countdown()
        if item.failed is None and not item.delay:
            self._say(f"Connection lost ({item.reason}). Reconnecting...  (q leaves)")
            return
        if item.reason == "the host stopped; it keeps the table":
            gone = "The host stopped (it keeps this game)"
        else:
            gone = "The host is gone"
        loop = asyncio.get_running_loop()
        clock = self.client.clock  # the client's back-off runs on it
        due = clock.now() + item.delay

        def tick() -> None:
            self._countdown = None
            left = max(0, math.ceil(due - clock.now() - 0.05))
            when = f"trying again in {left} s" if left else "trying again now"
            self._say(f"{gone}; {when} (q leaves, j tries now)")
            if left and not self.closed:
                self._countdown = loop.call_later(1.0, tick)

        tick()

    def _stop_countdown(self) -> None:
        if self._countdown is not None:
            self._countdown.cancel()
            self._countdown = None

    def retry_now(self) -> bool:
        """While reconnecting, try at once (the person pressed j); False otherwise."""
        if not self.reconnecting or self.closed:
            return False
        self.client.retry_now()
        return True

    def suspend(self) -> None:
        """Nobody is at this terminal (a served session detached): the seat is away for
        the others at once, as with a dropped line; ``wake`` takes it back."""
        if not self.closed:
            self.client.suspend()

    def wake(self) -> None:
        if not self.closed:
            self.client.wake()

    def _clear_reconnected(self) -> None:
        if self._said.startswith("Reconnected"):
            self._say("")

    def _say(self, text: str) -> None:
        self._said = text
        self._post(StatusLine(self, text))
