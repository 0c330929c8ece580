"""The host's tables, without I/O: lobby, game loop, bots, stand-ins, chat, log.

Everything here is driven by plain calls that carry ``now`` (the host's clock):
``Tables.hello``, ``Table.handle``, ``Table.disconnect``, ``Table.tick``; and
``Table.next_wakeup()`` says when ``tick`` is next due. Members receive messages
through their ``deliver`` callback. The asyncio shell (``net.host``) feeds these
from sockets and a clock; tests call them directly.

The life of a table::

    lobby --start (owner, or a full table with everyone ready)--> playing
    playing --the game ends--> over --start--> playing ...

In ``lobby`` and ``over`` the owner configures the table and adds or removes bots;
people join, take seats, get ready, and leave. In ``playing`` the seats are fixed: a
player who drops is "away", and after the grace period a stand-in bot plays the seat
until they come back with their resume token.

Two clocks: ``now`` is always the host's. The game runs on the table's own clock,
``Table.clock(now)``: the host's minus the time the table spent waiting. A game
restored after a crash (``net.persist``) waits for its people (``hold``): until every
seated person is back or the grace period ends, the table's clock stands still, so no
deadline passes and no bot or stand-in acts, and game actions are refused. Everything
the game sees or sends (actions, deadlines, bot plans, the log, ``state.at``) is on
the table's clock; away times and the grace period on the host's.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from net import protocol as p
from net.games import (
    DIFFICULTIES,
    GAME_TITLES,
    GAMES,
    ILLEGAL,
    PLAYER_RANGE,
    Brain,
    Driver,
    WrongGame,
    make_brain,
    make_driver,
)
from net.protocol import Code
from net.text import CHAT_MAX, NAME_MAX, TABLE_NAME_MAX, check_length, clean_text, visible_key
from net.views import Event, to_events, to_view

BOT_NAMES = (
    "Dusty", "Nell", "Klondike", "Sluice", "Panhandle", "Ore", "Cassidy", "Jubal",
)  # fmt: skip
DEFAULT_GRACE = {"nuggets": 30.0, "foolsgold": 15.0}
_member_ids = itertools.count(1)


class Refusal(Exception):
    """A request the host refuses: sent back as an ``error`` with this code."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Settings:
    """A table's settings; ``seed`` is set by the host operator only, never by a peer."""

    seats: int
    difficulty: str = "normal"
    first_player: int | None = None
    seed: str | None = None
    grab_timeout: float = 10.0
    call_window: float = 5.0
    grace: float = 30.0
    bot_pace: float = 0.9
    hotseat: bool = False
    intermission: float = 4.0
    supply: int = 77

    def info(self) -> p.TableSettings:
        return p.TableSettings(
            seats=self.seats,
            difficulty=self.difficulty,
            first_player=self.first_player,
            seeded=self.seed is not None,
            grab_timeout=self.grab_timeout,
            call_window=self.call_window,
            grace=self.grace,
            bot_pace=self.bot_pace,
            hotseat=self.hotseat,
            supply=self.supply,
        )


def _noop(message: Any) -> None:
    pass


@dataclass(eq=False)
class Member:
    """One connection's presence at a table (a player or a spectator)."""

    name: str
    deliver: Callable[[Any], None] = _noop
    close: Callable[[str], None] = lambda reason: None
    spectator: bool = False
    id: int = field(default_factory=lambda: next(_member_ids))
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    connected: bool = True
    table: Table | None = None
    link: object = None  # the shell's connection now serving this member

    @property
    def token(self) -> str | None:
        """The resume token: ``<id>.<secret>``, 192 random bits from ``secrets``."""
        return None if self.spectator else f"{self.id}.{self.secret}"


@dataclass(eq=False)
class Seat:
    name: str
    kind: str  # "human", "local" (hot-seat, controlled by a human's connection) or "bot"
    member: Member | None = None
    ready: bool = False
    difficulty: str = "normal"
    brain: Brain | None = None
    standin: bool = False
    away_since: float | None = None
    plan: tuple[Any, float] | None = None


class Table:
    """One table: a game, its seats, its members, its lobby and its log."""

    def __init__(
        self,
        name: str,
        game: str,
        settings: Settings | None = None,
        *,
        report: Callable[[str], None] | None = None,
    ) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
        clean = clean_text(name)
        problem = check_length(clean, "table name", TABLE_NAME_MAX)
        if problem:
            raise ValueError(problem)
        self.name = clean
        self.game = game
        low, high = PLAYER_RANGE[game]
        self.settings = settings or Settings(seats=high, grace=DEFAULT_GRACE[game])
        if not low <= self.settings.seats <= high:
            raise ValueError(
                f"{GAME_TITLES[game]} seats {low} to {high}, not {self.settings.seats}"
            )
        self.report = report or (lambda text: None)
        self.phase = "lobby"
        self.seats: list[Seat] = []
        self.members: list[Member] = []
        self.owner: Member | None = None
        self.driver: Driver | None = None
        self.seed: str | None = None
        self.seed_hash: str | None = None
        # The current game's log, in memory from entry ``log_base`` on: whoever keeps
        # the earlier entries (a store spills them to disk) calls ``forget``, and a
        # table with ``log_limit`` keeps only that many (a host without saves), so a
        # long match costs no more memory than a short one.
        self.log: list[dict[str, Any]] = []
        self.log_base = 0
        self.log_limit: int | None = None
        self.result: p.Over | None = None  # the last game's, for a player who was away
        self.games_played = 0
        self.started_at: float | None = None  # the host time of the deal
        # called with (table, now) after every change and before anyone is sent its
        # views: the host's saves (net.persist)
        self.on_change: Callable[[Table, float], None] | None = None
        # called with the table after every change of its public info (every ``table``
        # update sent): the LAN announcement's free seats, say
        self.on_update: Callable[[Table], None] | None = None
        self._stuck_deadline: float | None = None
        # the table's clock (see the module docstring): host seconds it stood still in
        # this game, and the wait now under way (host times), if any
        self.held = 0.0
        self.wait_since: float | None = None
        self.wait_until: float | None = None
        self._now = 0.0  # the host time of the latest call (for ``info``)

    # -- queries -----------------------------------------------------------------------

    @property
    def moves(self) -> int:
        """Entries in the current game's log so far, in memory or not."""
        return self.log_base + len(self.log)

    def forget(self, count: int) -> None:
        """Drop the first ``count`` entries of the log from memory (kept elsewhere)."""
        count = min(count, len(self.log))
        del self.log[:count]
        self.log_base += count

    def _record(self, entry: dict[str, Any]) -> None:
        self.log.append(entry)
        if self.log_limit is not None and len(self.log) > self.log_limit:
            self.forget(len(self.log) - self.log_limit)

    def clock(self, now: float) -> float:
        """The table's clock (the game's time) at host time ``now``."""
        return (now if self.wait_since is None else self.wait_since) - self.held

    def waiting_for(self) -> list[int]:
        """The seats a restored game waits for: people not back yet (none if no wait)."""
        if self.wait_since is None:
            return []
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind != "bot"
            and s.member is not None
            and not s.member.connected
            and not s.standin
        ]

    def seats_of(self, member: Member) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.member is member]

    @property
    def free_seats(self) -> int:
        return self.settings.seats - len(self.seats) if self.phase != "playing" else 0

    def info(self) -> p.TableInfo:
        owner = None
        if self.owner is not None:
            owned = self.seats_of(self.owner)
            owner = owned[0] if owned else None
        return p.TableInfo(
            name=self.name,
            game=self.game,  # type: ignore[arg-type]
            phase=self.phase,  # type: ignore[arg-type]
            owner=owner,
            seats=[
                p.SeatInfo(
                    seat=i,
                    name=s.name,
                    kind=s.kind,  # type: ignore[arg-type]
                    ready=s.ready or s.kind != "human",
                    connected=s.kind == "bot" or (s.member is not None and s.member.connected),
                    standin=s.standin,
                )
                for i, s in enumerate(self.seats)
            ],
            settings=self.settings.info(),
            spectators=sum(1 for m in self.members if m.spectator),
            seed_hash=self.seed_hash,
            waiting=self.waiting_for(),
            wait_left=(
                None if self.wait_until is None else round(max(0.0, self.wait_until - self._now), 3)
            ),
        )

    def next_wakeup(self) -> float | None:
        """When ``tick`` next has something to do, or None."""
        times = []
        if self.wait_until is not None:
            times.append(self.wait_until)
        elif self.phase == "playing" and self.driver is not None:
            # the game's times are on the table's clock: the host's is ``held`` ahead
            deadline = self.driver.deadline()
            if deadline is not None and deadline != self._stuck_deadline:
                times.append(deadline + self.held)
            times.extend(s.plan[1] + self.held for s in self.seats if s.plan is not None)
        times.extend(
            s.away_since + self.settings.grace
            for s in self.seats
            if s.away_since is not None and not s.standin
        )
        return min(times) if times else None

    # -- sending -----------------------------------------------------------------------

    def _send_all(self, message: Any) -> None:
        for member in list(self.members):
            if member.connected:
                member.deliver(message)

    def _save(self, now: float) -> None:
        if self.on_change is not None:
            self.on_change(self, now)

    def _update(self) -> None:
        # saved before anyone sees it (a lobby's settings, seats and owner too)
        self._save(self._now)
        self._send_all(p.TableUpdate(table=self.info()))
        if self.on_update is not None:
            self.on_update(self)

    def _notice(self, event: str, name: str, seat: int | None = None) -> None:
        self._send_all(p.Notice(event=event, name=name, seat=seat))

    # views: the rules' dicts go out as net.views Structs (to_view, to_events)
    def _send_states(self, member: Member, events: list[Event], now: float) -> None:
        assert self.driver is not None
        at = self.clock(now)
        if member.spectator:
            view = to_view(self.driver.view(None))
            member.deliver(p.State(seat=None, view=view, events=events, at=at))
            return
        for i in self.seats_of(member):
            member.deliver(p.State(seat=i, view=to_view(self.driver.view(i)), events=events, at=at))

    def _broadcast(self, rules_events: list[dict[str, Any]], now: float) -> None:
        """Each seat its own view, spectators the public one, all with the events."""
        assert self.driver is not None
        at = self.clock(now)
        events = to_events(rules_events)  # once for everyone
        connected = [m for m in self.members if m.connected]
        spectators = [m for m in connected if m.spectator]
        # each seat its own view, in seat order (one pass over the seats, not one a member)
        present = set(connected)
        driver = self.driver
        for i, seat in enumerate(self.seats):
            member = seat.member
            if member is not None and member in present and not member.spectator:
                member.deliver(p.State(seat=i, view=to_view(driver.view(i)), events=events, at=at))
        if spectators:
            # one object for every spectator, delivered in a row: the shell encodes it once
            public = p.State(seat=None, view=to_view(self.driver.view(None)), events=events, at=at)
            for member in spectators:
                member.deliver(public)

    # -- joining -----------------------------------------------------------------------

    def _unique(self, name: str) -> str:
        # compared as people read them (net.text.visible_key): look-alikes get a suffix
        taken = {visible_key(s.name) for s in self.seats}
        taken |= {visible_key(m.name) for m in self.members}
        if visible_key(name) not in taken:
            return name
        for n in itertools.count(2):
            suffix = f" {n}"
            candidate = clean_text(name[: NAME_MAX - len(suffix)]) + suffix
            if visible_key(candidate) not in taken:
                return candidate
        raise AssertionError("unreachable")

    def join(self, member: Member, now: float) -> None:
        """Seat a new member (or add a spectator) and welcome it; raises Refusal."""
        self._now = now
        if not member.spectator:
            if self.phase == "playing":
                raise Refusal(
                    Code.TABLE_FULL,
                    f"The game at {self.name!r} has started; join as a spectator to watch.",
                )
            if len(self.seats) >= self.settings.seats:
                raise Refusal(
                    Code.TABLE_FULL,
                    f"All {self.settings.seats} seats at {self.name!r} are taken; "
                    "join as a spectator to watch.",
                )
        requested = member.name
        member.name = self._unique(member.name)
        member.table = self
        self.members.append(member)
        seat = None
        if not member.spectator:
            self.seats.append(Seat(name=member.name, kind="human", member=member))
            seat = len(self.seats) - 1
            if self.owner is None:
                self.owner = member
            self._save(now)  # the token is on disk before the welcome carries it
        member.deliver(self._welcome(member, resumed=False))
        if member.name != requested:
            member.deliver(p.Notice(event="renamed", name=member.name, seat=seat))
        self._notice("spectating" if member.spectator else "joined", member.name, seat)
        self.report(f"{self.name}: {member.name} {'watches' if seat is None else 'joined'}")
        self._update()
        if self.phase == "playing" and member.spectator:
            self._send_states(member, [], now)

    def _welcome(self, member: Member, resumed: bool) -> p.Welcome:
        seats = self.seats_of(member)
        return p.Welcome(
            protocol=p.PROTOCOL_VERSION,
            name=member.name,
            seat=seats[0] if seats else None,
            seats=seats,
            token=member.token,
            resumed=resumed,
            table=self.info(),
        )

    def resume(self, old: Member, secret: str, new: Member, now: float) -> Member:
        """Hand ``old``'s seats to a new connection that proved it holds the token."""
        if not hmac.compare_digest(old.secret.encode(), secret.encode()):
            raise Refusal(Code.BAD_TOKEN, "That resume token is not valid; join anew.")
        self._now = now
        if old.connected:
            # the old connection has not noticed it is gone; the newest one wins
            old.deliver(p.Bye(reason="replaced"))
            old.close("replaced")
        old.deliver, old.close, old.link, old.connected = new.deliver, new.close, new.link, True
        back = []
        for i in self.seats_of(old):
            seat = self.seats[i]
            if seat.standin or seat.away_since is not None:
                back.append(i)
            seat.away_since = None
            if seat.standin:
                seat.standin, seat.brain, seat.plan = False, None, None
        old.deliver(self._welcome(old, resumed=True))
        for i in back:
            self._notice("back", self.seats[i].name, i)
        self.report(f"{self.name}: {old.name} is back")
        if not self._wait_over(now):  # if everyone is back, the game goes on (and they see it)
            self._update()
            if self.phase == "playing":
                self._send_states(old, [], now)
        if self.phase == "over" and self.result is not None:
            old.deliver(self.result)  # it may have missed the end while away
        return old

    def disconnect(self, member: Member, now: float, link: object = None,
                   event: str = "away") -> None:
        """The member's connection (``link``, if given) is gone (dropped or closed);
        ``event`` is the notice the others get ("away", or "stepped_away")."""
        if member not in self.members or not member.connected:
            return
        if link is not None and member.link is not link:
            return  # an old connection, replaced by a resume
        self._now = now
        member.connected = False
        member.deliver, member.close = _noop, (lambda reason: None)
        seats = self.seats_of(member)
        if not seats:
            self._remove_member(member)
            self._update()
            return
        for i in seats:
            self.seats[i].away_since = now
            if self.seats[i].kind == "human":
                self.seats[i].ready = False
        self._notice(event, member.name, seats[0])
        self.report(f"{self.name}: {member.name} {'dropped' if event == 'away' else event}")
        self._update()

    def _remove_member(self, member: Member, now: float | None = None) -> None:
        self.members.remove(member)
        member.connected = False
        if self.phase == "playing":
            # the seats stay for the game, played by stand-ins from now on
            for i in self.seats_of(member):
                self._stand_in(i, now)
                self.seats[i].member = None
        else:
            self._drop_seats(lambda s: s.member is not member)
        if self.owner is member:
            humans = [s.member for s in self.seats if s.kind == "human" and s.member is not None]
            self.owner = humans[0] if humans else None
            if self.owner is not None:
                self._notice("owner", self.owner.name, self.seats_of(self.owner)[0])

    def _drop_seats(self, keep: Callable[[Seat], bool]) -> None:
        """Free the seats not kept (outside a game). The seats after them move down, so
        every connection whose seat numbers change gets a fresh ``welcome`` with its
        new ones, and ``first_player`` follows the person it named (or goes back to
        random if they left)."""
        before = {m: self.seats_of(m) for m in self.members if not m.spectator}
        first = self.settings.first_player
        chosen = self.seats[first] if first is not None and first < len(self.seats) else None
        self.seats = [s for s in self.seats if keep(s)]
        if chosen is not None:
            self.settings.first_player = self.seats.index(chosen) if chosen in self.seats else None
        self._save(self._now)  # the new seat numbers are on disk before anyone is told
        for member, seats in before.items():
            if member.connected and member in self.members and self.seats_of(member) != seats:
                member.deliver(self._welcome(member, resumed=False))

    def _stand_in(self, i: int, now: float | None = None) -> None:
        """A bot plays seat ``i`` from now on; with ``now`` it plans at once."""
        seat = self.seats[i]
        seat.standin = True
        seat.away_since = None
        assert self.seed is not None
        rng = random.Random(f"{self.seed}/standin/{i}/{self.moves}")
        seat.brain = make_brain(self.game, i, self.settings.difficulty, rng, self.settings.bot_pace)
        self._notice("standin", seat.name, i)
        self.report(f"{self.name}: a stand-in bot plays for {seat.name}")
        if now is not None and self.driver is not None and not self.driver.over:
            seat.plan = seat.brain.plan(self.driver.view(i), self.clock(now))

    # -- requests ----------------------------------------------------------------------

    def handle(self, member: Member, message: Any, now: float) -> None:
        """One message from a member; a refusal goes back as an ``error``."""
        self._now = now
        try:
            handler = self._HANDLERS.get(type(message))
            if handler is not None:
                handler(self, member, message, now)
            elif isinstance(message, p.GAME_ACTIONS):
                self._act(member, message, now)
            elif isinstance(message, p.Hello):
                raise Refusal(Code.HELLO_TWICE, "You are already at a table.")
            else:
                raise Refusal(Code.INTERNAL, f"unexpected {type(message).__name__}")
        except Refusal as refusal:
            member.deliver(
                p.Error(code=refusal.code, message=refusal.message, ref=p.message_type(message))
            )

    def _owner_in_lobby(self, member: Member) -> None:
        if member is not self.owner:
            owner = self.owner.name if self.owner else "nobody"
            raise Refusal(Code.NOT_OWNER, f"Only the table's owner ({owner}) can do that.")
        if self.phase == "playing":
            raise Refusal(Code.NOT_IN_LOBBY, "Not during a game; wait until it is over.")

    def _ready(self, member: Member, message: p.Ready, now: float) -> None:
        seats = self.seats_of(member)
        if not seats:
            raise Refusal(Code.NOT_SEATED, "Spectators have no seat to get ready at.")
        if self.phase == "playing":
            raise Refusal(Code.NOT_IN_LOBBY, "The game is already running.")
        for i in seats:
            self.seats[i].ready = message.ready
        self._update()
        if self._all_ready() and len(self.seats) == self.settings.seats:
            self._start(now)

    def _all_ready(self) -> bool:
        return all(
            s.kind != "human" or (s.ready and s.member is not None and s.member.connected)
            for s in self.seats
        )

    def _configure(self, member: Member, message: p.Configure, now: float) -> None:
        self._owner_in_lobby(member)
        changes: dict[str, Any] = {}
        low, high = PLAYER_RANGE[self.game]
        checks: dict[str, tuple[Callable[[Any], bool], str]] = {
            "seats": (
                lambda v: low <= v <= high and v >= len(self.seats),
                f"seats must be {max(low, len(self.seats))} to {high}",
            ),
            "difficulty": (lambda v: v in DIFFICULTIES, f"difficulty is one of {DIFFICULTIES}"),
            "first_player": (
                lambda v: v is None or v < self.settings.seats,
                "first_player is a seat number or null (random)",
            ),
            "grab_timeout": (lambda v: 1 <= v <= 120, "grab_timeout is 1 to 120 seconds"),
            "call_window": (lambda v: 1 <= v <= 60, "call_window is 1 to 60 seconds"),
            "grace": (lambda v: 0 <= v <= 600, "grace is 0 to 600 seconds"),
            "bot_pace": (lambda v: 0 <= v <= 10, "bot_pace is 0 to 10 seconds"),
            "hotseat": (lambda v: True, ""),
            "supply": (lambda v: 1 <= v <= 77, "supply is 1 to 77 nuggets"),
        }
        for key, (ok, rule) in checks.items():
            value = getattr(message, key)
            if value is msgspec.UNSET:
                continue
            if isinstance(value, float) and value != value:
                raise Refusal(Code.BAD_SETTING, f"{key} must be a number")
            if not ok(value):
                raise Refusal(Code.BAD_SETTING, f"{rule}, not {value!r}.")
            changes[key] = value
        for key, value in changes.items():
            setattr(self.settings, key, value)
        self._update()

    def _add_bot(self, member: Member, message: p.AddBot, now: float) -> None:
        self._owner_in_lobby(member)
        difficulty = message.difficulty or self.settings.difficulty
        if difficulty not in DIFFICULTIES:
            raise Refusal(Code.BAD_SETTING, f"Bot difficulty is one of {', '.join(DIFFICULTIES)}.")
        self.add_bot(difficulty)

    def add_bot(self, difficulty: str | None = None) -> int:
        """Seat a bot (host API, and the owner's ``add_bot``); returns the seat."""
        if len(self.seats) >= self.settings.seats:
            raise Refusal(Code.TABLE_FULL, "Every seat is taken: no room for a bot.")
        base = BOT_NAMES[len([s for s in self.seats if s.kind == "bot"]) % len(BOT_NAMES)]
        seat = Seat(
            name=self._unique(f"{base} (bot)"),
            kind="bot",
            difficulty=difficulty or self.settings.difficulty,
        )
        self.seats.append(seat)
        self._notice("bot", seat.name, len(self.seats) - 1)
        self._update()
        return len(self.seats) - 1

    def _remove_bot(self, member: Member, message: p.RemoveBot, now: float) -> None:
        self._owner_in_lobby(member)
        if message.seat >= len(self.seats) or self.seats[message.seat].kind != "bot":
            raise Refusal(Code.NO_SUCH_SEAT, f"Seat {message.seat} holds no bot.")
        gone = self.seats[message.seat]
        self._drop_seats(lambda s: s is not gone)
        self._update()

    def _add_local(self, member: Member, message: p.AddLocal, now: float) -> None:
        if not self.seats_of(member):
            raise Refusal(Code.NOT_SEATED, "Spectators cannot seat local players.")
        if not self.settings.hotseat:
            raise Refusal(Code.HOTSEAT_OFF, "This table does not allow hot-seat players.")
        if self.phase == "playing":
            raise Refusal(Code.NOT_IN_LOBBY, "Not during a game; wait until it is over.")
        if len(self.seats) >= self.settings.seats:
            raise Refusal(Code.TABLE_FULL, "Every seat is taken.")
        name = clean_text(message.name)
        problem = check_length(name, "name", NAME_MAX)
        if problem:
            raise Refusal(Code.BAD_NAME, problem)
        seat = Seat(name=self._unique(name), kind="local", member=member, ready=True)
        self.seats.append(seat)
        self._save(now)
        # the controller learns its new seat list from a fresh welcome
        member.deliver(self._welcome(member, resumed=False))
        self._notice("joined", seat.name, len(self.seats) - 1)
        self._update()

    def _start_request(self, member: Member, message: p.Start, now: float) -> None:
        self._owner_in_lobby(member)
        waiting = [
            s.name
            for s in self.seats
            if s.kind == "human"
            and s.member is not member
            and not (s.ready and s.member is not None and s.member.connected)
        ]
        if waiting:
            raise Refusal(Code.NOT_READY, f"Waiting for {', '.join(waiting)} to get ready.")
        self.start(now)

    def _chat(self, member: Member, message: p.Chat, now: float) -> None:
        text = clean_text(message.text)
        problem = check_length(text, "chat message", CHAT_MAX)
        if problem:
            raise Refusal(Code.BAD_TEXT, problem)
        seats = self.seats_of(member)
        self._send_all(
            p.ChatLine(
                name=member.name, seat=seats[0] if seats else None, text=text, at=self.clock(now)
            )
        )

    def _leave(self, member: Member, message: p.Leave, now: float) -> None:
        seats = self.seats_of(member)
        if message.keep_seat and seats:
            # stepping away: the seat stays theirs (the token takes it back), and in a
            # game a stand-in plays it from now, not after the grace period
            member.deliver(p.Bye(reason="left"))
            member.close("left")
            self.disconnect(member, now, event="stepped_away")
            if self.phase == "playing":
                for i in seats:
                    if not self.seats[i].standin:
                        self._stand_in(i, now)
                if not self._wait_over(now):
                    self._update()
            return
        self._remove_member(member, now)
        self._save(now)  # the seat is given up on disk before the goodbye
        member.deliver(p.Bye(reason="left"))
        member.close("left")
        if seats:
            self._notice("left", member.name, seats[0])
            self.report(f"{self.name}: {member.name} left")
        if not self._wait_over(now):
            self._update()

    def _ping(self, member: Member, message: p.Ping, now: float) -> None:
        member.deliver(p.Pong(id=message.id, at=self.clock(now)))

    _HANDLERS: dict[type, Callable[..., None]] = {
        p.Ready: _ready,
        p.Configure: _configure,
        p.AddBot: _add_bot,
        p.RemoveBot: _remove_bot,
        p.AddLocal: _add_local,
        p.Start: _start_request,
        p.Chat: _chat,
        p.Leave: _leave,
        p.Ping: _ping,
    }

    # -- the game ----------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Start the game now (host API: e.g. a table of bots); raises Refusal."""
        self._now = now
        if self.phase == "playing":
            raise Refusal(Code.NOT_IN_LOBBY, "The game is already running.")
        low, _ = PLAYER_RANGE[self.game]
        if len(self.seats) < low:
            raise Refusal(
                Code.TOO_FEW_PLAYERS,
                f"{GAME_TITLES[self.game]} needs at least {low} players; add a bot or wait.",
            )
        self._start(now)

    def _start(self, now: float) -> None:
        self.phase = "playing"
        self.games_played += 1
        self.held, self.wait_since, self.wait_until = 0.0, None, None
        self.started_at = now
        self.seed = self.settings.seed or secrets.token_hex(32)
        self.seed_hash = hashlib.sha256(self.seed.encode()).hexdigest()
        self.log = []
        self.log_base = 0
        self._stuck_deadline = None
        names = [s.name for s in self.seats]
        first = self.settings.first_player
        if first is not None and first >= len(names):
            first = None
        self.driver = make_driver(
            self.game,
            names,
            first,
            random.Random(self.seed),
            grab_timeout=self.settings.grab_timeout,
            call_window=self.settings.call_window,
            intermission=self.settings.intermission,
            supply=self.settings.supply,
        )
        for i, seat in enumerate(self.seats):
            seat.ready = False
            seat.plan = None
            seat.standin = False
            if seat.kind == "bot":
                rng = random.Random(f"{self.seed}/bot/{i}")
                seat.brain = make_brain(self.game, i, seat.difficulty, rng, self.settings.bot_pace)
            else:
                seat.brain = None
        self.report(f"{self.name}: {GAME_TITLES[self.game]} starts: {', '.join(names)}")
        self._send_all(p.Started(seed_hash=self.seed_hash, players=names, first=self.driver.first))
        self._update()
        for i, seat in enumerate(self.seats):
            if seat.away_since is not None:
                # dropped in the lobby and not back yet: play for them already
                self._stand_in(i)
        self._changed(self.driver.start(now), now)

    def _act(self, member: Member, action: Any, now: float) -> None:
        if self.phase != "playing":
            raise Refusal(Code.NOT_PLAYING, "No game is running at this table.")
        seats = self.seats_of(member)
        if not seats:
            raise Refusal(Code.NOT_SEATED, "Spectators cannot play.")
        if self.wait_since is not None:
            raise Refusal(Code.WAITING, f"{self.waiting_message()}: the game goes on once "
                          "they are back.")  # fmt: skip
        if action.seat is not None:
            if action.seat not in seats:
                who = self.seats[action.seat].name if action.seat < len(self.seats) else "nobody"
                raise Refusal(
                    Code.NOT_YOUR_SEAT,
                    f"Seat {action.seat} is {who}'s; you play seat {', '.join(map(str, seats))}.",
                )
            seat = action.seat
        elif len(seats) == 1:
            seat = seats[0]
        else:
            current = self.driver.view(None).get("current") if self.driver else None
            if current not in seats:
                raise Refusal(
                    Code.NOT_YOUR_SEAT, "You control several seats: say which one with 'seat'."
                )
            seat = current
        self._submit(seat, action, now, "player")

    def _submit(self, seat: int, action: Any, now: float, by: str) -> None:
        """The one path for every action at a seat: players', bots' and stand-ins'."""
        assert self.driver is not None
        at = self.clock(now)
        try:
            events = self.driver.act(seat, action, at)
        except WrongGame as exc:
            raise Refusal(Code.WRONG_GAME, str(exc)) from None
        except ILLEGAL as exc:  # exactly the rules' refusals; anything else is a bug
            raise Refusal(Code.ILLEGAL_ACTION, str(exc)) from None
        entry = msgspec.to_builtins(action)
        entry["seat"] = seat
        self._record({"at": at, "by": by, "action": entry, "events": events})
        self._changed(events, now)

    def _changed(self, events: list[dict[str, Any]], now: float) -> None:
        assert self.driver is not None
        self._stuck_deadline = None
        self._save(now)  # saved before anyone sees it
        self._broadcast(events, now)
        if self.driver.over:
            self._finish(now)
            return
        at = self.clock(now)
        for i, seat in enumerate(self.seats):
            if seat.brain is not None:
                seat.plan = seat.brain.plan(self.driver.view(i), at)

    def _finish(self, now: float) -> None:
        assert self.driver is not None and self.seed is not None and self.seed_hash
        winners, scores = self.driver.result()
        self.phase = "over"
        self.result = p.Over(
            winners=winners, scores=scores, seed=self.seed, seed_hash=self.seed_hash
        )
        self._send_all(self.result)
        names = ", ".join(self.seats[w].name for w in winners)
        self.report(f"{self.name}: game over, won by {names}; scores {scores}")
        for seat in self.seats:
            seat.plan = None
            seat.brain = None
            seat.standin = False
        # seats whose players left for good are freed; those away get a fresh grace
        self._drop_seats(lambda s: s.kind == "bot" or s.member is not None)
        for seat in self.seats:
            if seat.member is not None and not seat.member.connected:
                seat.away_since = now
        self._update()

    def tick(self, now: float) -> None:
        """Do everything due at ``now``: time-outs, bot actions, grace periods."""
        self._now = now
        for _ in range(10_000):  # a bound against a bug looping forever
            due = self._earliest_due(now)
            if due is None:
                return
            kind, i = due
            if kind == "wait":
                assert self.wait_until is not None
                self._end_wait(self.wait_until)
            elif kind == "deadline":
                assert self.driver is not None
                deadline = self.driver.deadline()
                # due in host time; on the table's clock it may read a rounding error
                # short of the deadline (``held``), which must not skip the time-out
                at = self.clock(now)
                if deadline is not None:
                    at = max(at, deadline)
                events = self.driver.tick(at)
                if events:
                    self._record({"at": at, "by": "host", "action": None, "events": events})
                    self._changed(events, now)
                else:
                    self._stuck_deadline = deadline
            elif kind == "plan":
                seat = self.seats[i]
                assert seat.plan is not None
                action, _ = seat.plan
                seat.plan = None
                try:
                    self._submit(i, action, now, "standin" if seat.standin else "bot")
                except Refusal:
                    pass  # no longer legal: the bot plans again at the next change
            elif kind == "away":
                self._grace_over(i, now)

    def _earliest_due(self, now: float) -> tuple[str, int] | None:
        # in host time; the wait's end first (the grace of those not back ends with it)
        best: tuple[float, str, int] | None = None
        if self.wait_until is not None:
            if self.wait_until <= now:
                best = (self.wait_until, "wait", -1)
        elif self.phase == "playing" and self.driver is not None:
            held = self.held
            deadline = self.driver.deadline()
            if (
                deadline is not None
                and deadline + held <= now
                and deadline != self._stuck_deadline
            ):
                best = (deadline + held, "deadline", -1)
            for i, seat in enumerate(self.seats):
                if seat.plan is not None and seat.plan[1] + held <= now:
                    if best is None or seat.plan[1] + held < best[0]:
                        best = (seat.plan[1] + held, "plan", i)
        for i, seat in enumerate(self.seats):
            if seat.away_since is not None and not seat.standin:
                t = seat.away_since + self.settings.grace
                if t <= now and (best is None or t < best[0]):
                    best = (t, "away", i)
        return None if best is None else (best[1], best[2])

    def _grace_over(self, i: int, now: float) -> None:
        seat = self.seats[i]
        member = seat.member
        if self.phase == "playing":
            self._stand_in(i, now)
            self._update()
        elif member is not None:
            # away too long outside a game: the seat is freed
            self._remove_member(member)
            self._notice("left", member.name, i)
            self.report(f"{self.name}: {member.name} did not come back")
            self._update()
        else:
            seat.away_since = None

    # -- waiting for the players of a restored game ---------------------------------

    def hold(self, now: float) -> None:
        """Wait for the seated people (a game restored after a crash): the table's clock
        stands still until they are all back or the grace period ends, whichever comes
        first; then the game goes on (stand-ins for those not back, as always)."""
        self._now = now
        if self.phase != "playing" or self.settings.grace <= 0:
            return
        self.wait_since, self.wait_until = now, now + self.settings.grace
        if not self.waiting_for():
            self._end_wait(now)
            return
        self.report(f"{self.name}: {self.waiting_message()}")

    def waiting_message(self) -> str:
        """"Waiting for Ann, Bob (12 s)": for a person, and the ``waiting`` refusal."""
        names = ", ".join(self.seats[i].name for i in self.waiting_for())
        left = 0.0 if self.wait_until is None else max(0.0, self.wait_until - self._now)
        return f"Waiting for {names} ({left:.0f} s)"

    def _wait_over(self, now: float) -> bool:
        """End the wait if nobody is awaited any more (they are back, or stand-ins play
        their seats); True if it ended now (everyone was sent the update)."""
        if self.wait_since is None or self.waiting_for():
            return False
        self._end_wait(now)
        return True

    def _end_wait(self, now: float) -> None:
        assert self.wait_since is not None
        self.held += now - self.wait_since
        self.wait_since = self.wait_until = None
        self.report(f"{self.name}: the game goes on")
        self._update()
        if self.phase == "playing" and self.driver is not None:
            # everyone's clock offset again (``at``): the game's clock stood still
            self._broadcast([], now)

    def close(self, reason: str) -> None:
        """Tell every member goodbye (the host is shutting down)."""
        for member in list(self.members):
            if member.connected:
                member.deliver(p.Bye(reason=reason))
                member.close(reason)


class Tables:
    """The host's tables and the routing of ``hello``: sans-I/O, like ``Table``."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        # weak: a member that left every table is forgotten, and its token goes stale
        self._by_id: weakref.WeakValueDictionary[int, Member] = weakref.WeakValueDictionary()

    def add(self, table: Table) -> Table:
        if table.name.casefold() in (name.casefold() for name in self.tables):
            raise ValueError(f"there is already a table called {table.name!r}")
        self.tables[table.name] = table
        return table

    def adopt(self, table: Table) -> Table:
        """Add a restored table (``net.persist``) whose members hold resume tokens: the
        tokens work again, and new members get ids clear of theirs."""
        global _member_ids
        self.add(table)
        highest = 0
        for member in table.members:
            self._by_id[member.id] = member
            highest = max(highest, member.id)
        _member_ids = itertools.count(max(next(_member_ids), highest + 1))
        return table

    def find(self, name: str | None) -> Table:
        if not self.tables:
            raise Refusal(Code.NO_SUCH_TABLE, "This host has no tables.")
        if name is None:
            return next(iter(self.tables.values()))
        for table in self.tables.values():
            if table.name.casefold() == clean_text(name).casefold():
                return table
        raise Refusal(
            Code.NO_SUCH_TABLE,
            f"No table called {clean_text(name)!r}; tables here: {', '.join(self.tables)}.",
        )

    def hello(
        self,
        hello: p.Hello,
        deliver: Callable[[Any], None],
        close: Callable[[str], None],
        now: float,
        link: object = None,
    ) -> Member:
        """Admit a connection that said hello: join a table or resume a seat.

        Returns the member; raises Refusal (the connection may try again)."""
        if hello.protocol != p.PROTOCOL_VERSION:
            raise Refusal(
                Code.BAD_VERSION,
                f"This host speaks protocol {p.PROTOCOL_VERSION}, not {hello.protocol}; "
                "update Motherlode on one side.",
            )
        if hello.token is not None:
            old, secret = self._member_for(hello.token)
            assert old.table is not None
            new = Member(name=old.name, deliver=deliver, close=close, link=link)
            return old.table.resume(old, secret, new, now)
        name = clean_text(hello.name)
        problem = check_length(name, "name", NAME_MAX)
        if problem:
            raise Refusal(Code.BAD_NAME, problem)
        table = self.find(hello.table)
        member = Member(
            name=name, deliver=deliver, close=close, spectator=hello.spectate, link=link
        )
        table.join(member, now)
        self._by_id[member.id] = member
        return member

    def _member_for(self, token: str) -> tuple[Member, str]:
        ident, _, secret = token.partition(".")
        member = self._by_id.get(int(ident)) if ident.isdigit() and len(ident) < 19 else None
        if member is None or member.table is None or member not in member.table.members:
            # compare anyway, so a miss costs the same time as a wrong secret
            hmac.compare_digest(b"x" * 32, secret.encode())
            raise Refusal(
                Code.BAD_TOKEN, "That resume token is stale or unknown; join the table anew."
            )
        return member, secret
