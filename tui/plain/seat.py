"""The plain seat: a table played by typed lines, for a screen reader, a braille
display, a terminal that cannot draw, or a script.

It is the app's own client session (``tui.session.Session``, opened by the same
launchers, ``tui.modes``) with a line printer for its target instead of screens. Each
event is one line as it happens, in the words the app's log uses
(``tui.describe.describe``); nothing is redrawn and no escape sequence is written. A
line that needs the person starts by saying so ("Your turn:", "Race:"). Commands are
words: each game's moves as it declares them (``net.moves``: a move's name or alias,
then its arguments), questions (``help``, ``hand``, ``table``, ``scores``, ``dice``,
``time``, ``last``, ``who``) and the lobby's requests (``ready``, ``start``, ``bot``,
``say``, ``leave``). A wrong command gets one line saying why and what is legal, and
changes nothing. Several commands may share a line, split by ``;``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any, TextIO

from net import protocol as p
from net.catalogue import DIFFICULTIES, spec, title
from net.moves import MoveSpec
from net.text import clean_text, quote_peer
from tui.describe import describe, plural
from tui.messages import (
    ChatSaid,
    GameStarted,
    LogLine,
    Refused,
    SessionEnded,
    StatusLine,
    TableChanged,
    ViewChanged,
)
from tui.phases import PACES, pace_words

#: every escape sequence and control character (a name is peer text: never drawn)
_CONTROLS = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b.|[\x00-\x08\x0b-\x1f\x7f-\x9f]")

#: how a chat line opens: the plain seat's lines that need the person open with "Your
#: turn:", "Your move:" or "Race:", and a chat line never does, whatever it says
CHAT = "Chat from"

QUESTIONS = {
    "help": "the moves you can make now, and these questions",
    "hand": "your cards",
    "table": "the whole table in one line",
    "scores": "the scores",
    "dice": "the dice rolled and set aside",
    "time": "the race and the call window",
    "last": "the last thing that happened, again",
    "who": "who sits where, and who is away",
    "odds": "the advisor's chances to win, where the game has them",
}
LOBBY = {
    "ready": "say you are ready (again: not ready)",
    "start": "start the game (the table's owner)",
    "bot": "seat a bot (the owner; bot easy, bot hard)",
    "unbot": "remove the last bot (the owner)",
    "pace": "the table's pace (the owner): pace normal, pace steady or pace relaxed",
    "say": "say something to the table: say good luck",
    "leave": "leave the table (also quit)",
}
ALIASES = {"?": "help", "h": "help", "quit": "leave", "q": "leave", "exit": "leave",
           "chat": "say", "score": "scores", "cards": "hand", "r": "ready"}  # fmt: skip


def seat_name(seat: p.SeatInfo) -> str:
    """A seat's name as the plain seat says it: a bot's says so once ("Hattie (bot)" is
    named so by the host already; a bot named otherwise gets the word)."""
    name = clean_text(seat.name)
    return f"{name} (bot)" if seat.kind == "bot" and "(bot)" not in name else name


def plain_text(text: str) -> str:
    """``text`` without escape sequences or control characters."""
    return _CONTROLS.sub("", text)


class Printer:
    """Lines to a text stream, whole, flushed one by one."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def line(self, text: str) -> None:
        for part in str(text).split("\n"):
            self.out.write(plain_text(part).rstrip() + "\n")
        self.out.flush()


class PlainSeat:
    """The session's target (``post_message``) and the person's commands
    (:meth:`command`). ``hotseat``: several people share this keyboard."""

    def __init__(self, out: TextIO, *, hotseat: bool = False) -> None:
        self.say = Printer(out).line
        self.hotseat = hotseat
        self.session: Any = None
        self.info: p.TableInfo | None = None
        self.game: str | None = None
        self.names: list[str] = []
        self.view: Any = None
        self.adapter: Any = None
        self.moves: Any = None
        self.last = "Nothing has happened yet."
        self.prompted: str | None = None
        self.handed_to: int | None = None  # hot-seat: the seat the keyboard went to
        self.held = False  # hot-seat: waiting for enter before the next player's turn
        self.ended = asyncio.Event()
        self.leaving = False  # the person asked to leave: the session closes, then the seat
        #: the door hung up (the tab or the terminal closed): the connection closes as a
        #: dropped line does, and the seat waits for its player (``give_up``: it does not)
        self.hung_up = False
        self.give_up = True
        self.code = 0

    def hang_up(self, *, give_up: bool) -> None:
        """The door hung up (SIGHUP): end, closing as a dropped line (``give_up``: as
        leave does)."""
        self.hung_up, self.give_up = True, give_up
        self.ended.set()

    # -- what the session posts ---------------------------------------------------------

    def post_message(self, message: Any) -> None:
        if isinstance(message, ViewChanged):
            self._view(message.view, message.events)
        elif isinstance(message, TableChanged):
            self._table(message.table)
        elif isinstance(message, GameStarted):
            self._started(message.game, message.names, message.seats)
        elif isinstance(message, ChatSaid):  # set apart: no chat line opens as the game's
            self._event_line(f"{CHAT} {clean_text(message.name)}: {clean_text(message.said)}")
        elif isinstance(message, LogLine | StatusLine):
            self._event_line(clean_text(message.text))
        elif isinstance(message, Refused):
            self.say(f"Refused: {clean_text(message.text)}")
        elif isinstance(message, SessionEnded):
            self.say(f"{message.title}. {clean_text(message.body)}".replace("\n\n", " "))
            self.code = 1 if message.error is not None else 0
            self.ended.set()

    def _event_line(self, line: str) -> None:
        if line:
            self.last = line
            self.say(line)

    @property
    def seats(self) -> list[int]:
        return list(self.session.seats) if self.session is not None else []

    def _table(self, info: p.TableInfo) -> None:
        before, self.info = self.info, info
        if info.phase == "playing" or not getattr(self.session.policy, "lobby", False):
            return
        if before is not None and before.seats == info.seats and before.phase == info.phase \
                and before.settings == info.settings:
            return
        self.say(self._lobby_line(info))

    def _lobby_line(self, info: p.TableInfo) -> str:
        seats = []
        for s in info.seats:
            if s.kind == "bot":
                seats.append(f"{s.seat + 1} {seat_name(s)}")
                continue
            state = ("ready" if s.ready else "not ready") if s.connected else "away"
            seats.append(f"{s.seat + 1} {seat_name(s)} ({state})")
        free = info.settings.seats - len(info.seats)
        line = (f"Table {clean_text(info.name)}, {title(info.game)}: "
                + ", ".join(seats) + (f", {plural(free, 'seat')} free" if free > 0 else "") + ".")
        if info.settings.pace != "normal":
            line += f" The table plays at a {pace_words(info.settings.pace)}."
        from tui.plugin import length_words  # the game's own measure of its length

        if said := length_words(info):
            line += f" {said}"
        waiting = [clean_text(s.name) for s in info.seats if s.kind == "human"
                   and s.seat not in self.seats and not (s.ready and s.connected)]
        if any(s.seat in self.seats and not s.ready for s in info.seats):
            line += " Type ready when you are."
        elif waiting:
            line += f" Waiting for {', '.join(waiting)} to get ready."
        elif self.session.is_owner:
            line += " Type start to begin, or bot to seat a bot."
        return line

    def _started(self, game: str, players: Sequence[str], seats: Sequence[int]) -> None:
        from tui.plugin import game_of

        self.game = game
        self.names = [clean_text(n) for n in players]
        self.moves = spec(game).moves
        self.adapter = game_of(game).plain_seat(self.moves)
        self.view = None
        self.prompted = None
        you = ", ".join(self.names[s] for s in seats if 0 <= s < len(self.names))
        pace = self.info.settings.pace if self.info is not None else "normal"
        self.say(f"The game starts: {title(game)}, " + ", ".join(self.names) + "."
                 + (f" A {pace_words(pace)}." if pace != "normal" else "")
                 + (f" You play {you}." if you else " You are watching.")
                 + " Type help for your moves, and questions such as table or scores.")

    def _view(self, view: Any, events: Sequence[Any]) -> None:
        if self.adapter is None:
            return
        self.view = view
        self.adapter.note(view, events)
        for event in events:
            if self.adapter.shown(event):
                self._event_line(describe(event, self.names, view))
        self._prompt()

    # -- what needs the person -----------------------------------------------------------

    def acting_seat(self) -> int | None:
        """The seat this keyboard plays now: the one whose turn it is, among its own."""
        seats = self.seats
        if not seats or self.view is None:
            return None
        current = self.adapter.current(self.view)
        if current is not None and current in seats:
            return current
        return seats[0]

    def _left(self) -> float | None:
        view, session = self.view, self.session
        closes = getattr(view, "call_closes", None) if view is not None else None
        if closes is None or session is None:
            return None
        return max(0.0, closes - session.host_now())

    def _prompt(self) -> None:
        seat = self.acting_seat()
        if self.hotseat and seat is not None and seat != self.handed_to and \
                self.adapter.current(self.view) is not None and self.handed_to is not None:
            self.handed_to = seat
            self.held = True
            self.prompted = None
            self.say(f"Pass the keyboard to {self.names[seat]}, then press enter.")
            return
        self.handed_to = seat
        if self.held:
            return
        asked = self.adapter.prompt(self.view, seat, self.names, self._left())
        if asked is None:
            self.prompted = None
            return
        label, words = asked
        if self.hotseat and seat is not None:
            label = f"{self.names[seat]}, {label[0].lower()}{label[1:]}"
        line = f"{label}: {words}"
        if line != self.prompted:
            self.prompted = line
            self.say(line)

    # -- the person's commands -----------------------------------------------------------

    def command(self, text: str) -> None:
        """One typed line (several commands split by ``;``)."""
        text = plain_text(text).strip()
        if not text:
            if self.held:
                self.held = False
                self.prompted = None
                self._prompt()
            elif self.prompted:
                self.say(self.prompted)
            return
        for part in text.split(";"):
            if part.strip():
                self._one(part.split())

    def _one(self, words: list[str]) -> None:
        head = words[0].casefold()
        head = ALIASES.get(head, head)
        rest = words[1:]
        if head in QUESTIONS:
            self.say(self._answer(head))
            return
        if head in LOBBY:
            self._lobby(head, rest)
            return
        move = self.moves.find(head) if self.moves is not None else None
        if move is None:
            self.say(f"{quote_peer(words[0])} is not a command here. " + self._legal_words())
            return
        self._move(move, rest)

    def _move(self, move: MoveSpec, words: list[str]) -> None:
        if self.view is None or self.info is None or self.info.phase != "playing":
            self.say(f"No game is running: {move.name} waits for one. " + self._legal_words())
            return
        if self.held:
            self.say("Press enter first: the keyboard passes to the next player.")
            return
        seat = self.acting_seat()
        legal = self.adapter.legal(self.view, seat)
        if move.name not in legal:
            self.say(f"You cannot {move.name} now. " + self._legal_words())
            return
        try:
            args = self.adapter.parse(move, words, self.view, seat, self.names)
        except ValueError as error:
            self.say(f"{error}")
            return
        explicit = seat if len(self.seats) > 1 else None
        self.session.send(move(seat=explicit, **args))

    def _legal_words(self) -> str:
        if self.view is None or self.adapter is None or self.info is None or \
                self.info.phase != "playing":
            return "Type help."
        legal = sorted(self.adapter.legal(self.view, self.acting_seat()))
        if not legal:
            return "No move is yours now; type table or help."
        return "Legal now: " + ", ".join(legal) + "."

    def _answer(self, question: str) -> str:
        if question == "help":
            return self._help()
        if question == "last":
            return self.last
        if question == "who":
            return self._who()
        if self.view is None or self.adapter is None:
            return "No game is running yet." + (
                f" {self._lobby_line(self.info)}" if self.info is not None else "")
        if self.held and question == "hand":
            return "Press enter first: the keyboard passes to the next player."
        answers = self.adapter.answers(self.view, self.acting_seat(), self.names, self._left())
        return answers.get(question) or f"{title(self.game)} has no {question} to tell."

    def _help(self) -> str:
        lines = []
        if self.view is not None and self.moves is not None:
            legal = self.adapter.legal(self.view, self.acting_seat())
            for move in self.moves:
                if move.name in legal:
                    short = f" (or {', '.join(move.aliases)})" if move.aliases else ""
                    lines.append(f"{move.usage()}{short}.")
            if not lines:
                lines.append("No move is yours now.")
        elif self.info is not None and self.info.phase != "playing":
            lines.append("The lobby: " + "; ".join(f"{k}: {v}" for k, v in LOBBY.items()) + ".")
        lines.append("Questions: " + "; ".join(f"{k}: {v}" for k, v in QUESTIONS.items())
                     + ". leave: leave the table.")
        return "\n".join(lines)

    def _who(self) -> str:
        if self.info is None:
            return "Nobody yet."
        said = []
        for s in self.info.seats:
            away = "" if s.connected or s.kind == "bot" else ", away"
            you = ", you" if s.seat in self.seats else ""
            said.append(f"seat {s.seat + 1}: {seat_name(s)}{away}{you}")
        watching = self.info.spectators
        return "; ".join(said) + (f"; {watching} watching" if watching else "") + "."

    def _lobby(self, request: str, words: list[str]) -> None:
        session = self.session
        if request == "leave":
            self.say("Leaving the table.")
            self.leaving = True
            return
        if request == "say":
            if words:
                session.send(p.Chat(text=" ".join(words)))
            else:
                self.say("say what? For example: say good luck")
            return
        if self.info is not None and self.info.phase == "playing":
            self.say(f"Not during a game: {request} is for the lobby. " + self._legal_words())
            return
        if request == "ready":
            mine = [s for s in (self.info.seats if self.info else []) if s.seat in self.seats]
            session.send(p.Ready(ready=not (mine and all(s.ready for s in mine))))
        elif request == "start":
            session.send(p.Start())
        elif request == "bot":
            level = words[0].casefold() if words else None
            if level is not None and level not in DIFFICULTIES:
                self.say(f"A bot is {', '.join(DIFFICULTIES)}, not {quote_peer(words[0])}.")
                return
            session.send(p.AddBot(difficulty=level))
        elif request == "pace":
            pace = words[0].casefold() if words else ""
            if pace not in PACES:
                self.say(f"pace is one of {', '.join(PACES)}: {pace_words('steady')}; "
                         f"{pace_words('relaxed')}.")
                return
            session.send(p.Configure(pace=pace))
        elif request == "unbot":
            bots = [s.seat for s in (self.info.seats if self.info else []) if s.kind == "bot"]
            if not bots:
                self.say("No bot sits at this table.")
                return
            session.send(p.RemoveBot(seat=bots[-1]))


async def play(session: Any, seat: PlainSeat, lines: Any) -> int:
    """Run ``seat`` on ``session`` until the session ends, the person leaves or the
    input closes (``lines``: ``tui.plain.Lines``)."""
    seat.session = session
    session.start(seat)
    ended = asyncio.ensure_future(seat.ended.wait())
    try:
        while not seat.ended.is_set():
            line_task = asyncio.ensure_future(lines.next())
            done, _ = await asyncio.wait({line_task, ended}, return_when=asyncio.FIRST_COMPLETED)
            if line_task not in done:
                line_task.cancel()
                if seat.hung_up:
                    await _close(session, give_up=seat.give_up)
                break
            line = line_task.result()
            if line is None:  # the input closed: leave, as leave would
                seat.say("The input closed: leaving the table.")
                await _close(session)
                break
            seat.command(line)
            if seat.leaving:
                await _close(session)
                break
    finally:
        ended.cancel()
    return seat.code


async def _close(session: Any, give_up: bool = True) -> None:
    task = session.close(give_up=give_up)
    if task is not None:
        await task
