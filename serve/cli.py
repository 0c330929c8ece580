"""``motherlode serve``: the usual host, plus front doors that need nothing installed.

Friends type ``ssh -p 2222 NAME@HOST`` (``serve.ssh``) or, with ``--web``, open
``http://HOST:8080`` (``serve.web``); both doors are opened, listed and closed through
one interface (``serve.door.Door``). Each session runs the app in served mode
(``motherlode served``) in a process of its own, which plays as a normal TCP client of
the host on loopback: seats, tokens, reconnects and spectators work as on the LAN.
``net.served`` lists and opens tables for those apps.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from net import gctune
from net.catalogue import spec
from net.cli import add_host_options, on_stop, open_host, run_until_done, say

if TYPE_CHECKING:  # light: the command line is read before any door is opened
    from serve.door import Door
    from serve.via import Tunnel
    from serve.warm import WarmParent

SHUTDOWN = "The Motherlode server is shutting down. Thanks for playing!"
SHUTDOWN_KEPT = ("The Motherlode server is stopping. It keeps the games in play: once it is "
                 "back, ssh again the same way and you are back in your seat.")
#: the same words for a door's players, where its way back is not ssh (the web's)
SHUTDOWN_BY_DOOR = {
    "web": ("The Motherlode server stopped. Thanks for playing!",
            "The Motherlode server stopped. It keeps the games in play: once it is back, "
            "open this page again and you are back in your seat."),
}


def add_command(subparsers) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="host games friends join with plain ssh or a browser (nothing to install)",
        description="Run the usual host (saves, --resume, bots, LAN announcement) plus an "
        "SSH front door (and, with --web, a web one): friends type `ssh -p 2222 NAME@HOST` "
        "and play, with nothing installed. Ctrl-C tells every player and closes.",
    )
    add_host_options(serve, game_required=False)
    serve.add_argument("--ssh", type=int, default=2222, metavar="PORT",
                       help="the SSH door's port (default 2222)")
    serve.add_argument("--web", type=int, default=None, metavar="PORT",
                       help="also open a web door on this port (needs the `web` extra)")
    serve.add_argument("--max-sessions", type=int, default=16, metavar="N",
                       help="players at once over SSH, and over the web (default 16)")
    serve.add_argument("--authorized-keys", metavar="FILE", default=None,
                       help="admit only the SSH keys in this authorized_keys file")
    serve.add_argument("--password", action="store_true",
                       help="ask for a shared password (from $MOTHERLODE_SERVE_PASSWORD or "
                       "typed now); keys already pinned here need none")
    serve.add_argument("--keep-detached", type=float, default=600.0, metavar="SECONDS",
                       help="how long a dropped SSH player's game waits for them (default 600)")
    serve.add_argument("--cold", action="store_true",
                       help="start each player's app (SSH and web) in a fresh interpreter, "
                       "not forked from a warm parent (slower to start, more memory)")
    serve.add_argument("--via", metavar="[USER@]HOST[:PORT]", default=None,
                       help="also serve friends outside this network through an SSH host "
                       "you can log into: serve logs in as your ssh would (~/.ssh/config, "
                       "known_hosts, your keys or agent) and asks it to listen on the "
                       "doors' ports. Its sshd needs `GatewayPorts clientspecified` "
                       "(README: Play from home)")


#: the product's console script (``[project.scripts]`` in pyproject.toml)
SCRIPT = "motherlode"
#: the same entry point, started through this interpreter when no script is found
_BY_METADATA = ("import sys; from importlib.metadata import entry_points; "
                f"sys.exit(next(iter(entry_points(group='console_scripts', name={SCRIPT!r})))"
                ".load()())")  # fmt: skip


def app_command() -> list[str]:
    """How to start the product's app: by its entry point, as a person would, never by
    importing a floor above the doors. A frozen build is its own program; otherwise
    the console script installed beside this interpreter (the same install), else the
    entry point read from the install's metadata."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = Path(sys.executable).with_name(SCRIPT)
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", _BY_METADATA]


def can_fork() -> bool:
    """Whether a warm parent can fork the apps here (``serve.warm``: Linux's pidfds)."""
    return hasattr(os, "fork") and hasattr(os, "pidfd_open")


def warm_parent() -> WarmParent:
    """The warm parent the doors fork their apps from: the product's own entry point
    (``motherlode warm-parent FD``), started with the server's environment minus what
    describes the server's terminal, as an app's is."""
    from serve.ssh.environment import SERVER_TERMINAL_ENV
    from serve.warm import WARM_PARENT, WarmParent

    env = {k: v for k, v in os.environ.items()
           if k not in SERVER_TERMINAL_ENV and not k.startswith(("LC_", "MOTHERLODE_"))}
    command = app_command()
    return WarmParent([*command, WARM_PARENT], skip=len(command), env=env)


def served_command(host: str, port: int, control: Path, name: str | None) -> list[str]:
    """The argv of one served app (:func:`app_command`, then ``served``)."""
    argv = [*app_command(), "served"]
    argv += ["--host", host, "--port", str(port), "--control", str(control)]
    if name is not None:
        argv.append(f"--name={name}")  # one word: a name like "-rf" or "--help" stays a name
    return argv


def run(args: argparse.Namespace) -> int:
    return run_until_done(_serve(args))


def _fail(text: str, code: int = 2) -> int:
    print(f"motherlode serve: {text}", file=sys.stderr)
    return code


def _authorized(path: str) -> set[str] | int:
    import asyncssh

    try:
        keys = asyncssh.read_public_key_list(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        return _fail(f"cannot read --authorized-keys {path}: {error}")
    if not keys:
        return _fail(f"--authorized-keys {path} holds no key")
    return {key.get_fingerprint() for key in keys}


def _password() -> str | int:
    password = os.environ.get("MOTHERLODE_SERVE_PASSWORD")
    if password is None:
        if not sys.stdin.isatty():
            return _fail("--password: set $MOTHERLODE_SERVE_PASSWORD or run in a terminal")
        import getpass

        password = getpass.getpass("Shared password for players: ")
    if len(password) < 8:
        return _fail("--password: use at least 8 characters")
    os.environ.pop("MOTHERLODE_SERVE_PASSWORD", None)  # no app inherits the secret
    return password


async def _serve(args: argparse.Namespace) -> int:
    if args.max_sessions < 1:
        return _fail("--max-sessions must be at least 1")
    if args.keep_detached < 0:
        return _fail("--keep-detached cannot be negative")
    tunnel = None
    if args.via is not None:  # the relay first: its host key may need a yes from you
        tunnel = await _relay(args.via)
        if isinstance(tunnel, int):
            return tunnel
    try:
        return await _serve_doors(args, tunnel)
    finally:
        if tunnel is not None:
            await tunnel.close()  # the listeners on the relay close


async def _relay(via: str) -> Tunnel | int:
    """The tunnel to the relay, logged in (an exit status if it cannot be)."""
    from serve.via import HostKeyRefused, Relay, RelayError, Tunnel, parse_relay

    try:
        address = parse_relay(via)
    except ValueError as error:
        return _fail(f"--via: {error}")
    try:
        tunnel = Tunnel(Relay(address, say), say)
        await tunnel.open(_ask if sys.stdin.isatty() else None)
    except HostKeyRefused as error:
        print(error, file=sys.stderr)  # ssh's own words, as ssh prints them
        return _fail(f"--via {via}: the relay's host key is not trusted; nothing was "
                     "opened", 1)
    except RelayError as error:
        return _fail(f"--via {via}: {error}", 1)
    say(f"logged in to {tunnel.relay.user}@{tunnel.relay.name} for the tunnel")
    return tunnel


async def _ask(question: str) -> str | None:
    """``question`` on the terminal; the line typed, or None at its end (ssh asks on
    the terminal the same way). The loop reads the terminal: no thread waits on it."""
    print(question, end="", file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    fd = sys.stdin.fileno()
    line = loop.create_future()

    def readable() -> None:
        data = os.read(fd, 1024)
        if not line.done():
            line.set_result(data.decode(errors="replace") if data else None)

    loop.add_reader(fd, readable)
    try:
        return await line
    finally:
        loop.remove_reader(fd)


async def _serve_doors(args: argparse.Namespace, tunnel: Tunnel | None) -> int:
    from net import budgets
    from net.discovery import local_addresses
    from net.lan import ANY
    from net.paths import data_dir
    from net.served import TableDirectory
    from serve.ssh import DoorConfig, DoorError, SSHDoor
    from serve.warm import Warm

    authorized = None
    if args.authorized_keys is not None:
        authorized = _authorized(args.authorized_keys)
        if isinstance(authorized, int):
            return authorized
    password = None
    if args.password:
        password = _password()
        if isinstance(password, int):
            return password
    root = data_dir() / "serve"
    from net.paths import UnsafeDir, check_dirs

    try:
        for note in check_dirs((root, "the serve folder"), (root / "players", "the players' "
                                                           "folder")):
            print(f"motherlode serve: {note}", file=sys.stderr)
    except UnsafeDir as error:
        return _fail(str(error), 1)
    config = DoorConfig(max_sessions=args.max_sessions, keep_detached=args.keep_detached)
    opened = await open_host(args, "motherlode serve")
    if isinstance(opened, int):
        return opened
    lan, table, restored = opened
    game_host = "127.0.0.1" if lan.bind in ANY else str(lan.bind)
    run_dir = Path(tempfile.mkdtemp(prefix="motherlode-serve-"))  # 0700; short for AF_UNIX
    control = run_dir / "tables.sock"
    table_settings = {} if args.grace is None else {"grace": args.grace}
    for setting in ("lag_cap", "bot_pace", "pace"):  # the tables' defaults, as typed
        if getattr(args, setting, None) is not None:
            table_settings[setting] = getattr(args, setting)
    own = {}
    if args.game is not None and getattr(args, "set", None):
        own[args.game] = spec(args.game).parse_settings(args.set)  # checked by open_host
    directory = TableDirectory(lan.host, settings=table_settings, own=own)
    doors: list[Door] = []  # opened in order, closed in reverse
    # the one warm parent both doors fork their players' apps from (``serve.warm``)
    warm = None if args.cold or not can_fork() else Warm(warm_parent, say)
    try:
        await directory.start(control)
        try:
            ssh = SSHDoor(lambda name: served_command(game_host, lan.port, control, name),
                          root, config=config, authorized=authorized, password=password,
                          report=say, ledger=budgets.ledger(), links=directory.links,
                          warm=warm)
        except DoorError as error:
            return _fail(str(error), 1)
        failed = await _open(doors, ssh, args.bind, args.ssh, "SSH", "--ssh")
        if failed is not None:
            return failed
        if args.web is not None:
            try:
                from serve.web import WebDoor
            except ImportError:
                return _fail("--web needs the web extra: pip install 'motherlode[web]'", 1)
            web = WebDoor(served_command(game_host, lan.port, control, None),
                          max_sessions=args.max_sessions, password=password,
                          ledger=budgets.ledger(), links=directory.links, root=root,
                          warm=warm)
            if lan.host.store is not None:  # the standings for a TV: /league
                from serve.web.league import LeaguePage

                web.league = LeaguePage(lan.host.store)
                lan.host.league.on_rated(web.league.rated)
            failed = await _open(doors, web, args.bind, args.web, "the web", "--web")
            if failed is not None:
                return failed
        checked = None  # (friends can come in, the check's words)
        if tunnel is not None:
            through = await _through(tunnel, doors, lan)
            if isinstance(through, int):
                return through
            checked = through
        shown = (local_addresses() or ["127.0.0.1"]) if args.bind in ANY else [args.bind]
        if table is not None:
            print(f"Motherlode serves the table {table.name!r}; players start more.")
        else:
            print("Motherlode is serving; players start tables from the menu.")
        if checked is not None and checked[0]:
            _invite_through(tunnel, doors, lan.port)
        elif checked is not None:  # the relay's addresses are no use yet: why first
            print(checked[1])
            _invite_through(tunnel, doors, lan.port, later=True)
        print("Friends play with nothing installed, using one of:" if tunnel is None else
              "Friends on this network, using one of:")
        for address in shown:
            for door in doors:
                print(f"  {door.invite(address)}")
        for door in doors:
            for line in door.notes():
                print(line)
        print("With Motherlode installed, they can also join over the LAN:")
        for address in lan.addresses():
            print(f"  motherlode join {shlex.quote(address)}")
        if checked is not None and checked[0]:
            print(checked[1])
        print("Ctrl-C tells every player and closes.", flush=True)
        if not args.no_announce:
            await lan.announce()
        if table is not None and table not in restored and args.bots == table.settings.seats:
            lan.host.start_game(table)
        gctune.settle()  # start-up built: freeze it, young collections only (net.gctune)
        sweep = asyncio.create_task(gctune.sweeper())
        stop = asyncio.Event()
        restore = on_stop(stop)
        try:
            await stop.wait()
        finally:
            sweep.cancel()
            restore()
            say("closing: telling every player goodbye")
        return 0
    finally:
        host = lan.host
        kept = host.store is not None and any(
            t.phase == "playing" for t in host.tables.tables.values())
        for door in reversed(doors):
            words = SHUTDOWN_BY_DOOR.get(door.name, (SHUTDOWN, SHUTDOWN_KEPT))
            await door.stop(words[1] if kept else words[0])
        if warm is not None:
            await warm.close()
        await directory.close()
        await lan.close("shutdown")
        with_suppressed_rmdir(run_dir)


async def _through(tunnel: Tunnel, doors: list[Door], lan: Any) -> tuple[bool, str] | int:
    """Ask the relay to listen on every door's port and the LAN port, then check from
    outside that each reaches its door: whether friends can come in, and the verdict in
    words (an exit status if the relay refuses a port). Each time the tunnel comes back
    it is checked again."""
    from serve.via import Forward, RelayError, check, reachable, stream_protocol, verdict

    forwards = []
    for door in doors:
        forwards.append(Forward(door.name, door.port, door.forwarded,
                                fingerprint=getattr(door, "fingerprint", None),
                                mark=getattr(door, "mark", None)))
        if hasattr(door, "allow_hosts"):
            door.allow_hosts(tunnel.names)
    forwards.append(Forward("lan", lan.port, lambda: stream_protocol(lan.host.serve)))
    try:
        await tunnel.listen(forwards)
    except RelayError as error:
        return _fail(f"--via: {error}", 1)

    async def again() -> None:
        outcome = verdict(await check(tunnel), tunnel.relay.name)
        say(outcome)

    def recheck() -> None:
        task = asyncio.create_task(again())
        _checks.add(task)
        task.add_done_callback(_checks.discard)

    tunnel.on_back = recheck
    outcomes = await check(tunnel)
    return reachable(outcomes), verdict(outcomes, tunnel.relay.name)


_checks: set[asyncio.Task] = set()  # the checks after a reconnect, while they run


def _invite_through(tunnel: Tunnel, doors: list[Door], port: int, later: bool = False) -> None:
    """What to tell friends anywhere: the doors at the relay's name (``later``: once
    the relay is mended, as the words before said)."""
    from net.client_hello import format_address

    name = tunnel.relay.name
    print(f"Once that is done, friends anywhere play through {name} using one of:" if later
          else f"Friends anywhere play through {name}, with nothing installed, using one of:")
    for door in doors:
        print(f"  {door.invite(name)}")
    print(f"  (or, with Motherlode installed: motherlode join "
          f"{shlex.quote(format_address(name, port))})")


async def _open(doors: list[Door], door: Door, bind: str | None, port: int, what: str,
                option: str) -> int | None:
    """Open ``door`` on ``port`` and add it to ``doors`` (closed at the end, opened or
    not); the exit status if it cannot listen, in words naming ``what`` it is."""
    doors.append(door)
    try:
        await door.start(bind, port)
    except OSError as error:
        return _fail(f"cannot listen for {what} on port {port}: "
                     f"{error.strerror or error}. Try another {option}.", 1)
    return None


def with_suppressed_rmdir(path: Path) -> None:
    try:
        for entry in path.iterdir():
            entry.unlink()
        path.rmdir()
    except OSError:
        pass
