"""Hosting on the LAN, written once: ``motherlode host`` and the app's "Host a LAN game".

A :class:`LanHost` is a TCP ``net.host.Host`` that saves its tables (``net.saves``),
restores saved ones on ``--resume``, listens, knows the addresses to share, and keeps
its LAN announcement (``net.discovery``) true: the free seats are announced again on
every change of a table, and only where the host listens (a host bound to loopback is
announced on loopback only).

    lan = LanHost(saves=saves, report=print)      # restores what it can: lan.problems
    table = lan.host.create_table("Ann's table", "nuggets")
    await lan.listen(bind=None, port=7777)        # OSError: the caller says it
    await lan.announce()
    ...
    await lan.close("shutdown")
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from net import protocol as p
from net.host import Host
from net.table import Table

log = logging.getLogger(__name__)

ANY = (None, "", "0.0.0.0", "::")


class LanHost:
    """See the module docstring. ``saves`` are ``net.saves.Saved`` tables to restore;
    ``save=False`` keeps nothing on disk (a crashed game cannot be resumed)."""

    def __init__(
        self,
        *,
        saves: Sequence[Any] = (),
        save: bool = True,
        store: Any = None,
        clock: Any = None,
        report: Callable[[str], None] | None = None,
        ledger: Any = None,
    ) -> None:
        from net import saves as store_db

        if store is None and save:
            store = store_db.Store.default("tables", report=report)
        if clock is None and saves:
            clock = store_db.resumed_clock(saves)
        self.host = Host(report=report, store=store, clock=clock, ledger=ledger)
        self.bind: str | None = None
        self.announcer: Any = None
        self.restored: list[tuple[Table, Any]] = []
        self.problems: list[str] = []
        for saved in saves:
            try:
                self.restored.append((self.host.restore(saved), saved))
            except store_db.SaveError as error:
                self.problems.append(str(error))
        self.host.on_table_update(self._changed)
        self.host.on_table_removed(self._removed)

    async def listen(self, bind: str | None = None, port: int = 7777, *,
                     any_port_if_taken: bool = False) -> int:
        """Listen on ``bind`` (None: every interface); returns the port. Raises OSError,
        unless the port is taken and ``any_port_if_taken`` lets any free port do."""
        try:
            await self.host.start(bind=bind, port=port)
        except OSError:
            if not any_port_if_taken or port == 0:
                raise
            await self.host.start(bind=bind, port=0)
        self.bind = bind
        return self.host.port

    @property
    def port(self) -> int:
        return self.host.port

    def addresses(self) -> list[str]:
        """``host:port`` lines to share with friends: every local address when listening
        on all of them, else the one listened on."""
        from net import discovery

        if self.bind in ANY:
            shown = discovery.local_addresses() or ["127.0.0.1"]  # no network: this machine
        else:
            shown = [str(self.bind)]
        return [discovery.format_address(a, self.port) for a in shown]

    # -- the announcement --------------------------------------------------------------

    def _announcement(self, table: Table) -> Any:
        from net import discovery

        return discovery.Announcement(
            game=table.game, table=table.name, seats_free=max(table.free_seats, 0),
            seats_total=table.settings.seats, port=self.port, protocol=p.PROTOCOL_VERSION,
        )  # fmt: skip

    async def announce(self, **options: Any) -> None:
        """Announce every table on the LAN, where the host listens (``options`` go to
        ``net.discovery.Announcer``). Discovery is a convenience: it never raises."""
        from net import discovery

        # only where the host listens: a loopback-only host stays on loopback
        options.setdefault("listen", [address for address, _ in self.host.sockets])
        try:
            announcer = discovery.Announcer(**options)
            tables = self.host.tables.tables.values()
            await announcer.start(*(self._announcement(t) for t in tables))
        except Exception as error:  # discovery must never stop a game
            log.warning("cannot announce the tables: %s", error)
            return
        self.announcer = announcer

    def _changed(self, table: Table) -> None:
        if self.announcer is None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: the host is closing
            task = asyncio.get_running_loop().create_task(
                self.announcer.update(self._announcement(table)))
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)

    def _removed(self, table: Table) -> None:
        if self.announcer is None:
            return
        with contextlib.suppress(RuntimeError):
            task = asyncio.get_running_loop().create_task(self.announcer.withdraw(table.name))
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)

    async def close(self, reason: str = "shutdown") -> None:
        """Tell every client goodbye, stop listening and withdraw the announcement."""
        try:
            await self.host.close(reason)
        finally:
            if self.announcer is not None:
                with contextlib.suppress(Exception):
                    await self.announcer.close()


_tasks: set[asyncio.Task] = set()
