"""The plain seat (``motherlode --plain``, ``join --plain``, ``TERM=dumb``, and the SSH
door's ``plain`` command): every way of playing, in lines of words (``seat``).

:func:`run` opens what the command line asked for through the app's own launchers
(``tui.modes``) and plays it at a :class:`~tui.plain.seat.PlainSeat`; with nothing
asked, a menu of numbered lines comes first. No line it writes moves the cursor,
erases or switches screens, and no colour carries meaning: there is no colour.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, TextIO

from net.catalogue import games, hotseat_games, spec, title

MENU_HELP = ("Type a number, or: hotseat NAME NAME..., join ADDRESS, watch ADDRESS, "
             "quit.")


def _menu_lines() -> list[str]:
    lines = [f"{i + 1} {g.title} against {g.solo_bots} bot"
             f"{'s' if g.solo_bots != 1 else ''} ({g.seats})" for i, g in enumerate(games())]
    if hotseat_games():
        lines.append(f"hotseat NAME NAME... {hotseat_games()[0].title} on this keyboard")
    lines += ["join ADDRESS  a game on the network (watch ADDRESS to watch it)", "quit"]
    return lines


class Lines:
    """The person's lines, read on a thread (a closed input ends the seat)."""

    def __init__(self, stream: TextIO) -> None:
        import threading

        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def read() -> None:
            for line in stream:
                loop.call_soon_threadsafe(self.queue.put_nowait, line)
            loop.call_soon_threadsafe(self.queue.put_nowait, None)

        threading.Thread(target=read, daemon=True).start()

    async def next(self) -> str | None:
        return await self.queue.get()

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
    """The plain menu: a start tuple as ``tui.cli._app_start`` gives, or None to quit."""
    from net.address import parse_address
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
        if head.isdigit() and 1 <= int(head) <= len(games()):
            game = games()[int(head) - 1]
            return ("solo", game.key, game.solo_bots)
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
        say(f"{text.strip()!r} is not on the menu. " + MENU_HELP)


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
        command = await lines.command()
        if command is None:
            return None
        text, words, head = command
        if not words:
            continue
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
            say(f"{text.strip()!r}: not a table or a command here.")


async def _ask_name(say: Any, lines: Lines) -> str | None:
    """The player's name, asked in a line (a browser's first visit)."""
    from tui.settings import clean_name

    say("What is your name? Type it and press enter.")
    while True:
        text = await lines.next()
        if text is None:
            return None
        name = clean_name(text)
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
    from tui.plain.seat import PlainSeat, Printer, play
    from tui.saves import Saves

    say = Printer(out).line
    lines = Lines(stream)
    launch = modes.Launch(name=settings.name, difficulty=settings.difficulty, saves=Saves(),
                          table_options=dict(options or {}))
    if start[0] == "menu":
        chosen = await _choose(say, lines, settings.difficulty)
        if chosen is None:
            return 0
        start = chosen
    if start[0] == "served":
        _, host, port, control, named = start
        from tui.flows.served import ServedFlow

        ServedFlow.bind_link(control)
        if not named and not settings.named:
            name = await _ask_name(say, lines)
            if name is None:
                return 0
            settings.name = launch.name = name
        chosen = await _served(say, lines, control, settings.name)
        if chosen is None:
            return 0
        start = ("join", host, port, chosen[2], chosen[1])
    if start[0] == "replay":
        say("Replays are shown in the full app only: run motherlode replay without --plain.")
        return 2
    if start[0] == "hotseat":
        names = ", ".join(n for n, bot in start[1] if not bot)
        say(f"Hot-seat {title(hotseat_games()[0].key)} for {names}: each line that needs "
            "a player starts with their name.")
    elif start[0] == "solo":
        say(f"{spec(start[1]).title} against {start[2]} {settings.difficulty} "
            f"bot{'s' if start[2] != 1 else ''}.")
    try:
        session = await _session(start, launch, say)
    except modes.LaunchFailed as failed:
        say(f"{failed.title}. {failed.body}".replace("\n\n", " "))
        return 1
    seat = PlainSeat(out, hotseat=start[0] == "hotseat")
    return await play(session, seat, lines)


def run(start: tuple, settings: Any, options: dict[str, Any] | None = None) -> int:
    """The plain seat from the command line; its exit code."""
    try:
        return asyncio.run(run_plain(start, settings, options))
    except KeyboardInterrupt:
        return 130
