"""A table's state and its people: seats, members, joining and leaving, the game's
record (driver, seed, log), the views and updates it sends. The requests
(``net.table.lobby``) and the game loop (``net.table.play``) are objects the table
holds (:class:`net.table.Table`); they call the table's ``update``, ``notice``,
``save``... here."""

from __future__ import annotations

import hmac
import itertools
from collections.abc import Callable
from typing import Any

from msgspec import UNSET, UnsetType

from net import protocol as p
from net.catalogue import spec
from net.games import Driver
from net.protocol import Code
from net.table.people import Member, Refusal, Seat, noop
from net.table.phase import Life, Phase
from net.table.settings import Settings
from net.text import NAME_MAX, TABLE_NAME_MAX, check_length, clean_text, name_keys, same_name
from net.views import Event, to_events

# the most often spectators' comings and goings reach the others, in seconds
SPECTATORS_EVERY = 1.0
#: seconds an owner may be away (dropped, or stepped away) before the table passes to
#: the person seated longest who is here; the seat itself waits the whole grace
OWNER_AWAY = 30.0

class TableCore(Life):
    """The state of a table and its members (see :class:`net.table.Table`)."""

    #: the table's requests and its game loop (``net.table.lobby.Lobby``,
    #: ``net.table.play.Play``), which :class:`net.table.Table` makes
    lobby: Any
    play: Any


    def __init__(
        self,
        name: str,
        game: str,
        settings: Settings | None = None,
        *,
        report: Callable[[str], None] | None = None,
    ) -> None:
        game_spec = spec(game)  # raises UnknownGame, a ValueError
        clean = clean_text(name)
        problem = check_length(clean, "table name", TABLE_NAME_MAX)
        if problem:
            raise ValueError(problem)
        self.name = clean
        self.game = game
        self.spec = game_spec
        self.settings = settings or Settings.default(game)
        # the game's own settings, each one not given at its default
        self.settings.game = self.settings.complete(game)
        problem = game_spec.check_seats(self.settings.seats)
        if problem:
            raise ValueError(problem)
        self.report = report or (lambda text: None)
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
        # views: the host's saves (net.saves)
        self.on_change: Callable[[Any, float], None] | None = None
        # called with the table after every change of its public info (every ``table``
        # update sent): the LAN announcement's free seats, say
        self.on_update: Callable[[Any], None] | None = None
        # the table's clock (see the module docstring): host seconds it stood still in
        # this game, and the wait now under way (host times), if any
        self.held = 0.0
        self.wait_since: float | None = None
        self.wait_until: float | None = None
        self.called_at = 0.0  # the host time of the latest call (for ``info``)
        # the host sets these from its budgets (net.budgets.Budgets)
        from net.budgets import Budgets

        self.chat: Budgets = Budgets()
        self.max_spectators = self.chat.spectators_per_table
        # spectators come and go in floods: what they change reaches the table at most
        # once a ``SPECTATORS_EVERY`` (host time of the last; when the next is due; the
        # first arrival since, named in its notice, the rest counted in the update)
        self._spectators_told = float("-inf")
        self.spectators_due: float | None = None
        self._spectator_arrived: str | None = None

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

    def record(self, entry: dict[str, Any]) -> None:
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
        return self.settings.seats - len(self.seats) if self.phase != Phase.PLAYING else 0

    def info(self) -> p.TableInfo:
        owner = None
        if self.owner is not None:
            owned = self.seats_of(self.owner)
            owner = owned[0] if owned else None
        return p.TableInfo(
            name=self.name,
            game=self.game,  # type: ignore[arg-type]
            phase=self.phase.value,  # type: ignore[arg-type]
            owner=owner,
            seats=[
                p.SeatInfo(
                    seat=i,
                    name=s.name,
                    kind=s.kind,  # type: ignore[arg-type]
                    ready=s.ready or s.kind != "human",
                    connected=s.kind == "bot" or (s.member is not None and s.member.connected),
                    standin=s.standin,
                    guest=s.kind == "human" and s.member is not None and not s.member.verified,
                )
                for i, s in enumerate(self.seats)
            ],
            settings=self.settings.info(),
            spectators=sum(1 for m in self.members if m.spectator),
            seed_hash=self.seed_hash,
            waiting=self.waiting_for(),
            wait_left=None if self.wait_until is None
            else round(max(0.0, self.wait_until - self.called_at), 3),
        )

    def next_wakeup(self) -> float | None:
        """When ``tick`` next has something to do, or None."""
        times = []
        if self.wait_until is not None:
            times.append(self.wait_until)
        elif self.phase == Phase.PLAYING and self.driver is not None:
            # the game's times are on the table's clock: the host's is ``held`` ahead
            deadline = self.driver.deadline()
            if deadline is not None and deadline != self.play.stuck_deadline:
                times.append(deadline + self.held)
            times.extend(s.plan[1] + self.held for s in self.seats if s.plan is not None)
            if self.play.held_races:  # judged earliest acted first: the head's time
                times.append(self.play.held_races[0].due + self.held)
        if self.spectators_due is not None:
            times.append(self.spectators_due)
        times.extend(
            s.away_since + self.settings.grace
            for s in self.seats
            if s.away_since is not None and not s.standin
        )
        handover = self.owner_handover()
        if handover is not None:
            times.append(handover)
        return min(times) if times else None

    def owner_handover(self) -> float | None:
        """When the owner, away, loses the table to someone here (:data:`OWNER_AWAY`),
        or None: the owner is here, or nobody else is."""
        owner = self.owner
        if owner is None or owner.connected or self.heir() is None:
            return None
        away = [self.seats[i].away_since for i in self.seats_of(owner)]
        since = min((t for t in away if t is not None), default=None)
        return None if since is None else since + OWNER_AWAY

    def heir(self) -> Member | None:
        """The person seated longest who is connected, besides the owner."""
        here = [s.member for s in self.seats if s.kind == "human" and s.member is not None
                and s.member.connected and s.member is not self.owner]  # fmt: skip
        return min(here, key=lambda m: m.id, default=None)

    def hand_over(self, now: float) -> None:
        """The owner was away too long: the table is the heir's, and everyone is told."""
        heir, old = self.heir(), self.owner
        if heir is None or old is None:
            return
        self.called_at = now
        self.owner = heir
        self.notice("owner", heir.name, self.seats_of(heir)[0])
        self.report(f"{self.name}: {old.name} is away; {heir.name} owns the table now")
        self.update()

    # -- sending -----------------------------------------------------------------------

    def send_all(self, message: Any) -> None:
        for member in list(self.members):
            if member.connected:
                member.deliver(message)

    def save(self, now: float) -> None:
        if self.on_change is not None:
            self.on_change(self, now)

    def update(self) -> None:
        # saved before anyone sees it (a lobby's settings, seats and owner too)
        self.save(self.called_at)
        self.send_all(p.TableUpdate(table=self.info()))
        if self.on_update is not None:
            self.on_update(self)

    def notice(self, event: str, name: str, seat: int | None = None,
               detail: str | UnsetType = UNSET) -> None:  # fmt: skip
        self.send_all(p.Notice(event=event, name=name, seat=seat, detail=detail))

    def unready(self) -> bool:
        """The terms changed (the settings, or who sits where): every person's "ready"
        was for other terms, so it is cleared; the game starts on fresh readiness.
        True when someone's "ready" was cleared (they are to be told)."""
        cleared = False
        for seat in self.seats:
            if seat.kind == "human":
                cleared = cleared or seat.ready
                seat.ready = False
        return cleared

    # views: the driver's Structs (``Driver.state_view``), the events as net.views
    # Structs (to_events)
    def send_states(self, member: Member, events: list[Event], now: float) -> None:
        assert self.driver is not None
        at = self.clock(now)
        if member.spectator:
            view = self.driver.state_view(None)
            member.deliver(p.State(seat=None, view=view, events=events, at=at))
            return
        for i in self.seats_of(member):
            view = self.driver.state_view(i)
            member.deliver(p.State(seat=i, view=view, events=events, at=at))

    def broadcast(self, rules_events: list[dict[str, Any]], now: float) -> None:
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
                view = driver.state_view(i)
                member.deliver(p.State(seat=i, view=view, events=events, at=at))
        if spectators:
            # one object for every spectator, delivered in a row: the shell encodes it once
            public = p.State(seat=None, view=driver.state_view(None), events=events, at=at)
            for member in spectators:
                member.deliver(public)

    # -- joining -----------------------------------------------------------------------

    def unique_name(self, name: str) -> str:
        # compared as people read them (net.text.name_keys): look-alikes get a suffix
        taken = {key for s in self.seats for key in name_keys(s.name)}
        taken |= {key for m in self.members for key in name_keys(m.name)}
        if taken.isdisjoint(name_keys(name)):
            return name
        for n in itertools.count(2):
            suffix = f" {n}"
            candidate = clean_text(name[: NAME_MAX - len(suffix)]) + suffix
            if taken.isdisjoint(name_keys(candidate)):
                return candidate
        raise AssertionError("unreachable")

    def _started_refusal(self, name: str) -> str:
        """Why a newcomer cannot sit at a game in play; a newcomer with the name of a
        person's seat (back without that seat's token: a new app, an SSH login without
        a key) is told the seat is kept for whoever holds the token, or, if its person
        left the game (an SSH session that ended leaves it), that a bot plays it to the
        end."""
        for seat in self.seats:
            if seat.kind != "human" or not same_name(seat.name, name):
                continue
            if seat.member is None:  # its person left: a stand-in plays it to the end
                return (f"The game at {self.name!r} has started, and {seat.name!r} left "
                        "it: a bot plays that seat to the end of this game. Join as a "
                        "spectator to watch.")  # fmt: skip
            return (f"The game at {self.name!r} has started, and the seat of {name!r} is "
                    "kept for the app that holds its seat token (an SSH login without a "
                    "key cannot take it back). Join as a spectator to watch.")  # fmt: skip
        return f"The game at {self.name!r} has started; join as a spectator to watch."

    def join(self, member: Member, now: float) -> None:
        """Seat a new member (or add a spectator) and welcome it; raises Refusal."""
        self.called_at = now
        if not member.spectator:
            if self.phase == Phase.PLAYING:
                raise Refusal(Code.TABLE_FULL, self._started_refusal(member.name))
            if len(self.seats) >= self.settings.seats:
                raise Refusal(
                    Code.TABLE_FULL,
                    f"All {self.settings.seats} seats at {self.name!r} are taken; "
                    "join as a spectator to watch.",
                )
        elif sum(1 for m in self.members if m.spectator) >= self.max_spectators:
            raise Refusal(
                Code.TABLE_FULL,
                f"{self.name!r} has {self.max_spectators} spectators already, the most it "
                "takes; try later.",
            )
        requested = member.name
        member.name = self.unique_name(member.name)
        member.table = self
        self.members.append(member)
        seat = None
        if not member.spectator:
            self.unready()  # a new player at the table: new terms for everyone
            self.seats.append(Seat(name=member.name, kind="human", member=member))
            seat = len(self.seats) - 1
            if self.owner is None:
                self.owner = member
            self.save(now)  # the token is on disk before the welcome carries it
        member.deliver(self.welcome(member, resumed=False))
        if member.name != requested:
            member.deliver(p.Notice(event="renamed", name=member.name, seat=seat))
        if member.spectator:
            self.spectators_changed(now, member.name)
            if self.phase == Phase.PLAYING:
                self.send_states(member, [], now)
            return
        self.notice("joined", member.name, seat)
        self.report(f"{self.name}: {member.name} joined")
        self.update()

    def spectators_changed(self, now: float, arrived: str | None = None) -> None:
        """A spectator came or went: the others are told now, or with the next telling
        due (``tick``), so a flood of spectators costs each member one notice and one
        ``table`` update a ``SPECTATORS_EVERY``, not one each."""
        if arrived is not None and self._spectator_arrived is None:
            self._spectator_arrived = arrived
        if self.spectators_due is None:
            self.spectators_due = max(now, self._spectators_told + SPECTATORS_EVERY)
        if self.spectators_due <= now:
            self.tell_spectators(now)

    def tell_spectators(self, now: float) -> None:
        """Send what spectators changed since the last telling (``_spectators_changed``)."""
        self.called_at = now
        self.spectators_due = None
        self._spectators_told = now
        arrived, self._spectator_arrived = self._spectator_arrived, None
        watching = sum(1 for m in self.members if m.spectator)
        if arrived is not None and any(m.name == arrived for m in self.members):
            self.notice("spectating", arrived)  # any others: the update's count
            self.report(f"{self.name}: {arrived} watches ({watching} watching)")
        self.update()

    def welcome(self, member: Member, resumed: bool) -> p.Welcome:
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
        self.called_at = now
        if old.connected:
            # the old connection has not noticed it is gone; the newest one wins
            old.deliver(p.Bye(reason="replaced"))
            old.close("replaced")
        old.deliver, old.close, old.link, old.connected = new.deliver, new.close, new.link, True
        old.verified = old.verified or new.verified  # a key proved once holds for the seat
        back = []
        for i in self.seats_of(old):
            seat = self.seats[i]
            if seat.standin or seat.away_since is not None:
                back.append(i)
            seat.away_since = None
            if seat.standin:
                seat.standin, seat.brain, seat.plan = False, None, None
        old.deliver(self.welcome(old, resumed=True))
        self.play.reseated(now)  # a person again where a stand-in played
        for i in back:
            self.notice("back", self.seats[i].name, i)
        self.report(f"{self.name}: {old.name} is back")
        if not self.play.wait_over(now):  # if everyone is back, the game goes on (and they see it)
            self.update()
            if self.phase == Phase.PLAYING:
                self.send_states(old, [], now)
        if self.phase == Phase.OVER and self.result is not None:
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
        self.called_at = now
        member.connected = False
        member.deliver, member.close = noop, (lambda reason: None)
        seats = self.seats_of(member)
        if not seats:
            self.remove_member(member)
            if member.spectator:
                self.spectators_changed(now)
            else:
                self.update()
            return
        for i in seats:
            self.seats[i].away_since = now
            if self.seats[i].kind == "human":
                self.seats[i].ready = False
        self.notice(event, member.name, seats[0])
        what = "dropped" if event == "away" else "stepped away, keeping the seat"
        self.report(f"{self.name}: {member.name} {what}")
        self.update()

    def remove_member(self, member: Member, now: float | None = None) -> None:
        self.members.remove(member)
        member.connected = False
        if self.phase == Phase.PLAYING:
            # the seats stay for the game, played by stand-ins from now on
            for i in self.seats_of(member):
                self.play.stand_in(i, now)
                self.seats[i].member = None
        else:
            self.drop_seats(lambda s: s.member is not member)
        if self.owner is member:
            humans = [s.member for s in self.seats if s.kind == "human" and s.member is not None]
            self.owner = humans[0] if humans else None
            if self.owner is not None:
                self.notice("owner", self.owner.name, self.seats_of(self.owner)[0])

    def drop_seats(self, keep: Callable[[Seat], bool]) -> None:
        """Free the seats not kept (outside a game). The seats after them move down, so
        every connection whose seat numbers change gets a fresh ``welcome`` with its
        new ones, and ``first_player`` follows the person it named (or goes back to
        random if they left)."""
        before = {m: self.seats_of(m) for m in self.members if not m.spectator}
        first = self.settings.first_player
        chosen = self.seats[first] if first is not None and first < len(self.seats) else None
        kept = [s for s in self.seats if keep(s)]
        if len(kept) != len(self.seats):
            self.unready()  # fewer at the table: new terms for everyone
        self.seats = kept
        if chosen is not None:
            self.settings.first_player = self.seats.index(chosen) if chosen in self.seats else None
        self.save(self.called_at)  # the new seat numbers are on disk before anyone is told
        for member, seats in before.items():
            if member.connected and member in self.members and self.seats_of(member) != seats:
                member.deliver(self.welcome(member, resumed=False))
