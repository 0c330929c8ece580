"""The serve host's table directory: what a served app may ask of ``motherlode serve``.

A served app (one per SSH or browser session) plays as a normal TCP client of the serve
host, through the same launchers as a LAN player. Two things the game protocol has no
message for: the list of the host's tables (the served menu shows them) and a new
table (a player starts one, then joins it first and so owns it). The serve process
answers those on a Unix socket that only its own children know, in a 0700 directory:
one JSON request per connection, one JSON answer.

    {"op": "list"}                           -> {"tables": [TableInfo, ...]}
    {"op": "new", "game": "nuggets", "name": "Ann", "link": "<id>"}  -> {"table": "Ann's table"}
    {"op": "link", "link": "<id>", "port": 51234}    -> {"linked": true}
    {"op": "league", "game": null, "season": null}  -> {"standings": [...], "seasons": [...]}
    anything wrong                           -> {"error": "words for a person"}

``link`` (lag-fair races): a door measures each person's own link (SSH keepalive round
trips, WebSocket pings) into a meter of :class:`Links`, and gives the app it starts the
meter's secret id (``MOTHERLODE_LINK``). The app names that id and the local port of
its game connection; from then on the host corrects that connection's race actions by
the door's measurement, not by its loopback probes. The number never leaves this
process, and a LAN client cannot reach this socket.

Headless (no Textual): the serve command and the app share it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from pathlib import Path
from typing import Any

import msgspec

from net import protocol as p
from net.catalogue import known
from net.latency import DelayMeter
from net.text import clean_text

#: the environment variable that carries a served app's link id (set by its door)
LINK_ENV = "MOTHERLODE_LINK"
#: set ("1") for an app whose player cannot come back to it (an SSH login without a
#: key): a hang-up gives the seat up rather than keep it for nobody
KEYLESS_ENV = "MOTHERLODE_KEYLESS"

#: tables one address may have open at once (a hall's share: 4 of the 32)
TABLES_PER_ADDRESS = 4

MAX_REQUEST = 4096
# an answer's longest line: the list of a busy host's tables (under 1 KiB each)
MAX_ANSWER = 16 * 1024 * 1024
TIMEOUT = 5.0


class ServedError(Exception):
    """The serve host could not answer; the message is for a person."""


class Links:
    """The doors' measurements of their people's links, by secret id, and the address
    each person came from (for the budgets a door cannot see: tables per address)."""

    def __init__(self) -> None:
        self.meters: dict[str, DelayMeter] = {}
        self.addresses: dict[str, str] = {}

    def new(self, address: str = "") -> tuple[str, DelayMeter]:
        ident = secrets.token_urlsafe(16)
        meter = self.meters[ident] = DelayMeter()
        if address:
            self.addresses[ident] = address
        return ident, meter

    def drop(self, ident: str) -> None:
        self.meters.pop(ident, None)
        self.addresses.pop(ident, None)


class TableDirectory:
    """Answers served apps about ``host``'s tables (see the module docstring)."""

    def __init__(self, host: Any, *, max_tables: int = 32, per_address: int = TABLES_PER_ADDRESS,
                 empty_for: float = 60.0, settings: dict | None = None,
                 own: dict[str, dict[str, Any]] | None = None) -> None:  # fmt: skip
        self.host = host
        self.links = Links()
        self.max_tables = max_tables
        #: tables the people of one address may have open at once
        self.per_address = per_address
        self._openers: dict[Any, str] = {}  # table -> the address that opened it
        self.settings = dict(settings or {})  # for every new table (``serve --grace``)
        #: a game's own settings for each new table of it (``serve --game G --set``)
        self.own = {game: dict(values) for game, values in (own or {}).items()}
        #: seconds a table players opened may stand with nobody at it before it goes
        self.empty_for = empty_for
        self.path: Path | None = None
        self._server: asyncio.Server | None = None
        self._opened: dict[Any, float | None] = {}  # table -> since when nobody is there
        self._sweeper: asyncio.Task | None = None

    async def start(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path.parent, 0o700)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # left by a server that was killed
        self._server = await asyncio.start_unix_server(self._serve, str(path))
        os.chmod(path, 0o600)
        self.path = path
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self.empty_for / 4))
            self.sweep(time.monotonic())

    def sweep(self, now: float) -> list[str]:
        """Take away the tables players opened that nobody has held for ``empty_for``
        seconds (an opened table nobody joins, or everyone left): one address cannot
        squat the ``max_tables``. Returns their names."""
        gone = []
        for table, since in list(self._opened.items()):
            if table.members:
                self._opened[table] = None
            elif since is None:
                self._opened[table] = now
            elif now - since >= self.empty_for and self.host.remove_table(table, "empty"):
                del self._opened[table]
                gone.append(table.name)
            if table.name not in self.host.tables.tables:
                self._opened.pop(table, None)
        for table in [t for t in self._openers if t.name not in self.host.tables.tables]:
            del self._openers[table]
        return gone

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), TIMEOUT)
            answer = self.answer(line[:MAX_REQUEST])
            writer.write(msgspec.json.encode(answer) + b"\n")
            await asyncio.wait_for(writer.drain(), TIMEOUT)
        except (TimeoutError, OSError, ValueError):
            pass
        finally:
            writer.close()

    def answer(self, line: bytes) -> dict[str, Any]:
        """The answer to one request line (never raises)."""
        try:
            request = msgspec.json.decode(line)
        except msgspec.DecodeError:
            return {"error": "The request was not JSON."}
        if not isinstance(request, dict):
            return {"error": "The request was not a JSON object."}
        if request.get("op") == "list":
            return {"tables": [t.info() for t in self.host.tables.tables.values()]}
        if request.get("op") == "new":
            return self._new(request.get("game"), request.get("name"), request.get("link"))
        if request.get("op") == "link":
            return self._link(request.get("link"), request.get("port"))
        if request.get("op") == "league":
            return self._league(request.get("game"), request.get("season"))
        return {"error": "Unknown request."}

    def _league(self, game: object, season: object) -> dict[str, Any]:
        """The serve host's league (its saves: ``net.league``), for a served app."""
        from net.league.ledger import LeagueError
        from net.league.standings import seasons, standings
        from net.saves.errors import SaveError

        store = self.host.store
        if store is None:
            return {"standings": [], "seasons": []}
        game = game if known(game) else None
        season = season if isinstance(season, str) else None
        try:
            lines, names = store.league(lambda conn: (standings(conn, game, season),  # type: ignore[arg-type]
                                                      [s["name"] for s in seasons(conn)]))
        except (LeagueError, SaveError) as error:
            return {"error": str(error)}
        return {"standings": [line.to_wire() for line in lines], "seasons": names}

    def _link(self, ident: object, port: object) -> dict[str, Any]:
        meter = self.links.meters.get(ident) if isinstance(ident, str) else None
        if meter is None:
            return {"error": "No such link."}
        if isinstance(port, bool) or not isinstance(port, int):
            return {"error": "The port must be a number."}
        for peer in getattr(self.host, "_peers", ()):
            name = peer.writer.get_extra_info("peername")
            if isinstance(name, tuple) and len(name) >= 2 and name[1] == port \
                    and str(name[0]) in ("127.0.0.1", "::1"):
                peer.link_meter = meter
                peer._set_lag()
                return {"linked": True}
        return {"error": "No connection from that port."}

    def _new(self, game: object, name: object, link: object = None) -> dict[str, Any]:
        if not known(game):
            return {"error": f"No game called {clean_text(str(game))[:20]!r}."}
        tables = self.host.tables.tables
        if len(tables) >= self.max_tables:
            return {"error": f"This host has {len(tables)} tables already, the most it "
                    "holds; join one of them, or try again when one has closed."}
        address = self.links.addresses.get(link) if isinstance(link, str) else None
        if address is not None:
            mine = [t for t, opener in self._openers.items()
                    if opener == address and t.name in tables]  # fmt: skip
            if len(mine) >= self.per_address:
                return {"error": f"Your address ({address}) has {len(mine)} tables open "
                        f"here already, the most one address may; join one of them, or "
                        "try again when one has closed."}
        owner = clean_text(str(name or ""))[:20] or "Player"
        base = f"{owner}'s table"[:30]
        taken = {t.casefold() for t in tables}
        title, n = base, 2
        while title.casefold() in taken:
            title = f"{base[:26]} {n}"
            n += 1
        table = self.host.create_table(title, str(game), **self.settings,
                                       **self.own.get(str(game), {}))
        self._opened[table] = time.monotonic()  # its opener joins next; else it goes
        if address is not None:
            self._openers[table] = address
        self.host.touched(table)
        return {"table": table.name}


def _silent(error: Exception) -> str:
    if isinstance(error, TimeoutError):
        return f"The server did not answer within {TIMEOUT:g} seconds: it is very busy."
    return f"The server does not answer ({error.strerror or error})."


async def _ask(path: str | os.PathLike[str], request: dict[str, Any]) -> dict[str, Any]:
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(str(path), limit=MAX_ANSWER), TIMEOUT)
    except (TimeoutError, OSError) as error:
        raise ServedError(_silent(error)) from None
    try:
        writer.write(msgspec.json.encode(request) + b"\n")
        line = await asyncio.wait_for(reader.readline(), TIMEOUT)
    except (TimeoutError, OSError) as error:
        raise ServedError(_silent(error)) from None
    except ValueError:  # a line over MAX_ANSWER
        raise ServedError("The server's answer was too long.") from None
    finally:
        writer.close()
    try:
        answer = msgspec.json.decode(line)
    except msgspec.DecodeError:
        raise ServedError("The server's answer was damaged.") from None
    if not isinstance(answer, dict):
        raise ServedError("The server's answer was damaged.")
    if "error" in answer:
        raise ServedError(clean_text(str(answer["error"])))
    return answer


async def bind_link(path: str | os.PathLike[str], link: str, port: int) -> None:
    """Ask the serve process to judge this app's connection (from local ``port``) by
    the door's measurement of link ``link``. Raises ServedError."""
    answer = await _ask(path, {"op": "link", "link": link, "port": port})
    if answer.get("linked") is not True:
        raise ServedError("The server's answer was damaged.")


async def list_tables(path: str | os.PathLike[str]) -> list[p.TableInfo]:
    """The serve host's tables, in the order they were opened. Raises ServedError."""
    answer = await _ask(path, {"op": "list"})
    try:
        return msgspec.convert(answer.get("tables"), list[p.TableInfo])
    except msgspec.ValidationError:
        raise ServedError("The server's answer was damaged.") from None


async def league(path: str | os.PathLike[str], game: str | None = None,
                 season: str | None = None) -> tuple[list[Any], list[str]]:  # fmt: skip
    """The serve host's standings of ``game`` in ``season`` and its seasons' names.
    Raises ServedError."""
    from net.league.standings import Standing

    answer = await _ask(path, {"op": "league", "game": game, "season": season})
    try:
        lines = [Standing.from_wire(item) for item in answer.get("standings", [])]
        names = [str(n) for n in answer.get("seasons", [])]
    except (ValueError, TypeError):
        raise ServedError("The server's answer was damaged.") from None
    return lines, names


async def new_table(path: str | os.PathLike[str], game: str, name: str,
                    link: str | None = None) -> str:  # fmt: skip
    """Open a new table of ``game`` named after ``name``; returns the table's name.
    ``link``: this app's link id (``LINK_ENV``), which says whose address opens it."""
    answer = await _ask(path, {"op": "new", "game": game, "name": name, "link": link})
    table = answer.get("table")
    if not isinstance(table, str):
        raise ServedError("The server's answer was damaged.")
    return table
