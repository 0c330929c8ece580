"""Launchers: each opens a way of playing and returns a `tui.session.Session`.

Local play (solo, hot-seat) runs an in-process `net.host.Host`; hosting on the LAN runs
a `net.lan.LanHost`, the same as `motherlode host`; joining connects over TCP and takes
back a seat this machine held there (`net.seats`). Only what runs the host differs.
A launcher that fails raises `LaunchFailed`, with words for the person; it knows no
screens and no app.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field
from typing import Any

from net import protocol as p
from net.catalogue import hotseat_games, spec, title
from net.client import Client, NetError, NotAHost, TableFull, Unreachable, VersionMismatch
from net.host import Host
from net.protocol import Code
from tui.saves import Saves
from tui.session import HOTSEAT, JOIN, LAN_HOST, SOLO, Session

log = logging.getLogger("motherlode.tui")



def max_bots(game: str) -> int:
    """The bots that fit with one person at a table of ``game``."""
    return spec(game).high - 1


@dataclass
class Launch:
    """What a launcher needs from the app (tests fix seeds, clocks and ports here)."""

    name: str
    difficulty: str = "normal"
    table_options: dict[str, Any] = field(default_factory=dict)
    host_clock: Any = None
    client_clock: Any = None
    lan_port: int = 7777
    lan_bind: str | None = None
    announce: bool = True
    announce_options: dict[str, Any] = field(default_factory=dict)
    connect_timeout: float = 10.0
    #: the saves: where a local table saves itself, where a remote seat's token is kept
    saves: Saves = field(default_factory=Saves)


class LaunchFailed(Exception):
    """A mode could not open: ``title`` and ``body`` say why and what to do. ``watch``
    is the address of a full table the person may watch instead."""

    def __init__(self, title: str, body: str, *, watch: tuple[str, int] | None = None) -> None:
        super().__init__(f"{title}: {body}")
        self.title = title
        self.body = body
        self.watch = watch


def failure_text(error: NetError) -> tuple[str, str]:
    """(title, body) for a connection that failed."""
    if isinstance(error, Unreachable):
        return "Cannot reach the host", (
            f"{error.message}\n\nUse the address and port the host shows, from a machine on "
            "the same network (a firewall may block the port)."
        )
    if isinstance(error, NotAHost):
        return "Not a Motherlode host", (
            f"{error.message}\n\nCheck the port: use the address and port the host printed "
            "when it started (motherlode host shows them, e.g. 192.168.1.20:7777)."
        )
    if isinstance(error, VersionMismatch):
        return "Different versions", f"{error.message}\n\nUse the same Motherlode version on both."
    if isinstance(error, TableFull):
        return full_title(error), error.message
    return "The host refused", error.message


def full_title(error: TableFull) -> str:
    """A table that takes no more players: one code (``table_full``) covers a game that
    has started and seats all taken, and the host's message says which."""
    return "The game has started" if "has started" in error.message else "The table is full"


def _failed(error: NetError) -> LaunchFailed:
    return LaunchFailed(*failure_text(error))


# -- local play -------------------------------------------------------------------------


async def _local(launch: Launch, game: str, seats: int, policy: Any, setup: list[Any],
                 **settings: Any) -> Session:
    # Hot-seat games are saved after every move (the menu offers to resume them); games
    # against bots are saved too, and archived when left, so Replays lists every game.
    store = launch.saves.store("hotseat" if policy is HOTSEAT else "solo")
    host = Host(store=store, clock=launch.host_clock)
    options = {"difficulty": launch.difficulty, **launch.table_options, **settings}
    table = host.create_table(title(game), game, seats=seats, **options)
    try:
        client = await Client.local(host, launch.name, clock=launch.client_clock)
    except NetError as error:
        await host.close()
        raise _failed(error) from None

    def settle() -> None:
        if policy is HOTSEAT:
            if table.moves == 0:
                store.close_table(table, keep=False)  # left before anyone moved
        else:
            store.close_table(table, keep=table.moves > 0)

    return Session(client, policy, host=host, setup=[*setup, p.Start()], on_close=settle)


async def solo(launch: Launch, game: str, bots: int) -> Session:
    """One person against ``bots`` bots of the chosen difficulty."""
    return await _local(launch, game, bots + 1, SOLO, [p.AddBot() for _ in range(bots)])


async def hotseat(launch: Launch, seats: list[tuple[str, bool]]) -> Session:
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
    launch.name = first
    return await _local(launch, hotseat_games()[0].key, len(seats), HOTSEAT, setup, hotseat=True)


async def resume_hotseat(launch: Launch, saved: Any) -> Session:
    """Play on a saved hot-seat game: the host restores it, and this keyboard takes
    its seats back with the saved token."""
    from net import saves as store_db

    clock = launch.host_clock or store_db.resumed_clock([saved])
    host = Host(store=launch.saves.store("hotseat"), clock=clock)
    try:
        table = host.restore(saved)
        tokens = sorted(set(saved.seat_tokens().values()))
        if not tokens:
            raise store_db.SaveError("nobody at that table can take a seat back")
        client = await Client.local(host, "resume", table=table.name, token=tokens[0],
                                    clock=launch.client_clock)
    except (store_db.SaveError, NetError) as error:
        await host.close()
        raise LaunchFailed("Cannot resume that game", getattr(error, "message", str(error))) \
            from None
    return Session(client, HOTSEAT, host=host)


# -- the LAN ----------------------------------------------------------------------------


async def lan_host(launch: Launch, game: str | None, saves: Any = ()) -> Session:
    """A LAN host in this process (`net.lan`, as `motherlode host`); you play at seat
    0. With ``saves``, it restores those tables and you take your seat back."""
    from net.lan import LanHost

    lan = LanHost(saves=saves, clock=launch.host_clock)
    try:
        await lan.listen(launch.lan_bind, launch.lan_port, any_port_if_taken=True)
    except OSError as error:
        await lan.close()
        raise LaunchFailed("Cannot host a game here",
                           f"Listening for players failed: {error}.") from None
    token = None
    if saves:
        if not lan.restored:
            await lan.close()
            raise LaunchFailed("Cannot restore the saved tables", "\n\n".join(lan.problems))
        table, saved = lan.restored[0]
        if saved.doc.owner is not None:
            token = saved.token(saved.doc.owner)
    else:
        assert game is not None
        table = lan.host.create_table(f"{launch.name}'s table"[:30], game,
                                      difficulty=launch.difficulty, **launch.table_options)
    if launch.announce:
        await lan.announce(**launch.announce_options)
    try:
        if token is not None:  # your own seat at your restored table
            client = await Client.local(lan.host, "resume", table=table.name, token=token,
                                        clock=launch.client_clock)
        else:
            client = await Client.local(lan.host, launch.name, table=table.name,
                                        spectate=bool(saves), clock=launch.client_clock)
    except NetError as error:
        await lan.close()
        raise _failed(error) from None
    return Session(client, LAN_HOST, host=lan.host, lan=lan, addresses=lan.addresses())


def _identity():
    """This user's key (``net.identity``: made on first run), which the hello proves so
    the host rates the player; None (a guest there) if it cannot be read or made."""
    import os

    from net.identity import GUEST_ENV, Identity

    if os.environ.get(GUEST_ENV) == "1":  # a door's scratch folder: nobody to pin
        return None
    try:
        return Identity.load_or_create()
    except (OSError, ValueError) as error:
        log.warning("playing as a guest: %s", error)
        return None


async def join(launch: Launch, host: str, port: int, *, spectate: bool = False,
               table: str | None = None) -> Session:
    """Join a table over TCP (``table``: that one, else the host's first). A seat this
    machine held there under this name (its process died, or the player stepped away)
    is taken back with its token; a token the host no longer knows is dropped and the
    player joins anew."""
    from net.seats import SeatToken

    store = launch.saves.seats()
    # a remote seat is worth waiting for: the client keeps trying while the host is
    # gone, until it answers (the seat back, or gone) or the person leaves
    options = {"timeout": launch.connect_timeout, "clock": launch.client_clock,
               "retry_for": math.inf, "identity": _identity()}
    if not spectate:
        for kept in _kept_seats(store, host, port, launch.name):
            if table is not None and kept.table.casefold() != table.casefold():
                continue
            try:
                held = store.hold(kept)
            except OSError as error:  # a state directory we cannot write: join anew
                log.warning("cannot take the kept seat's token: %s", error)
                break
            if held is None:
                continue  # another process here took it a moment ago
            try:
                client = await Client.connect(host, port, launch.name, table=kept.table,
                                              token=kept.token, **options)
            except NetError as error:
                if error.code in (Code.BAD_TOKEN, Code.NO_SUCH_TABLE):
                    held.forget()  # stale: quietly join anew
                    continue
                held.release()
                raise _failed(error) from None
            return Session(client, JOIN, seat_file=held, address=(host, port))
    try:
        client = await Client.connect(host, port, launch.name, spectate=spectate,
                                      table=table, **options)
    except TableFull as error:
        raise LaunchFailed(full_title(error), error.message, watch=(host, port)) from None
    except NetError as error:
        raise _failed(error) from None
    held = None
    welcome = client.welcome
    if welcome is not None and welcome.token is not None:
        try:
            held = store.hold(SeatToken(host, port, welcome.table.name, launch.name,
                                        welcome.token, time.time()))
        except OSError as error:  # a convenience: the game goes on without it
            log.warning("cannot keep the seat's token: %s", error)
    return Session(client, JOIN, seat_file=held, address=(host, port))


def kept_table(saves: Any, host: str, port: int, name: str) -> str | None:
    """The table at ``host``:``port`` where this folder (a browser's, an SSH key's) keeps
    a seat of ``name``, or None. Both served pages go straight back to it: the app's
    served flow (``tui.flows.served``) and the plain seat (``tui.plain``)."""
    try:
        kept = saves.seats_at(host, port, name)
    except OSError as error:
        log.warning("cannot read kept seats: %s", error)
        return None
    return kept[0].table if kept else None


def _kept_seats(store: Any, host: str, port: int, name: str) -> list[Any]:
    try:
        return store.seats_at(host, port, name)
    except OSError as error:
        log.warning("cannot read kept seats: %s", error)
        return []
