"""A table's requests: ready, configure, bots, local seats, start, chat, leave, ping.
Each refusal is a :class:`~net.table.core.Refusal`, sent back as an ``error``."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import UNSET

from net import protocol as p
from net.catalogue import DIFFICULTIES, Setting
from net.protocol import Code
from net.table.core import TableCore
from net.table.people import BOT_NAMES, Member, Refusal, Seat
from net.table.phase import Phase
from net.table.settings import PACES
from net.text import (
    CHAT_MAX,
    NAME_MAX,
    check_length,
    clean_name,
    clean_text,
    name_problem,
    quote_peer,
)

#: the table's settings in words, for the ``terms`` notice (a game's own say theirs)
_LABELS = {"bot_pace": "bot pace", "first_player": "first player", "lag_cap": "lag cap",
           "hotseat": "hot-seat"}  # fmt: skip
_SECONDS = ("grace", "bot_pace", "lag_cap")
#: a bot's notice's ``detail`` when its coming or going cleared someone's "ready"
_READY_AGAIN = "everyone says ready again"


def _shown(key: str, value: Any) -> str:
    """A setting's value as a person reads it: "10 s", "off", "random", "seat 2"."""
    if value is None:
        return "random" if key == "first_player" else "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    if key == "first_player":
        return f"seat {value + 1}"
    if isinstance(value, float):
        return f"{value:g} s" if key in _SECONDS else f"{value:g}"
    return str(value)


def _plain_number(key: str, value: Any) -> None:
    """Refuse a float no person types: NaN, -0.0, a subnormal."""
    if isinstance(value, float) and value != value:
        raise Refusal(Code.BAD_SETTING, f"{key} must be a number")
    if isinstance(value, float) and (_negative_zero(value) or _subnormal(value)):
        raise Refusal(Code.BAD_SETTING, f"{key} must be a plain number: {value!r} "
                      "is not one a person types (write 0 for zero).")  # fmt: skip


def _negative_zero(value: float) -> bool:
    return value == 0.0 and math.copysign(1.0, value) < 0


def _subnormal(value: float) -> bool:
    """A number too small for a float's full precision (5e-324): nobody types one."""
    return 0.0 < abs(value) < sys.float_info.min




class Lobby:
    """The requests of a table's members: an object the table holds
    (:class:`net.table.Table`), with the chat's token buckets as its own state."""

    def __init__(self, table: TableCore) -> None:
        self.table = table
        self.chat_tokens: dict[str, tuple[float, float]] = {}  # kind -> (tokens, at)

    # -- requests ----------------------------------------------------------------------

    def handle(self, member: Member, message: Any, now: float) -> None:
        """One request from a member; raises :class:`Refusal` (the table sends it back
        as an ``error``)."""
        handler = self._HANDLERS.get(type(message))
        if handler is not None:
            handler(self, member, message, now)
        elif isinstance(message, p.Hello):
            raise Refusal(Code.HELLO_TWICE, "You are already at a table.")
        else:
            raise Refusal(Code.INTERNAL, f"unexpected {type(message).__name__}")

    def _owner_in_lobby(self, member: Member) -> None:
        table = self.table
        if member is not table.owner:
            owner = table.owner.name if table.owner else "nobody"
            raise Refusal(Code.NOT_OWNER, f"Only the table's owner ({owner}) can do that.")
        if table.phase == Phase.PLAYING:
            raise Refusal(Code.NOT_IN_LOBBY, "Not during a game; wait until it is over.")

    def _ready(self, member: Member, message: p.Ready, now: float) -> None:
        table = self.table
        seats = table.seats_of(member)
        if not seats:
            raise Refusal(Code.NOT_SEATED, "Spectators have no seat to get ready at.")
        if table.phase == Phase.PLAYING:
            raise Refusal(Code.NOT_IN_LOBBY, "The game is already running.")
        for i in seats:
            table.seats[i].ready = message.ready
        table.update()
        if self._all_ready() and len(table.seats) == table.settings.seats:
            table.play.begin(now)

    def _all_ready(self) -> bool:
        return all(
            s.kind != "human" or (s.ready and s.member is not None and s.member.connected)
            for s in self.table.seats
        )

    def _configure(self, member: Member, message: p.Configure, now: float) -> None:
        """All or nothing: the table's settings, then its game's own (``game``, checked
        against the game's declarations, ``net.catalogue.Setting``)."""
        table = self.table
        self._owner_in_lobby(member)
        changes: dict[str, Any] = {}
        low, high = table.spec.low, table.spec.high
        checks: dict[str, tuple[Callable[[Any], bool], str]] = {
            "seats": (
                lambda v: low <= v <= high and v >= len(table.seats),
                f"seats must be {max(low, len(table.seats))} to {high}",
            ),
            "difficulty": (lambda v: v in DIFFICULTIES, f"difficulty is one of {DIFFICULTIES}"),
            "first_player": (
                lambda v: v is None or v < table.settings.seats,
                "first_player is a seat number or null (random)",
            ),
            "grace": (lambda v: 0 <= v <= 600, "grace is 0 to 600 seconds"),
            "bot_pace": (lambda v: 0 <= v <= 10, "bot_pace is 0 to 10 seconds"),
            "hotseat": (lambda v: True, ""),
            "lag_cap": (lambda v: 0 <= v <= 0.5, "lag_cap is 0 to 0.5 seconds"),
            "pace": (lambda v: v in PACES, f"pace is {', '.join(PACES)}"),
        }
        for key, (ok, rule) in checks.items():
            value = getattr(message, key)
            if value is msgspec.UNSET:
                continue
            _plain_number(key, value)
            if not ok(value):
                raise Refusal(Code.BAD_SETTING, f"{rule}, not {value!r}.")
            if value != getattr(table.settings, key):
                changes[key] = value
        game_changes = self._game_settings(message)
        if not changes and not game_changes:
            table.update()  # nothing changed: the terms stand, and so does readiness
            return
        said = [f"{_LABELS.get(key, key)} {_shown(key, getattr(table.settings, key))}"
                f" -> {_shown(key, value)}" for key, value in changes.items()]
        for setting, value in game_changes:
            said.append(f"{setting.label or setting.name} "
                        f"{setting.shown(table.settings.game.get(setting.name))}"
                        f" -> {setting.shown(value)}")
        what = "; ".join(said)
        for key, value in changes.items():
            setattr(table.settings, key, value)
        if "pace" in changes:
            table.settings.after_guide = None  # the owner's pace, for the whole game
        for setting, value in game_changes:
            table.settings.game[setting.name] = value
        table.unready()
        seats = table.seats_of(member)
        table.notice("terms", member.name, seats[0] if seats else None, what)
        table.report(f"{table.name}: {member.name} changed {what}; everyone readies again")
        table.update()

    def _game_settings(self, message: p.Configure) -> list[tuple[Setting, Any]]:
        """The game's own settings a ``configure`` changes, checked against the game's
        declarations; raises Refusal for a setting the game does not have or a value it
        does not admit."""
        table = self.table
        if message.game is msgspec.UNSET:
            return []
        changes = []
        for name, value in message.game.items():
            setting = table.spec.setting(name)
            if setting is None or not setting.configurable:
                own = ", ".join(s.name for s in table.spec.settings if s.configurable)
                raise Refusal(Code.BAD_SETTING,
                              f"{table.spec.title} has no setting {quote_peer(name)}"
                              f"{f': its own are {own}' if own else ''}.")  # fmt: skip
            _plain_number(name, value)
            if problem := setting.problem(value):
                raise Refusal(Code.BAD_SETTING, f"{problem}.")
            if isinstance(value, int) and not setting.whole:
                value = float(value)
            if value != table.settings.game.get(name, setting.default):
                changes.append((setting, value))
        return changes

    def _add_bot(self, member: Member, message: p.AddBot, now: float) -> None:
        self._owner_in_lobby(member)
        difficulty = message.difficulty or self.table.settings.difficulty
        if difficulty not in DIFFICULTIES:
            raise Refusal(Code.BAD_SETTING, f"Bot difficulty is one of {', '.join(DIFFICULTIES)}.")
        self.add_bot(difficulty)

    def add_bot(self, difficulty: str | None = None) -> int:
        """Seat a bot (host API, and the owner's ``add_bot``); returns the seat."""
        table = self.table
        if len(table.seats) >= table.settings.seats:
            raise Refusal(Code.TABLE_FULL, "Every seat is taken: no room for a bot.")
        base = BOT_NAMES[len([s for s in table.seats if s.kind == "bot"]) % len(BOT_NAMES)]
        seat = Seat(
            name=table.unique_name(f"{base} (bot)"),
            kind="bot",
            difficulty=difficulty or table.settings.difficulty,
        )
        cleared = table.unready()  # one more at the table: new terms for everyone
        table.seats.append(seat)
        table.notice("bot", seat.name, len(table.seats) - 1, _READY_AGAIN if cleared else UNSET)
        table.update()
        return len(table.seats) - 1

    def _remove_bot(self, member: Member, message: p.RemoveBot, now: float) -> None:
        table = self.table
        self._owner_in_lobby(member)
        if message.seat >= len(table.seats) or table.seats[message.seat].kind != "bot":
            raise Refusal(Code.NO_SUCH_SEAT, f"Seat {message.seat} holds no bot.")
        gone = table.seats[message.seat]
        ready = any(s.ready for s in table.seats if s.kind == "human")
        table.drop_seats(lambda s: s is not gone)  # (fewer at the table: new terms)
        # said as its sitting down was (issue 47: the log kept "sits down" while the
        # seats showed the seat free), and so is the readiness it cleared
        table.notice("bot_left", gone.name, message.seat, _READY_AGAIN if ready else UNSET)
        table.update()

    def _kick(self, member: Member, message: p.Kick, now: float) -> None:
        """Free a seat squatted by someone who is not ready (they are told, and their
        token goes stale); a ready player, a bot or the owner's own seat stay."""
        table = self.table
        self._owner_in_lobby(member)
        seat = table.seats[message.seat] if message.seat < len(table.seats) else None
        target = seat.member if seat is not None and seat.kind == "human" else None
        if seat is None or target is None or target is member:
            raise Refusal(Code.NO_SUCH_SEAT, f"Seat {message.seat} holds nobody else.")
        if seat.ready and target.connected:
            raise Refusal(Code.NO_SUCH_SEAT,
                          f"{seat.name} is ready; only a seat whose player is not ready "
                          "(or is away) can be freed.")
        name = seat.name
        table.remove_member(target, now)
        table.save(now)  # the seat is free on disk before anyone is told
        target.deliver(p.Bye(reason="kicked"))
        target.close("kicked")
        table.notice("kicked", name, message.seat)
        table.report(f"{table.name}: {member.name} freed {name}'s seat")
        table.update()

    def _add_local(self, member: Member, message: p.AddLocal, now: float) -> None:
        table = self.table
        if not table.seats_of(member):
            raise Refusal(Code.NOT_SEATED, "Spectators cannot seat local players.")
        if not table.settings.hotseat:
            raise Refusal(Code.HOTSEAT_OFF, "This table does not allow hot-seat players.")
        if table.phase == Phase.PLAYING:
            raise Refusal(Code.NOT_IN_LOBBY, "Not during a game; wait until it is over.")
        if len(table.seats) >= table.settings.seats:
            raise Refusal(Code.TABLE_FULL, "Every seat is taken.")
        name = clean_name(message.name)
        problem = check_length(name, "name", NAME_MAX) or name_problem(
            name, [m.name for m in table.members])
        if problem:
            raise Refusal(Code.BAD_NAME, problem)
        seat = Seat(name=table.unique_name(name), kind="local", member=member, ready=True)
        table.unready()  # one more at the table: new terms for everyone
        table.seats.append(seat)
        table.save(now)
        # the controller learns its new seat list from a fresh welcome
        member.deliver(table.welcome(member, resumed=False))
        table.notice("joined", seat.name, len(table.seats) - 1)
        table.update()

    def _start_request(self, member: Member, message: p.Start, now: float) -> None:
        self._owner_in_lobby(member)
        waiting = [
            s.name
            for s in self.table.seats
            if s.kind == "human"
            and s.member is not member
            and not (s.ready and s.member is not None and s.member.connected)
        ]
        if waiting:
            raise Refusal(Code.NOT_READY, f"Waiting for {', '.join(waiting)} to get ready.")
        self.table.play.start(now)

    def _chat(self, member: Member, message: p.Chat, now: float) -> None:
        table = self.table
        text = clean_text(message.text)
        problem = check_length(text, "chat message", CHAT_MAX)
        if problem:
            raise Refusal(Code.BAD_TEXT, problem)
        seats = table.seats_of(member)
        if not self._chat_allowed(member, bool(seats), now):
            return
        table.send_all(
            p.ChatLine(
                name=member.name, seat=seats[0] if seats else None, text=text, at=table.clock(now)
            )
        )

    def _chat_allowed(self, member: Member, seated: bool, now: float) -> bool:
        """A line reaches everyone at the table, so its cost grows with the audience:
        the table takes ``chat.chat_rate`` lines a second from its players and
        ``chat.spectator_chat_rate`` from all its spectators together, each spectator one
        line a ``chat.spectator_chat_every`` seconds (``net.budgets.Budgets``). Over that,
        the line is dropped and its sender told (once a second)."""
        chat = self.table.chat
        kind = "seated" if seated else "spectators"
        rate, burst = (chat.chat_rate, chat.chat_burst) if seated else (
            chat.spectator_chat_rate, chat.spectator_chat_burst)
        tokens, at = self.chat_tokens.get(kind, (burst, now))
        tokens = min(burst, tokens + (now - at) * rate)
        own = seated or now - member.chat_at >= chat.spectator_chat_every
        if tokens >= 1 and own:
            self.chat_tokens[kind] = (tokens - 1, now)
            member.chat_at = now
            return True
        self.chat_tokens[kind] = (tokens, now)
        if now - member.chat_notice_at >= 1.0:
            member.chat_notice_at = now
            limit = (f"{chat.chat_rate:g} lines a second from its players" if seated else
                     f"{chat.spectator_chat_rate:g} lines a second from its spectators, one "
                     f"a {chat.spectator_chat_every:g} seconds each")
            member.deliver(p.Error(code=Code.RATE_LIMITED, ref="chat",
                                   message=f"Too much chat: this table takes {limit}. "
                                   "That line was dropped."))
        return False

    def _leave(self, member: Member, message: p.Leave, now: float) -> None:
        table = self.table
        seats = table.seats_of(member)
        if message.keep_seat and seats:
            # stepping away: the seat stays theirs (the token takes it back), and in a
            # game a stand-in plays it from now, not after the grace period
            member.deliver(p.Bye(reason="left"))
            member.close("left")
            table.disconnect(member, now, event="stepped_away")
            if table.phase == Phase.PLAYING:
                for i in seats:
                    if not table.seats[i].standin:
                        table.play.stand_in(i, now)
                if not table.play.wait_over(now):
                    table.update()
            return
        table.remove_member(member, now)
        table.save(now)  # the seat is given up on disk before the goodbye
        member.deliver(p.Bye(reason="left"))
        member.close("left")
        if seats:
            table.notice("left", member.name, seats[0])
            table.report(f"{table.name}: {member.name} left")
        if member.spectator:
            table.spectators_changed(now)
        elif not table.play.wait_over(now):
            table.update()

    def _ping(self, member: Member, message: p.Ping, now: float) -> None:
        member.deliver(p.Pong(id=message.id, at=self.table.clock(now)))

    _HANDLERS: dict[type, Callable[..., None]] = {
        p.Ready: _ready,
        p.Configure: _configure,
        p.AddBot: _add_bot,
        p.RemoveBot: _remove_bot,
        p.Kick: _kick,
        p.AddLocal: _add_local,
        p.Start: _start_request,
        p.Chat: _chat,
        p.Leave: _leave,
        p.Ping: _ping,
    }
