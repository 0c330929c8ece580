"""The `motherlode` command line."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING, Any

from net.catalogue import games, hotseat_games, keys, spec

if TYPE_CHECKING:
    import argparse


def build_parser() -> argparse.ArgumentParser:
    import argparse  # not for the menu alone (see main)

    class _Version(argparse.Action):
        """--version, reading the installed version only when asked
        (importlib.metadata is slow to import, and every start would pay for it)."""

        def __call__(self, parser, namespace, values, option_string=None) -> None:
            from importlib.metadata import version

            parser.exit(message=f"{version('motherlode')}\n")

    parser = argparse.ArgumentParser(
        prog="motherlode",
        description="Gold-rush party games for the terminal: "
        f"{' and '.join(spec.title for spec in games())}.",
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and exit")
    parser.add_argument(
        "--ascii", action="store_true", help="draw dice and cards without box-drawing characters"
    )
    parser.add_argument(
        "--plain", action="store_true",
        help="play in plain lines of words (for screen readers, braille displays, scripts "
        "and terminals that cannot draw); TERM=dumb chooses it too")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_app_commands(subparsers)
    from net.cli import add_commands as add_net_commands  # light: argparse only

    add_net_commands(subparsers)  # `host` and `bot`
    from net.saves.cli import add_commands as add_saves_commands  # argparse only

    add_saves_commands(subparsers)  # `games`, `export` and `stats`
    from net.league.cli import add_commands as add_league_commands  # argparse only

    add_league_commands(subparsers)  # `league`
    from serve.cli import add_command as add_serve_command  # light: argparse only

    add_serve_command(subparsers)  # `serve`
    return parser


# -- the terminal app's commands (Textual is imported only when the app runs) -------------

APP_COMMANDS = ("join", "hotseat", "solo", "replay", "served")


def _add_app_commands(subparsers) -> None:
    import argparse

    ascii_flag = {"action": "store_true", "default": argparse.SUPPRESS,
                  "help": "draw dice and cards without box-drawing characters"}
    plain_flag = {"action": "store_true", "default": argparse.SUPPRESS,
                  "help": "play in plain lines of words (see motherlode --help)"}
    join = subparsers.add_parser("join", help="join a LAN game at HOST[:PORT]")
    join.add_argument("address", metavar="HOST[:PORT]", help="the address the host shows")
    join.add_argument("--name", help="your name at the table (default: from Settings)")
    join.add_argument("--watch", action="store_true", help="watch as a spectator")
    join.add_argument("--ascii", **ascii_flag)
    join.add_argument("--plain", **plain_flag)
    shared = hotseat_games()[0]  # the game several people play on one keyboard
    hotseat = subparsers.add_parser(
        "hotseat", help=f"{shared.title} for {shared.seats} on this keyboard")
    hotseat.add_argument("names", nargs="+", metavar="NAME", help="the players, in seat order")
    hotseat.add_argument("--bots", type=int, default=0, help="bots to seat after the players")
    hotseat.add_argument("--ascii", **ascii_flag)
    hotseat.add_argument("--plain", **plain_flag)
    solo = subparsers.add_parser("solo", help="play against bots")
    solo.add_argument("--game", choices=keys(), default=keys()[0])
    solo.add_argument("--bots", type=int, default=None, help="how many bots (default " + ", ".join(
        f"{spec.solo_bots} for {spec.title}" for spec in games()) + ")")
    solo.add_argument("--ascii", **ascii_flag)
    solo.add_argument("--bot-pace", type=float, default=None, metavar="SECONDS",
                      help="seconds a turn-taking bot waits before each move (0 to 10)")
    solo.add_argument("--seed", default=None, metavar="S",
                      help="deal the game from this seed (the same game every time)")
    solo.add_argument("--plain", **plain_flag)
    solo.add_argument("--name", help="your name at the table (default: from Settings)")
    solo.add_argument("--pace", choices=("normal", "steady", "relaxed"), default=None,
                      help="for slower hands: time windows and bots 2x (steady) or 4x "
                      "(relaxed) as slow")
    solo.add_argument("--guided", action="store_true",
                      help="the guided first round again (each step explained, at relaxed "
                      "pace; the rest of the game at --pace, or normal)")
    solo.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                      help="one of the game's own settings, e.g. round_cap=3 (again for more)")
    replay = subparsers.add_parser(
        "replay", help="step through a saved game",
        description="Step through a finished, abandoned or unfinished game: one kept in "
        "the saves database (by its id, or the start of it), or a file that `motherlode "
        "export` wrote.")
    replay.add_argument("file", metavar="ID|FILE", help="a saved game's id, or a .json file")
    replay.add_argument("--seat", type=int, default=None, metavar="N",
                        help="view from seat N (1 is the first); default: as a spectator")
    replay.add_argument("--ascii", **ascii_flag)
    # the app as `motherlode serve` runs it for each SSH or web session (not listed)
    served = subparsers.add_parser("served")
    served.add_argument("--host", required=True)
    served.add_argument("--port", type=int, required=True)
    served.add_argument("--control", required=True, help="the serve host's table directory")
    served.add_argument("--name", default=None, help="the player's name (else asked)")
    served.add_argument("--ascii", **ascii_flag)
    served.add_argument("--plain", **plain_flag)


def _app_start(parser: argparse.ArgumentParser | None, args: Any) -> tuple:
    """What the app opens, from the command line; parser.error() on bad input."""
    if args.command == "join":
        from net.address import parse_address

        try:
            host, port = parse_address(args.address)
        except ValueError as error:
            parser.error(f"join: {error}")
        return ("join", host, port, args.watch)
    if args.command == "hotseat":
        from tui.settings import clean_name

        names = [clean_name(n) for n in args.names]
        if not all(names):
            parser.error("hotseat: every name needs a visible character")
        seats = [(n, False) for n in names] + [(f"Bot {i + 1}", True) for i in range(args.bots)]
        problem = hotseat_games()[0].check_seats(len(seats))
        if problem:
            parser.error(f"hotseat: {problem}")
        return ("hotseat", seats)
    if args.command == "solo":
        game = spec(args.game)
        most = game.high - 1
        bots = args.bots if args.bots is not None else game.solo_bots
        if not 1 <= bots <= most:
            parser.error(f"solo: {game.title} takes 1 to {most} bots, not {bots}")
        guided = (True,) if getattr(args, "guided", False) else ()  # solo --guided
        return ("solo", args.game, bots, *guided)
    if args.command == "replay":
        from pathlib import Path

        seat = None if args.seat is None else args.seat - 1
        if Path(args.file).is_file():
            return ("replay", args.file, seat)  # read by the app: a bad file gets a message
        from net.saves import SaveError, open_game

        try:
            return ("replay", open_game(args.file), seat)
        except SaveError as error:
            parser.error(f"replay: {error}")
    if args.command == "served":
        import signal

        # a door's "your player dropped / is back" must never kill an app still
        # starting (their default action): ignored until the app handles them
        for sig in (signal.SIGUSR1, signal.SIGUSR2):
            signal.signal(sig, signal.SIG_IGN)
        return ("served", args.host, args.port, args.control, args.name is not None)
    return ("menu",)


def run_app(parser: argparse.ArgumentParser | None, args: Any) -> int:
    """Open the terminal app (menu, or the mode a shortcut names)."""
    start = _app_start(parser, args)
    from tui import glyphs
    from tui.settings import Settings, clean_name

    settings = Settings.load()
    if getattr(args, "name", None):
        name = clean_name(args.name)
        if not name:
            parser.error("--name needs a visible character")
        settings.name = name
        settings.named = True  # for this run: the first-run question is not asked
    ascii_mode = bool(getattr(args, "ascii", False)) or settings.ascii or glyphs.ascii_default()
    options = table_options(parser, args)
    from tui.plugin import PluginError, check_all

    try:  # a game plugin the app cannot use fails here, in a sentence
        check_all()
    except PluginError as error:
        print(f"motherlode: {error}", file=sys.stderr)
        return 2
    if plain_wanted(args):
        from tui.plain import run

        return run(start, settings, options)

    restore_terminal()
    from tui.app import MotherlodeApp

    app = MotherlodeApp(settings=settings, ascii_mode=ascii_mode, start=start,
                        table_options=options)
    app.run()
    return app.return_code or 0


def table_options(parser: argparse.ArgumentParser | None, args: Any) -> dict[str, Any]:
    """A local table's options from the command line (``solo --bot-pace --seed``)."""
    options: dict[str, Any] = {}
    pace = getattr(args, "bot_pace", None)
    if pace is not None:
        if not 0 <= pace <= 10 and parser is not None:
            parser.error("--bot-pace is 0 to 10 seconds")
        options["bot_pace"] = pace
    if getattr(args, "seed", None) is not None:
        options["seed"] = args.seed
    if getattr(args, "pace", None) is not None:
        options["pace"] = args.pace
    if getattr(args, "set", None):
        try:
            options.update(spec(args.game).parse_settings(args.set))
        except ValueError as error:
            if parser is None:
                raise
            parser.error(f"--set {error}")
    return options


#: what an app killed mid-game (kill -9, a closed lid) leaves switched on, switched off:
#: the mouse's reports, the alternate screen, bracketed paste, a hidden cursor
RESTORE = ("\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l"
           "\x1b[?1004l\x1b[?1049l\x1b[?25h\x1b[?7h")


def restore_terminal(stream: Any = None) -> bool:
    """Put back a terminal an earlier app left in a bad state (killed before it could
    restore it): the modes above off, and the line discipline's echo and line editing
    on. Only on a terminal; returns whether it did."""
    import os
    import termios

    stream = stream if stream is not None else sys.stdout
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if not os.isatty(fd):
        return False
    with contextlib.suppress(OSError, termios.error):
        attrs = termios.tcgetattr(fd)
        if not attrs[3] & termios.ECHO or not attrs[3] & termios.ICANON:
            attrs[3] |= termios.ECHO | termios.ICANON
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
    stream.write(RESTORE)
    stream.flush()
    return True


def plain_wanted(args: Any) -> bool:
    """The plain seat: asked for (``--plain``), or a terminal that says it cannot draw
    (``TERM=dumb``)."""
    import os

    return bool(getattr(args, "plain", False)) or os.environ.get("TERM", "") == "dumb"


#: what the warm parent imports before it forks (besides each game's table screen)
WARM_MODULES = (
    "textual.app", "textual.drivers.linux_driver", "textual.drivers.web_driver",
    "textual.widgets", "rich.console", "tui.app", "tui.flows.served", "tui.screens.served",
    "tui.screens.menu", "tui.screens.lobby", "tui.games", "tui.settings", "tui.glyphs",
    "net.client", "net.served", "argparse",
    # a served app's first step (``tui.flows.served``: its kept seat, its table) imports
    # the modes, and with them the session and the host's modules: 19 modules built
    # again in every child, 10-40 ms of its first frame and their objects in its
    # private pages (issue 48; tests/serve/test_warm.py checks the flow's imports)
    "tui.modes",
)


def warm_parent(fd: int) -> int:
    """The warm parent of the served apps (:mod:`serve.warm`): import what a served
    app's first frame needs, then fork one app per request on socket ``fd``."""
    import importlib

    for module in WARM_MODULES:
        importlib.import_module(module)
    from net.catalogue import games
    from tui.plugin import game_of

    for game in games():  # each game's own table screen, as the registry finds it
        with contextlib.suppress(ImportError):
            importlib.import_module(f"{type(game_of(game.key)).__module__}.screen")
    build_parser()  # argparse and the commands' modules
    warm_first_frame()
    from serve.warm import serve_forks

    return serve_forks(fd, run=forked_main)


def warm_first_frame() -> None:
    """Draw the menu once, headless, in the warm parent (issue 48): what a first frame
    fills on its way (Textual's and Rich's caches of parsed styles, colours, selectors,
    cell widths and segments, and each widget class's default CSS, parsed once) is then
    in every forked app already, so each app's own first frame costs less CPU. Never
    fatal: a parent that cannot draw forks its apps as they are."""
    import asyncio
    import tempfile
    from pathlib import Path

    from tui.app import MotherlodeApp
    from tui.settings import Settings

    async def draw() -> None:
        with tempfile.TemporaryDirectory(prefix="motherlode-warm-") as folder:
            app = MotherlodeApp(settings=Settings(name="Warm"),
                                settings_path=Path(folder) / "settings.json",
                                announce=False, discover=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()

    with contextlib.suppress(Exception):
        asyncio.run(draw())


def forked_main(argv: list[str]) -> int:
    """One app forked by the warm parent. Textual read its settings from the
    environment when the parent imported it; this app's own environment is read again,
    as a fresh interpreter would: a browser's app has the web driver
    (``TEXTUAL_DRIVER``) and its colours (``TEXTUAL_COLOR_SYSTEM``)."""
    import importlib

    import textual.constants

    importlib.reload(textual.constants)
    return main(argv)


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    # a served app's parent (serve.warm): not a command a person types, so not in --help
    if len(given) == 2 and given[0] == "warm-parent" and given[1].isdigit():
        return warm_parent(int(given[1]))
    if not given:
        # the menu: nothing to parse, so no parser of every command is built (argparse
        # and the commands' modules are a tenth of what the menu adds to a bare app)
        from types import SimpleNamespace

        return run_app(None, SimpleNamespace(command=None, ascii=False, plain=False))
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None or args.command in APP_COMMANDS:
        return run_app(parser, args)
    if args.command in ("host", "bot"):
        from net.cli import run as run_net_command

        return run_net_command(args)
    if args.command in ("games", "export", "stats"):
        from net.saves.cli import run as run_saves_command

        return run_saves_command(args)
    if args.command == "league":
        from net.league.cli import run as run_league_command

        return run_league_command(args)
    if args.command == "serve":
        from serve.cli import run as run_serve

        return run_serve(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
