"""The plain seat (``motherlode --plain``, ``join --plain``, ``TERM=dumb``, and the SSH
door's ``plain`` command): every way of playing, in lines of words (``seat``).

:func:`run` opens what the command line asked for through the app's own launchers
(``tui.modes``) and plays it at a :class:`~tui.plain.seat.PlainSeat`; with nothing
asked, a menu of numbered lines comes first. No line it writes moves the cursor,
erases or switches screens, and no colour carries meaning: there is no colour.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sys
from typing import Any, TextIO

from net.catalogue import games, hotseat_games, spec, title
from net.text import quote_peer

MENU_HELP = ("Type a number (a number and normal, for normal pace: 1 normal), or: "
             "hotseat NAME NAME..., join ADDRESS, watch ADDRESS, quit.")
#: a game against bots at the plain seat plays at this pace unless asked otherwise: a
#: player who listens to a race hears it line by line, and needs the time to answer
#: (at normal pace the bots have grabbed the nuggets 1.4 s after the first grab)
SOLO_PACE = "relaxed"


def solo_options(options: dict[str, Any] | None, pace: str | None = None) -> dict[str, Any]:
    """The table options of a game against bots at the plain seat: ``pace`` if asked
    for (a menu's "1 normal", ``--pace``), else :data:`SOLO_PACE`."""
    found = dict(options or {})
    if pace is not None:
        found["pace"] = pace
    found.setdefault("pace", SOLO_PACE)
    return found


def _menu_lines() -> list[str]:
    lines = [f"{i + 1} {g.title} against {g.solo_bots} bot"
             f"{'s' if g.solo_bots != 1 else ''} ({g.seats}, {SOLO_PACE} pace)"
             for i, g in enumerate(games())]
    if hotseat_games():
        lines.append(f"hotseat NAME NAME... {hotseat_games()[0].title} on this keyboard")
    lines += ["join ADDRESS  a game on the network (watch ADDRESS to watch it)", "quit"]
    return lines


#: the longest line the seat reads: a command is a few words, a chat line at most 200
#: characters; a longer line is dropped whole, with one line said
MAX_LINE = 1000
#: lines read ahead of the seat: a flood waits in the input's own pipe (back-pressure:
#: the sender blocks), never in this process's memory
READ_AHEAD = 32
#: how fast the seat takes lines: ``BURST`` at once, then ``RATE`` a second (a person
#: types a line a second at most; a ``;`` chain is one line)
RATE, BURST = 16.0, 32
TOO_LONG = ("A line of more than {n} characters was dropped: a command is a few words "
            "(chat at most 200 characters).")
_TOO_LONG = "\x00too long\x00"  # the reader's mark for a dropped line (a typed one
# is another object: the mark is compared by identity)
TOO_FAST = "You type faster than the table reads: your lines wait their turn."


class Lines:
    """The person's lines, read on a thread (a closed input ends the seat). The memory
    it holds is bounded whatever the sender does: at most ``READ_AHEAD`` lines of at
    most ``MAX_LINE`` characters. When the seat falls behind, the reading thread waits,
    so a flood stays in the sender's pipe (back-pressure) and nothing typed is lost;
    lines are taken ``BURST`` at once, then ``RATE`` a second. ``say``: where the seat's
    own words about the input go."""

    def __init__(self, stream: TextIO, say: Any = None, *, rate: float = RATE,
                 burst: int = BURST) -> None:
        import threading

        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=READ_AHEAD)
        self.say = say or (lambda text: None)
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.loop = loop = asyncio.get_running_loop()
        self.refilled = loop.time()
        self.told = False  # TOO_FAST said during this flood

        def put(item: str | None) -> bool:
            try:
                asyncio.run_coroutine_threadsafe(self.queue.put(item), loop).result()
            except (RuntimeError, concurrent.futures.CancelledError):
                return False  # the loop is gone: the seat has ended
            return True

        def read() -> None:
            while True:
                try:
                    line = stream.readline(MAX_LINE + 1)
                except (OSError, ValueError):
                    break
                if not line:
                    break
                if len(line.rstrip("\r\n")) > MAX_LINE:
                    while line and not line.endswith("\n"):  # the rest of it, unread
                        line = stream.readline(MAX_LINE + 1)
                    line = _TOO_LONG
                if not put(line):
                    return
            put(None)

        threading.Thread(target=read, daemon=True).start()

    async def next(self) -> str | None:
        while True:
            text = await self.queue.get()
            if text is None:
                return None
            await self._pace()
            if text is _TOO_LONG:
                self.say(TOO_LONG.format(n=MAX_LINE))
                continue
            return text

    async def _pace(self) -> None:
        now = self.loop.time()
        self.tokens = min(float(self.burst), self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            if self.tokens >= self.burst / 2:
                self.told = False  # the flood is over
            return
        if not self.told:
            self.told = True
            self.say(TOO_FAST)
        await asyncio.sleep((1 - self.tokens) / self.rate)
        self.tokens = 0.0
        self.refilled = self.loop.time()


    async def command(self) -> tuple[str, list[str], str] | None:
        """The next line as a menu reads it: (the line, its words, the first word
        casefolded; "" with no words); None at the end of input or on quit."""
        text = await self.next()
        if text is None:
            return None
        words = text.split()
        head = words[0].casefold() if words else ""
        return None if head in ("q", "quit", "exit") else (text, words, head)


async def _choose(say: Any, lines: Lines, difficulty: str) -> tuple | None:
    """The plain menu: a start tuple as ``tui.cli._app_start`` gives (a game against
    bots with the pace asked for, or None), or None to quit."""
    from net.address import parse_address
    from tui.phases import PACES
    from tui.settings import clean_name

    say("Motherlode. " + MENU_HELP)
    for line in _menu_lines():
        say(line)
    while True:
        command = await lines.command()
        if command is None:
            return None
        text, words, head = command
        if not words:
            continue
        if head in ("help", "?", "h", "menu"):
            say(MENU_HELP)
            for line in _menu_lines():
                say(line)
            continue
        if head.isdigit() and 1 <= int(head) <= len(games()) and len(words) <= 2:
            game = games()[int(head) - 1]
            pace = words[1].casefold() if len(words) == 2 else None
            if pace is not None and pace not in PACES:
                say(f"A pace is {', '.join(PACES)}: for example {head} normal.")
                continue
            return ("solo", game.key, game.solo_bots, False, pace)
        if head == "hotseat" and hotseat_games():
            names = [clean_name(n) for n in words[1:]]
            problem = hotseat_games()[0].check_seats(len(names))
            if not all(names) or problem:
                say(problem or "every name needs a visible character")
                continue
            return ("hotseat", [(n, False) for n in names])
        if head in ("join", "watch") and len(words) == 2:
            try:
                host, port = parse_address(words[1])
            except ValueError as error:
                say(f"{error}")
                continue
            return ("join", host, port, head == "watch")
        say(f"{quote_peer(text.strip())} is not on the menu. " + MENU_HELP)


async def _served(say: Any, lines: Lines, control: str, name: str) -> tuple | None:
    """The served menu in lines: the serve host's tables; join, watch or open one."""
    from net.served import ServedError, list_tables, new_table

    while True:
        try:
            tables = await list_tables(control)
        except ServedError as error:
            say(f"The server cannot list its tables: {error}")
            return None
        if tables:
            for i, info in enumerate(tables):
                people = ", ".join(s.name for s in info.seats) or "nobody yet"
                say(f"{i + 1} {info.name}: {title(info.game)}, {info.phase}, "
                    f"{len(info.seats)} of {info.settings.seats} seats ({people})")
        else:
            say("No tables yet.")
        keys = " or ".join(g.key for g in games())
        say(f"Type a table's number to join it, watch N to watch it, new GAME ({keys}) "
            "to open a table, list to look again, or quit.")
        while True:  # help and empty lines answered here: the list is not read again
            command = await lines.command()
            if command is None:
                return None
            text, words, head = command
            if head in ("help", "?", "h"):
                say("A table's number joins it (1), watch and its number watches it "
                    f"(watch 1), new and a game opens a table (new {games()[0].key}), list "
                    "reads the tables again, quit leaves.")
            elif words:
                break
        if head == "new" and len(words) == 2 and words[1].casefold() in [g.key for g in games()]:
            try:
                table = await new_table(control, words[1].casefold(), name)
            except ServedError as error:
                say(f"Cannot open a table: {error}")
                continue
            return ("table", table, False)
        number = words[-1]
        if number.isdigit() and 1 <= int(number) <= len(tables) and head in (number, "watch"):
            return ("table", tables[int(number) - 1].name, head == "watch")
        if head != "list":
            say(f"{quote_peer(text.strip())}: not a table or a command here.")


async def _ask_name(say: Any, lines: Lines) -> str | None:
    """The player's name, asked in a line (a browser's first visit)."""
    from tui.settings import clean_name

    say("What is your name? Type it and press enter.")
    while True:
        text = await lines.next()
        if text is None:
            return None
        name = clean_name(text)
        if name.casefold() in ("help", "?", "h"):
            say("Type the name the others will see you by (for example Ann), then press "
                "enter.")
            continue
        if name:
            return name
        say("A name needs a visible character: type your name.")


async def _session(start: tuple, launch: Any, say: Any) -> Any:
    from tui import modes

    kind = start[0]
    if kind == "solo":
        return await modes.solo(launch, start[1], start[2])
    if kind == "hotseat":
        return await modes.hotseat(launch, start[1])
    if kind == "join":
        _, host, port, watch = start[:4]
        table = start[4] if len(start) > 4 else None
        return await modes.join(launch, host, port, spectate=watch, table=table)
    raise ValueError(kind)


async def run_plain(start: tuple, settings: Any, options: dict[str, Any] | None = None, *,
                    stream: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    """Play ``start`` (``tui.cli._app_start``'s tuple) at a plain seat."""
    from tui import modes
    from tui.plain.seat import Printer
    from tui.saves import Saves

    say = Printer(out).line
    lines = Lines(stream, say)
    launch = modes.Launch(name=settings.name, difficulty=settings.difficulty, saves=Saves(),
                          table_options=dict(options or {}))
    menu = start[0] == "menu"  # leave at the end of a game goes back to it
    while True:
        code, seat, start = await _play_once(start, settings, launch, options, lines, say,
                                             out, menu)
        if seat is None:
            return code
        if seat.again:  # the same game again, at the pace asked for
            pace = seat.again if isinstance(seat.again, str) else None
            start = ("solo", *start[1:3], False, pace or launch.table_options.get("pace"))
            continue
        if menu and seat.leaving:
            start = ("menu",)
            continue
        return code


async def _play_once(start: tuple, settings: Any, launch: Any, options: Any, lines: Lines,
                     say: Any, out: TextIO, menu: bool) -> tuple[int, Any, tuple]:
    """One table at the plain seat: (its exit code, the seat or None where none sat,
    the start tuple it played)."""
    from tui import modes
    from tui.phases import pace_words
    from tui.plain.seat import play

    if start[0] == "menu":
        chosen = await _choose(say, lines, settings.difficulty)
        if chosen is None:
            return 0, None, start
        start = chosen
    served = None  # the serve process's socket, where served
    if start[0] == "served":
        _, host, port, control, named = start
        served = control
        from tui.flows.served import ServedFlow

        ServedFlow.bind_link(control)
        kept = modes.kept_table(launch.saves, host, port, settings.name) \
            if named or settings.named else None
        if kept is None:
            # the web door's browser: the name it gave last time is in its own folder, and
            # a seat it holds here is taken back at once (a reload, a second tab, a visit
            # after the server restarted), as the app page does (``tui.flows.served``)
            if not named and not settings.named:
                name = await _ask_name(say, lines)
                if name is None:
                    return 0, None, start
                settings.name = launch.name = name
                settings.named = True
                with contextlib.suppress(OSError):  # this browser's name, for its next visit
                    settings.save()
            chosen = await _served(say, lines, control, settings.name)
            if chosen is None:
                return 0, None, start
            start = ("join", host, port, chosen[2], chosen[1])
        else:
            say(f"Back to your seat at table {kept}.")
            start = ("join", host, port, False, kept)
    if start[0] == "replay":
        say("Replays are shown in the full app only: run motherlode replay without --plain.")
        return 2, None, start
    if start[0] == "hotseat":
        names = ", ".join(n for n, bot in start[1] if not bot)
        say(f"Hot-seat {title(hotseat_games()[0].key)} for {names}: each line that needs "
            "a player starts with their name.")
    elif start[0] == "solo":
        launch.table_options = solo_options(options, start[4] if len(start) > 4 else None)
        pace = launch.table_options["pace"]
        say(f"{spec(start[1]).title} against {start[2]} {settings.difficulty} "
            f"bot{'s' if start[2] != 1 else ''}, at {pace_words(pace)}.")
    try:
        session = await _session(start, launch, say)
    except modes.LaunchFailed as failed:
        say(f"{failed.title}. {failed.body}".replace("\n\n", " "))
        return 1, None, start
    from tui.leagues import host_league, joined_host, local_league, served_league
    from tui.plain.league import LeagueSeat

    where = None if served else joined_host(session)
    read = served_league(served) if served else \
        local_league(launch.saves) if where is None else host_league(session)
    seat = LeagueSeat(out, hotseat=start[0] == "hotseat", read=read, where=where)
    seat.alerts = settings.alerts
    seat.after_leave = "menu" if menu else ""
    _door_signals(seat)
    return await play(session, seat, lines), seat, start


def _door_signals(seat: Any) -> None:
    """A door's signals, as the app takes them (``tui.flows.served``, ``tui.flows.leave``):
    SIGHUP or SIGTERM, the terminal or the tab closed: the connection closes as a dropped
    line does and the seat waits for its player (a keyless SSH login, who cannot come
    back, gives it up); SIGUSR1, the player's line dropped (the app waits for them): the
    seat is away for the others at once; SIGUSR2, they are back."""
    import os
    import signal

    from net.served import KEYLESS_ENV

    loop = asyncio.get_running_loop()
    keyless = os.environ.get(KEYLESS_ENV) == "1"
    handlers = {signal.SIGHUP: lambda: seat.hang_up(give_up=keyless),
                signal.SIGTERM: lambda: seat.hang_up(give_up=keyless),
                signal.SIGUSR1: lambda: seat.session and seat.session.suspend(),
                signal.SIGUSR2: lambda: seat.session and seat.session.wake()}
    for sig, handler in handlers.items():
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, handler)


def run(start: tuple, settings: Any, options: dict[str, Any] | None = None) -> int:
    """The plain seat from the command line; its exit code."""
    try:
        return asyncio.run(run_plain(start, settings, options))
    except KeyboardInterrupt:
        return 130
