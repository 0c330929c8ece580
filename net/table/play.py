"""A table's game loop: the deal, actions from every seat (people, bots and
stand-ins alike), time-outs, grace periods, the end of a game, and the wait of a
restored game for its people.

Lag-fair races. A game's race moves (those its declarations mark ``race``,
``net.moves``) are judged by when the person acted, not when the action arrived: its time is
the arrival minus the sender's one-way delay (``Member.lag``, measured by the shell),
at most ``Settings.lag_cap``. An earlier action can still be on its way, so a race
action is held until ``hold`` (the largest correction in play) after its time, then
judged with every other held one in the order of their times. Everything else (the
game's other moves, time-outs) is judged as it arrives; a time-out due while race actions are
held judges them first (they arrived before it, F9). With a cap of 0, or nobody with
a delay, nothing is held and a race is in arrival order, as before.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import secrets
from dataclasses import dataclass
from typing import Any

import msgspec

from net import protocol as p
from net.games import BadArgs, Refused, WrongGame, make_brain, make_driver
from net.protocol import Code
from net.table import guided
from net.table.core import TableCore
from net.table.people import Member, Refusal
from net.table.phase import Phase


@dataclass(eq=False)
class HeldRace:
    """A race action waiting to be judged (table times: the game's clock)."""

    seat: int
    action: Any
    by: str
    member: Member | None
    arrived: float
    acted: float  # arrived - lag
    lag: float
    due: float  # judged then at the latest: acted + the hold when it arrived
    n: int  # arrival order, for ties


_arrivals = itertools.count()


class Play:
    """The game loop of a table: an object the table holds (:class:`net.table.Table`),
    with the loop's own state: the race actions held until judged, the latest table
    time the game was given, and a deadline found stuck."""

    def __init__(self, table: TableCore) -> None:
        self.table = table
        # lag-fair races: race actions held until no earlier one can still arrive, and
        # the latest table time the game was given
        self.held_races: list[HeldRace] = []
        self._judged = float("-inf")
        self.stuck_deadline: float | None = None
        #: the pace the game in play was dealt at (a guided one's changes, ``guided``)
        self.dealt_pace: str | None = None

    # -- lag-fair races ----------------------------------------------------------------

    def correction(self, member: Member | None) -> float:
        """How much earlier than its arrival a race action of ``member`` counts."""
        cap = self.table.settings.lag_cap
        if member is None or cap <= 0:
            return 0.0
        return max(0.0, min(member.lag, cap))

    def race_hold(self) -> float:
        """The largest correction in play: of the people connected at a seat."""
        return max(
            (self.correction(s.member) for s in self.table.seats
             if s.member is not None and s.member.connected and not s.standin),
            default=0.0,
        )  # fmt: skip

    def _hold_race(self, seat: int, action: Any, by: str, member: Member | None,
                   at: float, hold: float) -> None:  # fmt: skip
        assert self.table.driver is not None
        lag = self.correction(member)
        for held in self.held_races:
            if held.seat == seat and p.refers(held.action) == p.refers(action):
                raise Refusal(Code.ILLEGAL_ACTION, f"your {p.refers(action)} is on "
                              "its way already")  # fmt: skip
        # refuse now what the rules refuse now (a grab after the race, a second one);
        # what only the held actions before it decide is told when judged
        try:
            self.table.driver.check(seat, action, max(at, self._judged), at - lag, lag)
        except WrongGame as exc:
            raise Refusal(Code.WRONG_GAME, str(exc)) from None
        except BadArgs as exc:
            raise Refusal(Code.BAD_FIELD, str(exc)) from None
        except Refused as exc:
            raise Refusal(Code.ILLEGAL_ACTION, str(exc)) from None
        held = HeldRace(seat, action, by, member, at, at - lag, lag,
                        max(at, at - lag + hold), next(_arrivals))  # fmt: skip
        self.held_races.append(held)
        self.held_races.sort(key=lambda h: (h.acted, h.n))

    def _judge_held(self, at: float, now: float, everything: bool = False) -> None:
        """Judge the held race actions due at table time ``at`` (all, if
        ``everything``), earliest acted first."""
        table = self.table
        while self.held_races and table.driver is not None and not table.driver.over:
            head = self.held_races[0]
            if not everything and head.due > at:
                return
            self.held_races.pop(0)
            judged = max(head.arrived, self._judged)
            try:
                events = table.driver.act(head.seat, head.action, judged, head.acted, head.lag)
            except (WrongGame, BadArgs, Refused) as exc:
                member = head.member
                if member is not None and member.connected and head.by == "player":
                    member.deliver(p.Error(code=Code.ILLEGAL_ACTION, message=str(exc),
                                           ref=p.refers(head.action)))  # fmt: skip
                continue
            self._judged = judged
            entry = msgspec.to_builtins(head.action)
            entry["seat"] = head.seat
            table.record({"at": judged, "by": head.by, "action": entry, "events": events,
                          "acted": head.acted, "lag": head.lag})  # fmt: skip
            self.changed(events, now)
        if table.driver is None or table.driver.over:
            self.held_races.clear()

    # -- the game ----------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Start the game now (host API: e.g. a table of bots); raises Refusal."""
        table = self.table
        table.called_at = now
        if table.phase == Phase.PLAYING:
            raise Refusal(Code.NOT_IN_LOBBY, "The game is already running.")
        low = table.spec.low
        if len(table.seats) < low:
            raise Refusal(
                Code.TOO_FEW_PLAYERS,
                f"{table.spec.title} needs at least {low} players; add a bot or wait.",
            )
        self.begin(now)

    def begin(self, now: float) -> None:
        table = self.table
        table.transition("start")
        table.games_played += 1
        table.held, table.wait_since, table.wait_until = 0.0, None, None
        table.started_at = now
        table.seed = table.settings.seed or secrets.token_hex(32)
        table.seed_hash = hashlib.sha256(table.seed.encode()).hexdigest()
        table.log = []
        table.log_base = 0
        self.dealt_pace = table.settings.pace
        self.stuck_deadline = None
        self.held_races = []
        self._judged = float("-inf")
        names = [s.name for s in table.seats]
        first = table.settings.first_player
        if first is not None and first >= len(names):
            first = None
        table.driver = make_driver(
            table.game,
            names,
            first,
            random.Random(table.seed),
            table.settings.own(table.game),
        )
        for i, seat in enumerate(table.seats):
            seat.ready = False
            seat.plan = None
            seat.standin = False
            if seat.kind == "bot":
                rng = random.Random(f"{table.seed}/bot/{i}")
                pace = table.settings.bot_pace
                seat.brain = make_brain(table.game, i, seat.difficulty, rng, pace,
                                        table.settings.slow)
            else:
                seat.brain = None
        table.report(f"{table.name}: {table.spec.title} starts: {', '.join(names)}")
        first = table.driver.first
        table.send_all(p.Started(seed_hash=table.seed_hash, players=names, first=first))
        table.update()
        for i, seat in enumerate(table.seats):
            if seat.away_since is not None:
                # dropped in the lobby and not back yet: play for them already
                self.stand_in(i)
        self.reseated()
        self.changed(table.driver.start(now), now)

    def act(self, member: Member, action: Any, now: float) -> None:
        """A member's move (``net.table.Table.handle`` hands it here); raises Refusal."""
        table = self.table
        if table.phase != Phase.PLAYING:
            raise Refusal(Code.NOT_PLAYING, "No game is running at this table.")
        seats = table.seats_of(member)
        if not seats:
            raise Refusal(Code.NOT_SEATED, "Spectators cannot play.")
        if table.wait_since is not None:
            raise Refusal(Code.WAITING, f"{self.waiting_message()}: the game goes on once "
                          "they are back.")  # fmt: skip
        if action.seat is not None:
            if action.seat not in seats:
                who = table.seats[action.seat].name if action.seat < len(table.seats) else "nobody"
                raise Refusal(
                    Code.NOT_YOUR_SEAT,
                    f"Seat {action.seat} is {who}'s; you play seat {', '.join(map(str, seats))}.",
                )
            seat = action.seat
        elif len(seats) == 1:
            seat = seats[0]
        else:
            current = table.driver.view(None).get("current") if table.driver else None
            if current not in seats:
                raise Refusal(
                    Code.NOT_YOUR_SEAT, "You control several seats: say which one with 'seat'."
                )
            seat = current
        self.submit(seat, action, now, "player", member)

    def submit(self, seat: int, action: Any, now: float, by: str,
                member: Member | None = None) -> None:  # fmt: skip
        """The one path for every action at a seat: players', bots' and stand-ins'."""
        table = self.table
        assert table.driver is not None
        at = table.clock(now)
        if self.held_races:
            self._judge_held(at, now)
            deadline = table.driver.deadline()
            if deadline is not None and at >= deadline:
                self._judge_held(at, now, everything=True)  # they arrived before it
            if table.phase != Phase.PLAYING or table.driver is None:
                raise Refusal(Code.NOT_PLAYING, "No game is running at this table.")
        if table.driver.races(action):
            hold = self.race_hold()
            if hold > 0 or self.held_races:
                self._hold_race(seat, action, by, member, at, hold)
                self._judge_held(at, now)  # at once if nothing earlier can come
                return
        for held in self.held_races:
            if held.seat == seat:  # its race move came first: what it claims on is fixed
                raise Refusal(Code.ILLEGAL_ACTION, f"hands are frozen: your "
                              f"{p.refers(held.action)} is being judged")  # fmt: skip
        self._judged = at
        try:
            events = table.driver.act(seat, action, at)
        except WrongGame as exc:
            raise Refusal(Code.WRONG_GAME, str(exc)) from None
        except BadArgs as exc:
            raise Refusal(Code.BAD_FIELD, str(exc)) from None
        except Refused as exc:  # exactly the rules' refusals; anything else is a bug
            raise Refusal(Code.ILLEGAL_ACTION, str(exc)) from None
        entry = msgspec.to_builtins(action)
        entry["seat"] = seat
        table.record({"at": at, "by": by, "action": entry, "events": events})
        self.changed(events, now)

    def changed(self, events: list[dict[str, Any]], now: float) -> None:
        table = self.table
        assert table.driver is not None
        self.stuck_deadline = None
        was = guided.opening_over(table, now)  # a guided game's pace, after its opening
        table.save(now)  # saved before anyone sees it
        table.broadcast(events, now)
        if was is not None:
            guided.tell(table, was)
        if table.driver.over:
            self._finish(now)
            return
        at = table.clock(now)
        for i, seat in enumerate(table.seats):
            if seat.brain is not None:
                plan = seat.brain.plan(table.driver.view(i), at)
                if plan != seat.plan:  # an equal plan keeps the old tuple: a busy host's
                    seat.plan = plan  # collector walks each new one (BENCHMARKS)

    def _finish(self, now: float) -> None:
        table = self.table
        assert table.driver is not None and table.seed is not None and table.seed_hash
        winners, scores = table.driver.result()
        guided.game_over(table)
        table.transition("finish")
        table.result = p.Over(
            winners=winners, scores=scores, seed=table.seed, seed_hash=table.seed_hash
        )
        table.send_all(table.result)
        names = ", ".join(table.seats[w].name for w in winners)
        table.report(f"{table.name}: game over, won by {names}; scores {scores}")
        self.held_races = []
        for seat in table.seats:
            seat.plan = None
            seat.brain = None
            seat.standin = False
        # seats whose players left for good are freed; those away get a fresh grace
        table.drop_seats(lambda s: s.kind == "bot" or s.member is not None)
        for seat in table.seats:
            if seat.member is not None and not seat.member.connected:
                seat.away_since = now
        table.update()

    def tick(self, now: float) -> None:
        """Do everything due at ``now``: time-outs, bot actions, grace periods."""
        table = self.table
        table.called_at = now
        for _ in range(10_000):  # a bound against a bug looping forever
            due = self._earliest_due(now)
            if due is None:
                return
            kind, i = due
            if kind == "wait":
                assert table.wait_until is not None
                self._end_wait(table.wait_until)
            elif kind == "race":
                self._judge_held(table.clock(now), now)
            elif kind == "deadline":
                assert table.driver is not None
                if self.held_races:  # they arrived before it (F9)
                    self._judge_held(table.clock(now), now, everything=True)
                    continue
                deadline = table.driver.deadline()
                # due in host time; on the table's clock it may read a rounding error
                # short of the deadline (``held``), which must not skip the time-out
                at = table.clock(now)
                if deadline is not None:
                    at = max(at, deadline)
                events = table.driver.tick(at)
                self._judged = max(self._judged, at)
                if events:
                    table.record({"at": at, "by": "host", "action": None, "events": events})
                    self.changed(events, now)
                else:
                    self.stuck_deadline = deadline
            elif kind == "plan":
                seat = table.seats[i]
                assert seat.plan is not None
                action, _ = seat.plan
                seat.plan = None
                try:
                    self.submit(i, action, now, "standin" if seat.standin else "bot")
                except Refusal:
                    pass  # no longer legal: the bot plans again at the next change
            elif kind == "away":
                self._grace_over(i, now)
            elif kind == "spectators":
                table.tell_spectators(now)
            elif kind == "owner":
                table.hand_over(now)

    def _earliest_due(self, now: float) -> tuple[str, int] | None:
        # in host time; the wait's end first (the grace of those not back ends with it)
        table = self.table
        best: tuple[float, str, int] | None = None
        if table.wait_until is not None:
            if table.wait_until <= now:
                best = (table.wait_until, "wait", -1)
        elif table.phase == Phase.PLAYING and table.driver is not None:
            held = table.held
            deadline = table.driver.deadline()
            if (
                deadline is not None
                and deadline + held <= now
                and deadline != self.stuck_deadline
            ):
                best = (deadline + held, "deadline", -1)
            if self.held_races and self.held_races[0].due + held <= now:
                if best is None or self.held_races[0].due + held < best[0]:
                    best = (self.held_races[0].due + held, "race", -1)
            for i, seat in enumerate(table.seats):
                if seat.plan is not None and seat.plan[1] + held <= now:
                    if best is None or seat.plan[1] + held < best[0]:
                        best = (seat.plan[1] + held, "plan", i)
        for i, seat in enumerate(table.seats):
            if seat.away_since is not None and not seat.standin:
                t = seat.away_since + table.settings.grace
                if t <= now and (best is None or t < best[0]):
                    best = (t, "away", i)
        due = table.spectators_due
        if due is not None and due <= now and (best is None or due < best[0]):
            best = (due, "spectators", -1)
        due = table.owner_handover()
        if due is not None and due <= now and (best is None or due < best[0]):
            best = (due, "owner", -1)
        return None if best is None else (best[1], best[2])

    def _grace_over(self, i: int, now: float) -> None:
        table = self.table
        seat = table.seats[i]
        member = seat.member
        if table.phase == Phase.PLAYING:
            self.stand_in(i, now)
            table.update()
        elif member is not None:
            # away too long outside a game: the seat is freed
            table.remove_member(member)
            table.notice("left", member.name, i)
            table.report(f"{table.name}: {member.name} did not come back")
            table.update()
        else:
            seat.away_since = None

    # -- waiting for the players of a restored game ---------------------------------

    def hold(self, now: float) -> None:
        """Wait for the seated people (a game restored after a crash): the table's clock
        stands still until they are all back or the grace period ends, whichever comes
        first; then the game goes on (stand-ins for those not back, as always)."""
        table = self.table
        table.called_at = now
        if table.phase != Phase.PLAYING or table.settings.grace <= 0:
            return
        table.wait_since, table.wait_until = now, now + table.settings.grace
        if not table.waiting_for():
            self._end_wait(now)
            return
        table.report(f"{table.name}: {self.waiting_message()}")

    def waiting_message(self) -> str:
        """"Waiting for Ann, Bob (12 s)": for a person, and the ``waiting`` refusal."""
        table = self.table
        names = ", ".join(table.seats[i].name for i in table.waiting_for())
        left = 0.0 if table.wait_until is None else max(0.0, table.wait_until - table.called_at)
        return f"Waiting for {names} ({left:.0f} s)"

    def wait_over(self, now: float) -> bool:
        """End the wait if nobody is awaited any more (they are back, or stand-ins play
        their seats); True if it ended now (everyone was sent the update)."""
        if self.table.wait_since is None or self.table.waiting_for():
            return False
        self._end_wait(now)
        return True

    def _end_wait(self, now: float) -> None:
        table = self.table
        assert table.wait_since is not None
        table.held += now - table.wait_since
        table.wait_since = table.wait_until = None
        table.report(f"{table.name}: the game goes on")
        table.update()
        if table.phase == Phase.PLAYING and table.driver is not None:
            # everyone's clock offset again (``at``): the game's clock stood still
            table.broadcast([], now)

    def close(self, reason: str) -> None:
        """Tell every member goodbye (the host is shutting down)."""
        for member in list(self.table.members):
            if member.connected:
                member.deliver(p.Bye(reason=reason))
                member.close(reason)

    def stand_in(self, i: int, now: float | None = None) -> None:
        """A bot plays seat ``i`` from now on; with ``now`` it plans at once."""
        table = self.table
        seat = table.seats[i]
        seat.standin = True
        seat.away_since = None
        assert table.seed is not None
        rng = random.Random(f"{table.seed}/standin/{i}/{table.moves}")
        settings = table.settings
        seat.brain = make_brain(table.game, i, settings.difficulty, rng, settings.bot_pace,
                                settings.slow)
        table.notice("standin", seat.name, i)
        table.report(f"{table.name}: a stand-in bot plays for {seat.name}")
        self.reseated(now)
        if now is not None and table.driver is not None and not table.driver.over:
            seat.plan = seat.brain.plan(table.driver.view(i), table.clock(now))

    def reseated(self, now: float | None = None) -> None:
        """Tell the game who plays each seat now (``Driver.seated``: a bot's level, a
        stand-in's, or None for a person); with ``now``, a game whose views changed
        sends them again to everyone (a stand-in took a seat, or its person is back)."""
        table = self.table
        driver = table.driver
        if driver is None or table.phase != Phase.PLAYING:
            return
        levels = [seat.difficulty if seat.kind == "bot"
                  else table.settings.difficulty if seat.standin else None
                  for seat in table.seats]  # fmt: skip
        if driver.seated(levels) and now is not None and not driver.over:
            table.broadcast([], now)
