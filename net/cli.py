"""``motherlode host`` and ``motherlode bot``: a headless host, and a bot over TCP.

``tui.cli`` wires these into the ``motherlode`` command; nothing here imports the
terminal app. The heavy imports happen only when a command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any

from net import gctune
from net.address import DEFAULT_PORT, parse_address
from net.catalogue import DIFFICULTIES, keys, spec, title
from net.table.phase import Phase


def add_commands(subparsers) -> None:
    """Add the ``host`` and ``bot`` subcommands to the ``motherlode`` parser."""
    host = subparsers.add_parser(
        "host",
        help="run a headless host for LAN play",
        description="Run a table that friends join with `motherlode join HOST:PORT`. "
        "Prints the addresses to share, then joins, leaves and results. Ctrl-C closes "
        "it and tells every client.",
    )
    add_host_options(host)
    bot = subparsers.add_parser(
        "bot",
        help="join a table as a bot over TCP",
        description="Join a host's table as a bot player and play until the host closes.",
    )
    bot.add_argument("--connect", metavar="HOST:PORT", required=True, help="the host's address")
    bot.add_argument("--difficulty", choices=DIFFICULTIES, default="normal")
    bot.add_argument("--name", default=None, help="the bot's name (default: Bot <pid>)")
    bot.add_argument("--table", default=None, help="which table (default: the host's first)")
    bot.add_argument(
        "--games",
        type=int,
        default=None,
        metavar="N",
        help="leave after N games (default: stay until the host closes)",
    )
    bot.add_argument(
        "--pace",
        type=float,
        default=0.9,
        metavar="SECONDS",
        help="the pause before each action in a turn-based game (default 0.9; "
        "in a race the bots keep their own speed)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``host`` or ``bot``; returns the exit status."""
    return run_until_done((_host if args.command == "host" else _bot)(args))


def run_until_done(main: Coroutine[Any, Any, int]) -> int:
    """Run a command's coroutine; a second Ctrl-C during its shutdown leaves quietly."""
    try:
        return asyncio.run(main)
    except KeyboardInterrupt:
        return 130


def say(text: str) -> None:
    """A line of the host's running report, with the time."""
    print(f"{time.strftime('%H:%M:%S')}  {text}", flush=True)


# what stops a host cleanly (every player told, every served app hung up on): Ctrl-C,
# a kill, and its terminal closing (without SIGHUP's clean-up a serve's apps outlived it)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def on_stop(stop: asyncio.Event) -> Callable[[], None]:
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)

    def restore() -> None:
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)

    return restore


def add_host_options(parser: argparse.ArgumentParser, *, game_required: bool = True) -> None:
    """The options of a host's table, saves and announcement (``host`` and ``serve``)."""
    parser.add_argument("--game", choices=keys(), required=game_required,
                        default=None, help="which game the table plays")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help="TCP port for players (default 7777)")
    parser.add_argument("--bind", metavar="ADDR", default=None,
                        help="listen on this address only (default: every interface)")
    parser.add_argument("--bots", type=int, default=0, metavar="N", help="bots to seat at once")
    parser.add_argument("--seed", metavar="S", default=None,
                        help="fix the random seed (the table shows it is seeded)")
    parser.add_argument("--name", metavar="TABLE", default=None, help="the table's name")
    parser.add_argument("--seats", type=int, default=None, metavar="N",
                        help="seats at the table (default: the game's maximum)")
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default="normal",
                        help="how well the bots play")
    parser.add_argument("--grace", type=float, default=None, metavar="SECONDS",
                        help="how long a dropped player's seat waits before a bot stands in "
                        "(default: the game's, 15 s for cards and 30 s for dice; 0 to 600)")
    parser.add_argument("--lag-cap", type=float, default=None, metavar="SECONDS",
                        help="the most a grab or call counts earlier than it arrived, for "
                        "its sender's network delay (card races; default 0.15; 0: judge "
                        "races in arrival order; 0 to 0.5)")
    parser.add_argument("--bot-pace", type=float, default=None, metavar="SECONDS",
                        help="seconds a bot waits before each of its turn's moves, so "
                        "people can follow (default 0.9; 0 to 10)")
    parser.add_argument("--pace", choices=("normal", "steady", "relaxed"), default=None,
                        help="the table's pace, for slower hands: its time windows and "
                        "bots 2x (steady) or 4x (relaxed) as slow")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="one of the game's own settings for its table, e.g. "
                        "round_cap=10 or supply=40 (again for more)")
    parser.add_argument("--no-announce", action="store_true",
                        help="do not announce the tables on the LAN")
    parser.add_argument("--resume", action="store_true",
                        help="restore every unfinished table an earlier host saved (after a "
                        "crash or Ctrl-C); the players come back to their seats")
    parser.add_argument("--no-save", action="store_true",
                        help="do not save the tables (then a crashed game cannot be resumed)")


async def open_host(args: argparse.Namespace, prog: str = "motherlode host") -> Any:
    """A listening ``net.lan.LanHost`` with the table ``args`` ask for (none without
    ``--game``): returns ``(lan, table, restored)``, or an exit status after saying
    what was wrong on stderr."""
    from net import budgets
    from net import saves as store_db
    from net.lan import LanHost
    from net.table import Refusal

    # one ledger of connections for the host and, under serve, its doors
    budgets.raise_nofile()
    budgets.set_ledger(budgets.Ledger())
    budgets.guard_accept()

    seats = None
    if args.game is not None:
        game = spec(args.game)
        seats = args.seats if args.seats is not None else game.high
        problem = game.check_seats(seats)
        if problem:
            print(f"{prog}: {problem}", file=sys.stderr)
            return 2
        if not 0 <= args.bots <= seats:
            print(f"{prog}: --bots must be 0 to {seats}", file=sys.stderr)
            return 2
    if args.grace is not None and not 0 <= args.grace <= 600:
        print(f"{prog}: --grace is 0 to 600 seconds", file=sys.stderr)
        return 2
    # folders others can write to are fixed (ours) or refused (theirs): the person is told
    from net.paths import UnsafeDir, check_dirs, data_dir
    from net.seats import state_dir

    try:
        notes = check_dirs((data_dir(), "the data folder"), (state_dir(), "the state folder"))
    except UnsafeDir as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"{prog}: {note}", file=sys.stderr)
    lag_cap = getattr(args, "lag_cap", None)
    if lag_cap is not None and not 0 <= lag_cap <= 0.5:
        print(f"{prog}: --lag-cap is 0 to 0.5 seconds", file=sys.stderr)
        return 2
    bot_pace = getattr(args, "bot_pace", None)
    if bot_pace is not None and not 0 <= bot_pace <= 10:
        print(f"{prog}: --bot-pace is 0 to 10 seconds", file=sys.stderr)
        return 2
    own: dict[str, Any] = {}
    if getattr(args, "set", None):
        if args.game is None:
            print(f"{prog}: --set is for the --game table's own settings", file=sys.stderr)
            return 2
        try:
            own = spec(args.game).parse_settings(args.set)
        except ValueError as exc:
            print(f"{prog}: --set {exc}", file=sys.stderr)
            return 2
    # every table is saved after every change (net.saves), so --resume can restore it
    store = None if args.no_save else store_db.Store.default("tables", report=say)
    saves: list[store_db.Saved] = []
    if store is not None:
        try:
            store.check()  # a damaged database is named here, and kept as it was
        except store_db.SaveError as exc:
            print(f"{prog}: {exc}. `{prog} --no-save` hosts without saves.", file=sys.stderr)
            return 1
    if args.resume:
        saves, problems = store_db.load_all(store or store_db.Store.default("tables"))
        for problem in problems:
            print(f"{prog}: not restored: {problem}", file=sys.stderr)
        if not saves:
            print(f"{prog}: --resume found no unfinished table to restore.")
    elif store is not None and store.unfinished():
        count = len(store.unfinished())
        print(f"{count} unfinished table{'s are' if count > 1 else ' is'} saved; "
              f"`{prog} --resume` restores them.")  # fmt: skip
    lan = LanHost(saves=saves, save=not args.no_save, store=store, report=say,
                  ledger=budgets.ledger())
    for problem in lan.problems:
        print(f"{prog}: not restored: {problem}. The save is kept.", file=sys.stderr)
    restored = [table for table, _ in lan.restored]
    table = None
    if args.game is not None:
        name = args.name or f"{title(args.game)} table"
        table = next((t for t in restored if t.name.casefold() == name.casefold()), None)
        if table is None:
            try:
                more = {} if args.grace is None else {"grace": args.grace}
                if lag_cap is not None:
                    more["lag_cap"] = lag_cap
                if bot_pace is not None:
                    more["bot_pace"] = bot_pace
                more.update(own)
                if getattr(args, "pace", None) is not None:
                    more["pace"] = args.pace
                table = lan.host.create_table(
                    name, args.game, seats=seats, bots=args.bots, difficulty=args.difficulty,
                    seed=args.seed, **more,
                )  # fmt: skip
            except (ValueError, Refusal) as exc:
                print(f"{prog}: {exc}", file=sys.stderr)
                return 2
    try:
        await lan.listen(args.bind, args.port)
    except OSError as exc:
        print(f"{prog}: cannot listen on port {args.port}: {exc.strerror or exc}. "
              "Try another --port.", file=sys.stderr)  # fmt: skip
        return 1
    for old in restored:
        where = f"after {old.moves} moves" if old.phase == Phase.PLAYING else "outside a game"
        print(f"Restored {title(old.game)} at {old.name!r} {where}: "
              "the players reconnect to their seats.")  # fmt: skip
    return lan, table, restored


async def _host(args: argparse.Namespace) -> int:
    opened = await open_host(args)
    if isinstance(opened, int):
        return opened
    lan, table, restored = opened
    print(f"Motherlode is hosting {title(table.game)} at the table {table.name!r}.")
    print("Friends join with `motherlode join ADDRESS`, using one of:")
    for address in lan.addresses():
        print(f"  {address}")
    print("Ctrl-C closes the table.", flush=True)
    if not args.no_announce:
        await lan.announce()
    if table not in restored and args.bots == table.settings.seats:
        lan.host.start_game(table)  # every seat is a bot: a match to watch
    gctune.settle()  # start-up built: freeze it, young collections only (net.gctune)
    sweep = asyncio.create_task(gctune.sweeper())
    stop = asyncio.Event()
    restore = on_stop(stop)
    try:
        await stop.wait()
    finally:
        sweep.cancel()
        restore()
        say("closing: telling every client goodbye")
        await lan.close("shutdown")
    return 0


async def _bot(args: argparse.Namespace) -> int:
    import os

    from net import protocol as p
    from net.botclient import run_bot
    from net.client import Client, NetError

    try:
        host, port = parse_address(args.connect)
    except ValueError as exc:
        print(f"motherlode bot: {exc}", file=sys.stderr)
        return 2
    name = args.name or f"Bot {os.getpid() % 1000}"
    try:
        client = await Client.connect(host, port, name, table=args.table)
    except NetError as exc:
        print(f"motherlode bot: {exc.message}", file=sys.stderr)
        return 1
    welcome = client.welcome
    assert welcome is not None
    say(f"seated at {welcome.table.name!r} as {welcome.name} (seat {welcome.seat})")
    stop = asyncio.Event()
    restore = on_stop(stop)

    def result(over: p.Over) -> None:
        won = client.seat in over.winners
        say(f"game over: {'won' if won else 'lost'}; scores {over.scores}")

    play = asyncio.create_task(
        run_bot(client, args.difficulty, games=args.games, on_over=result, pace=args.pace)
    )
    halt = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([play, halt], return_when=asyncio.FIRST_COMPLETED)
    finally:
        restore()
        halt.cancel()
        play.cancel()
        with contextlib.suppress(Exception):
            await client.send(p.Leave())  # give the seat up rather than leave it away
        await client.close()
    return 0
