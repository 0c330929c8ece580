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
changes nothing. Several commands may share a line, split by ``;``: they run in order,
each once the host has answered the one before, and the first refused stops the rest.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any, TextIO

from net import protocol as p
from net.catalogue import spec, title
from net.moves import MoveSpec
from net.text import clean_text, quote_peer
from tui.describe import plural
from tui.messages import (
    AgainChanged,
    ChatSaid,
    GameStarted,
    LogLine,
    Refused,
    SessionEnded,
    StatusLine,
    TableChanged,
    ViewChanged,
)
from tui.phases import pace_words
from tui.plain import lobby
from tui.plain.between import COMMANDS, WORDS, race_words
from tui.plain.lobby import seat_name
from tui.plain.words import Generic, usage

#: every escape sequence and control character (a name is peer text: never drawn)
_CONTROLS = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b.|[\x00-\x08\x0b-\x1f\x7f-\x9f]")

#: how a chat line opens: the plain seat's lines that need the person open with "Your
#: turn:", "Your move:" or "Race:", and a chat line never does, whatever it says
CHAT = "Chat from"

#: the bell, written before a line that needs the person unless ``alerts off``
BEL = "\a"

#: seconds a ``;`` chain waits for the host's answer to a command before giving up
CHAIN_WAIT = 10.0

QUESTIONS = {
    "help": "the moves you can make now, and these questions",
    "hand": "your cards",
    "table": "the whole table in one line",
    "scores": "the scores",
    "dice": "the dice rolled and set aside",
    "time": "the race and the call window",
    "last": "the last thing that happened, again", "who": "who sits where, and who is away",
    "league": "the league's standings of this game: ratings, games and wins",
    "odds": "the advisor's chances to win, where the game has them",
}
LOBBY = {
    "ready": "say you are ready (again: not ready)",
    "start": "start the game (the table's owner)",
    "bot": "seat a bot (the owner; bot easy, bot hard)",
    "unbot": "remove the last bot (the owner)",
    "pace": "the table's pace: pace relaxed gives four times as long to act (the owner "
            "sets it; anyone else asks the owner)",
    "say": "say something to the table: say good luck",
    "leave": "leave the table (also quit)",
}
ALIASES = {"?": "help", "h": "help", "quit": "leave", "q": "leave", "exit": "leave",
           "chat": "say", "score": "scores", "cards": "hand", "r": "ready"}  # fmt: skip
#: the questions every table answers (the others, only a game that has them)
ALWAYS = ("help", "last", "who")


def plain_text(text: str) -> str:
    """``text`` without escape sequences or control characters."""
    return _CONTROLS.sub("", text)


class Printer:
    """Lines to a text stream, whole, flushed one by one."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def line(self, text: str) -> None:
        if str(text).startswith(BEL):  # a line that needs the person: the bell first
            self.out.write(BEL)
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
        self.sent = 0  # messages this seat sent the host
        self.refusals = 0  # refusals the host sent it
        self.again = False  # the person asked for another game (``again``)
        self.alerts = "bell"  # the ``alerts`` setting: "off" writes no bell (``alerts off``)
        self.over = False  # the game in front of the seat is over
        #: what ``leave`` leads to: "the menu" when the seat came from one
        self.after_leave = ""
        self.race_told: tuple | None = None  # the table whose races were last told
        self.reacted_at = float("-inf")  # when this seat last sent a reaction (``react``)

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
        elif isinstance(message, AgainChanged):
            self._event_line(clean_text(message.text))
            if any(s in message.state.waiting for s in self.seats):
                self.say(self.bell + "Rematch: type again to play it, or no to decline.")
        elif isinstance(message, LogLine | StatusLine):
            self._event_line(clean_text(message.text))
        elif isinstance(message, Refused):
            self.refusals += 1
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

    @property
    def bell(self) -> str:
        return "" if self.alerts == "off" else BEL

    def _table(self, info: p.TableInfo) -> None:
        before, self.info = self.info, info
        if before is not None and before.phase == info.phase == "playing" and self.seats \
                and before.settings.pace != info.settings.pace and (said := race_words(info)):
            self.say(said)  # a guided game's pace changed: how long a race lasts now
        if info.phase == "playing" or not getattr(self.session.policy, "lobby", False):
            return
        if before is not None and before.seats == info.seats and before.phase == info.phase \
                and before.settings == info.settings:
            return
        self.say(self._lobby_line(info))
        told = (info.game, info.settings.pace, info.settings.difficulty)
        if told != self.race_told and info.settings.pace != "relaxed" and \
                (said := race_words(info)):
            self.race_told = told
            self.say(said[:-1] + (": type pace relaxed to set it." if self.session.is_owner
                                  else ": type pace relaxed to ask the owner for it."))

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
        self.adapter = game_of(game).plain_seat(self.moves) or Generic(self.moves)
        self.view = None
        self.prompted = None
        self.over = False
        you = ", ".join(self.names[s] for s in seats if 0 <= s < len(self.names))
        pace = self.info.settings.pace if self.info is not None else "normal"
        # a game already under way when this connection came (the host's Started comes
        # before its table says playing): a watcher arriving late, a seat taken back
        late = self.info is not None and self.info.phase == "playing"
        opening = (f"A game of {title(game)} is under way: " if late
                   else f"The game starts: {title(game)}, ")
        race = race_words(self.info) if self.info is not None and you else ""
        self.say(opening + ", ".join(self.names) + "."
                 + (f" A {pace_words(pace)}." if pace != "normal" else "")
                 + (f" You play {you}." if you else " You are watching.")
                 + " Type help for your moves, and questions such as table or scores.")
        if race:
            self.say(race)

    def _view(self, view: Any, events: Sequence[Any]) -> None:
        if self.adapter is None:
            return
        self.view = view
        self.adapter.note(view, events)
        for event in events:
            if self.adapter.shown(event):
                self._event_line(self.adapter.words(event, self.names, view))
        for line in self.adapter.news(view, self.acting_seat(), self.names, events):
            self._event_line(line)
        if self.adapter.over(view) and not self.over:
            self.over = True
            self._ended_words()
        self._prompt()

    def _ended_words(self) -> None:
        """The game is over: the totals, and what comes next."""
        scores = self.adapter.answers(self.view, self.acting_seat(), self.names, None)
        if said := scores.get("scores"):
            self.say(f"Totals: {said}")
        if self.session is not None and self.session.policy.lobby:
            self.say("Type again for another game (everyone answers: again or no), or leave.")
        elif self.session is not None and self.session.policy.owns_host:
            self.say("Type again for another game (again relaxed, again normal: at that "
                     f"pace), or leave{' for the menu' if self.after_leave else ''}.")

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
        closes = self.view.window_closes() if self.view is not None else None
        return None if closes is None or self.session is None else \
            max(0.0, closes - self.session.host_now())

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
            self.say(self.bell + line)

    # -- the person's commands -----------------------------------------------------------

    async def command(self, text: str) -> None:
        """One typed line: its commands, split by ``;``, run in order, each against the
        state the one before left (what it sent is answered by the host first). The
        first refusal stops the rest of the line, and says so."""
        text = plain_text(text).strip()
        if not text:
            if self.held:
                self.held = False
                self.prompted = None
                self._prompt()
            elif self.prompted:
                self.say(self.prompted)
            return
        parts = [part.split() for part in text.split(";") if part.strip()]
        for n, words in enumerate(parts):
            sent, refused = self.sent, self.refusals
            done = self._one(words)
            rest = parts[n + 1:]
            if not rest or self.leaving:
                return
            if done and self.sent > sent:
                done = await self._answered() and self.refusals == refused
            if not done:
                self.say("The rest of the line was not run: "
                         + "; ".join(" ".join(w) for w in rest) + ".")
                return

    async def _answered(self) -> bool:
        """Wait until the host has handled what this seat sent (False: no answer, the
        line dropped or the seat ended)."""
        answered = self.session.round_trip()
        ended = asyncio.ensure_future(self.ended.wait())
        try:
            done, _ = await asyncio.wait({answered, ended}, timeout=CHAIN_WAIT,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
        if answered not in done:
            answered.cancel()
            if not self.ended.is_set():
                self.say("The table did not answer in time.")
            return False
        return True

    def _send(self, message: Any) -> None:
        self.sent += 1
        self.session.send(message)

    def _one(self, words: list[str]) -> bool:
        """One command; False when it was refused (said in one line)."""
        head = words[0].casefold()
        in_game = self.moves is not None and self.info is not None and \
            self.info.phase == "playing" and not self.over
        if not (in_game and self.moves.find(head) is not None):  # in a game "r" rolls
            head = ALIASES.get(head, head)
        rest = words[1:]
        if head in COMMANDS:  # again, no, react (``tui.plain.between``)
            return COMMANDS[head](self, rest)
        if head == "help" and rest:
            word = ALIASES.get(rest[0].casefold(), rest[0].casefold())
            move = self.moves.find(word) if self.moves is not None else None
            said = QUESTIONS.get(word) or LOBBY.get(word) or WORDS.get(word)
            said = f"{word}: {said}." if said else (f"{usage(move)}." if move else None)
            self.say(said or f"{quote_peer(rest[0])} is not a command here. Type help.")
            return said is not None
        if head in QUESTIONS:
            self.say(self._answer(head))
            return True
        if head in LOBBY:
            return lobby.request(self, head, rest)
        move = self.moves.find(head) if self.moves is not None else None
        if move is None:
            self.say(f"{quote_peer(words[0])} is not a command here. " + self._legal_words())
            return False
        return self._move(move, rest)

    def _move(self, move: MoveSpec, words: list[str]) -> bool:
        if self.view is None or self.info is None or self.info.phase != "playing":
            self.say(f"No game is running: {move.name} waits for one. " + self._legal_words())
            return False
        if self.held:
            self.say("Press enter first: the keyboard passes to the next player.")
            return False
        seat = self.acting_seat()
        legal = self.adapter.legal(self.view, seat)
        if move.name not in legal:
            self.say(f"You cannot {move.name} now. " + self._legal_words())
            return False
        try:
            args = self.adapter.parse(move, words, self.view, seat, self.names)
        except ValueError as error:
            self.say(f"{error}")
            return False
        explicit = seat if len(self.seats) > 1 else None
        self._send(move(seat=explicit, **args))
        return True

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
            return lobby.who(self)
        if self.view is None or self.adapter is None:
            return "No game is running yet." + (
                f" {self._lobby_line(self.info)}" if self.info is not None else "")
        if self.held and question == "hand":
            return "Press enter first: the keyboard passes to the next player."
        answers = self.adapter.answers(self.view, self.acting_seat(), self.names, self._left())
        return answers.get(question) or f"{title(self.game)} has no {question} to tell."

    def _help(self) -> str:
        lines = []
        asked: list[str] = list(ALWAYS)
        if self.view is not None and self.moves is not None:
            legal = self.adapter.legal(self.view, self.acting_seat())
            for move in self.moves:
                if move.name in legal:
                    short = f" (or {', '.join(move.aliases)})" if move.aliases else ""
                    lines.append(f"{usage(move)}{short}.")
            if not lines:
                lines.append("No move is yours now." + (" Type again for another game."
                             if self.over else ""))
            answered = self.adapter.answers(self.view, self.acting_seat(), self.names, None)
            asked[1:1] = [q for q in QUESTIONS if q in answered]
        elif self.info is not None and self.info.phase != "playing":
            lines.append("The lobby: " + "; ".join(f"{k}: {v}"
                                                   for k, v in (LOBBY | WORDS).items()) + ".")
        lines.append("Questions: " + ", ".join(asked) + ". help and a word says more; "
                     "react nice reacts; leave leaves.")
        return "\n".join(lines)

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
            await seat.command(line)
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
