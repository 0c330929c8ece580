"""Opening each mode: local play on an in-process host, hosting on the LAN, joining.

Every mode ends in a `Link` around a `net.client.Client`; only what runs the host
differs. Failures to connect become a clear message on screen.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from net import protocol as p
from net.client import Client, NetError, TableFull, Unreachable, VersionMismatch
from net.host import Host
from tui.link import Link
from tui.screens.common import PickScreen
from tui.screens.join import JoinScreen

if TYPE_CHECKING:
    from tui.app import MotherlodeApp

log = logging.getLogger("motherlode.tui")

TITLES = {"nuggets": "Gold Nuggets", "foolsgold": "Fool's Gold"}
MAX_BOTS = {"nuggets": 4, "foolsgold": 7}


def failure_text(error: NetError) -> tuple[str, str]:
    """(title, body) for a connection that failed."""
    if isinstance(error, Unreachable):
        return "Cannot reach the host", (
            f"{error.message}\n\nCheck the address, that the host is running, and that both "
            "machines are on the same network (a firewall may block the port)."
        )
    if isinstance(error, VersionMismatch):
        return "Different versions", f"{error.message}\n\nUse the same Motherlode version on both."
    if isinstance(error, TableFull):
        return "The table is full", (
            f"{error.message}\n\nTo watch instead: motherlode join HOST:PORT --watch"
        )
    return "The host refused", error.message


def open_mode(app: MotherlodeApp, choice: str, *args: Any) -> None:
    """Open a menu choice or a command-line shortcut."""
    if choice == "hotseat":
        seats = args[0]
        app.run_worker(start_hotseat(app, seats), group="mode", exclusive=True)
    elif choice in ("nuggets-bots", "foolsgold-bots"):
        game = choice.split("-")[0]
        choices = [(n, f"{n} bot{'s' if n > 1 else ''}") for n in range(1, MAX_BOTS[game] + 1)]

        def picked(bots: int | None) -> None:
            if bots:
                app.run_worker(start_solo(app, game, bots), group="mode", exclusive=True)

        app.push_screen(PickScreen(f"{TITLES[game]}: how many bots?", choices), picked)
    elif choice == "solo":
        game, bots = args
        app.run_worker(start_solo(app, game, bots), group="mode", exclusive=True)
    elif choice == "host":
        pick_lan_game(app)
    elif choice == "resume":
        pick_resume(app)
    elif choice == "replay":
        open_replay(app, args[0], args[1] if len(args) > 1 else None)
    elif choice == "join" and not args:
        app.push_screen(JoinScreen())
    elif choice == "join":
        host, port = args[0], args[1]
        spectate = bool(args[2]) if len(args) > 2 else False
        app.run_worker(join(app, host, port, spectate=spectate), group="mode", exclusive=True)
    else:
        app.notify(f"Unknown choice {choice!r}", severity="error")


def open_replay(app: MotherlodeApp, path: Any, seat: int | None = None) -> None:
    """Step through a saved game (``motherlode replay FILE``); a file that does not
    replay gets a message, never a traceback."""
    from net.persist import Saved, SaveError
    from tui.screens.replay import Replay, replay_screen

    try:
        replay = Replay(Saved.load(path))
    except SaveError as error:
        app.show_message("Cannot replay that file", str(error))
        return
    if seat is not None and not 0 <= seat < len(replay.names):
        app.show_message("No such seat", f"That game has seats 1 to {len(replay.names)}.")
        return
    app.push_screen(replay_screen(replay, seat, ascii_mode=app.ascii_mode))


def _new_host(app: MotherlodeApp) -> Host:
    return Host(clock=app.host_clock)


async def _local(app: MotherlodeApp, game: str, seats: int, mode: str, setup: list[Any],
                 **settings: Any) -> None:
    if mode == "hotseat":  # saved after every move: the menu offers to resume it
        from net import persist

        host = persist.saving_host(persist.Store.default("hotseat"), clock=app.host_clock)
    else:
        host = _new_host(app)
    options = {"difficulty": app.settings.difficulty, **app.table_options, **settings}
    host.create_table(TITLES[game], game, seats=seats, **options)
    try:
        client = await Client.local(host, app.settings.name, clock=app.client_clock)
    except NetError as error:
        await host.close()
        app.show_message(*failure_text(error))
        return
    app.attach(Link(app, client, mode=mode, host=host, setup=[*setup, p.Start()]))


async def start_hotseat(app: MotherlodeApp, seats: list[tuple[str, bool]]) -> None:
    """Gold Nuggets on this keyboard: the first person connects, the rest are seated
    by the same connection (`add_local`), bots by `add_bot`, in the order given."""
    people = [name for name, bot in seats if not bot]
    first = people[0]
    setup: list[Any] = []
    skipped = False
    for name, bot in seats:
        if not bot and name == first and not skipped:
            skipped = True  # the connecting player holds seat 0
            continue
        setup.append(p.AddBot() if bot else p.AddLocal(name=name))
    app.settings.name = first
    await _local(app, "nuggets", len(seats), "hotseat", setup, hotseat=True)


def saved_hotseat() -> list[Any]:
    """The saved hot-seat games that read, newest first."""
    from net import persist

    saves, _ = persist.load_all(persist.Store.default("hotseat"))
    return saves[::-1]


def pick_resume(app: MotherlodeApp) -> None:
    """Choose a saved hot-seat game and play on."""
    saves = saved_hotseat()
    if not saves:
        app.show_message("No saved games", "Hot-seat games are saved as you play; none is "
                         "waiting to be finished.")
        return
    choices = [(i, saved.describe()) for i, saved in enumerate(saves)]

    def chosen(index: int | None) -> None:
        if index is not None:
            app.run_worker(resume_hotseat(app, saves[index]), group="mode", exclusive=True)

    app.push_screen(PickScreen("Resume which game?", choices), chosen)


async def resume_hotseat(app: MotherlodeApp, saved: Any) -> None:
    """Play on a saved hot-seat game: the host restores it, and this keyboard takes
    its seats back with the saved token."""
    from net import persist

    clock = app.host_clock or persist.resumed_clock([saved])
    host = persist.saving_host(persist.Store.default("hotseat"), clock=clock)
    try:
        table = host.restore(saved)
        tokens = sorted(set(saved.seat_tokens().values()))
        if not tokens:
            raise persist.SaveError("nobody at that table can take a seat back")
        client = await Client.local(host, "resume", table=table.name, token=tokens[0],
                                    clock=app.client_clock)
    except (persist.SaveError, NetError) as error:
        await host.close()
        app.show_message("Cannot resume that game", getattr(error, "message", str(error)))
        return
    app.attach(Link(app, client, mode="hotseat", host=host))


async def start_solo(app: MotherlodeApp, game: str, bots: int) -> None:
    """One person against `bots` bots of the chosen difficulty."""
    await _local(app, game, bots + 1, "solo", [p.AddBot() for _ in range(bots)])


def pick_lan_game(app: MotherlodeApp) -> None:
    """Host a LAN game: offer to restore the saved tables if there are any."""
    from net import persist

    saves, problems = persist.load_all(persist.Store.default("tables"))
    choices = [(0, "Gold Nuggets (2-5 players)"), (1, "Fool's Gold (2-8 players)")]

    def chosen(index: int | None) -> None:
        if index is not None:
            game = ("nuggets", "foolsgold")[index]
            app.run_worker(start_lan_host(app, game), group="mode", exclusive=True)

    def restore_or_new(index: int | None) -> None:
        if index == 0:
            app.run_worker(start_lan_host(app, None, saves), group="mode", exclusive=True)
            return
        if index == 2:
            store = persist.Store.default("tables")
            for saved in saves:
                if saved.path is not None:
                    store.abandon(saved.path)
            app.notify("The saved tables are kept as abandoned games, for replays.")
        if index in (1, 2):
            app.push_screen(PickScreen("Host which game?", choices), chosen)

    if problems:
        app.notify(problems[0], severity="warning")
    if not saves:
        app.push_screen(PickScreen("Host which game?", choices), chosen)
        return
    listed = "; ".join(saved.describe() for saved in saves[:3])
    app.push_screen(PickScreen(f"Saved LAN tables: {listed}", [
        (0, f"Restore {len(saves)} saved table{'s' if len(saves) > 1 else ''}: "
            "players come back to their seats"),
        (1, "Start a new table (keep the saves)"),
        (2, "Start a new table and give up the saved ones"),
    ]), restore_or_new)


async def start_lan_host(app: MotherlodeApp, game: str | None, saves: Any = ()) -> None:
    """A TCP host in this process, announced on the LAN; you play at seat 0. With
    ``saves``, it restores those tables and you take your seat back."""
    from net import discovery, persist

    clock = app.host_clock
    if saves and clock is None:
        clock = persist.resumed_clock(saves)
    host = persist.saving_host(persist.Store.default("tables"), clock=clock)
    port = app.lan_port
    try:
        try:
            await host.start(bind=app.lan_bind, port=port)
        except OSError:
            if port == 0:
                raise
            await host.start(bind=app.lan_bind, port=0)  # the usual port is taken: any port
    except OSError as error:
        app.show_message("Cannot host a game here", f"Listening for players failed: {error}.")
        return
    token = None
    if saves:
        restored, problems = [], []
        for saved in saves:
            try:
                restored.append((host.restore(saved), saved))
            except persist.SaveError as error:
                problems.append(str(error))
        if not restored:
            await host.close()
            app.show_message("Cannot restore the saved tables", "\n\n".join(problems))
            return
        table, saved = restored[0]
        game = table.game
        if saved.doc.owner is not None:
            token = saved.token(saved.doc.owner)
    else:
        assert game is not None
        table_name = f"{app.settings.name}'s table"[:30]
        table = host.create_table(table_name, game, difficulty=app.settings.difficulty,
                                  **app.table_options)
    real_port = host.port
    if app.lan_bind in (None, "", "0.0.0.0", "::"):
        shown = discovery.local_addresses() or ["127.0.0.1"]  # no network: this machine
    else:
        shown = [app.lan_bind]
    addresses = [discovery.format_address(a, real_port) for a in shown]
    announcer = None
    if app.announce:
        announcer = discovery.Announcer(**app.announce_options)
        await announcer.start(discovery.Announcement(
            game=game, table=table.name, seats_free=table.free_seats,
            seats_total=table.settings.seats, port=real_port, protocol=p.PROTOCOL_VERSION))
    try:
        if token is not None:  # your own seat at your restored table
            client = await Client.local(host, "resume", table=table.name, token=token,
                                        clock=app.client_clock)
        else:
            client = await Client.local(host, app.settings.name, table=table.name,
                                        spectate=bool(saves), clock=app.client_clock)
    except NetError as error:
        await host.close()
        app.show_message(*failure_text(error))
        return
    app.attach(Link(app, client, mode="lan-host", host=host, announcer=announcer,
                    addresses=addresses))


async def join(app: MotherlodeApp, host: str, port: int, *, spectate: bool = False) -> None:
    """Join a table over TCP."""
    try:
        client = await Client.connect(host, port, app.settings.name, spectate=spectate,
                                      timeout=app.connect_timeout, clock=app.client_clock)
    except NetError as error:
        app.show_message(*failure_text(error))
        return
    app.attach(Link(app, client, mode="join"))
