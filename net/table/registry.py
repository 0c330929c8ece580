"""The host's tables and the routing of ``hello``: joining a table or resuming a
seat by its token."""

from __future__ import annotations

import hmac
import weakref
from collections.abc import Callable
from typing import Any

from net import protocol as p
from net.protocol import Code
from net.table.people import Member, Refusal, keep_ids_above
from net.table.table import Table
from net.text import NAME_MAX, check_length, clean_name, clean_text, name_problem


class Tables:
    """The host's tables and the routing of ``hello``: sans-I/O, like ``Table``."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        # weak: a member that left every table is forgotten, and its token goes stale
        self._by_id: weakref.WeakValueDictionary[int, Member] = weakref.WeakValueDictionary()

    def add(self, table: Table) -> Table:
        if table.name.casefold() in (name.casefold() for name in self.tables):
            raise ValueError(f"there is already a table called {table.name!r}")
        self.tables[table.name] = table
        return table

    def adopt(self, table: Table) -> Table:
        """Add a restored table (``net.saves``) whose members hold resume tokens: the
        tokens work again, and new members get ids clear of theirs."""
        self.add(table)
        highest = 0
        for member in table.members:
            self._by_id[member.id] = member
            highest = max(highest, member.id)
        keep_ids_above(highest)
        return table

    def find(self, name: str | None) -> Table:
        if not self.tables:
            raise Refusal(Code.NO_SUCH_TABLE, "This host has no tables.")
        if name is None:
            return next(iter(self.tables.values()))
        for table in self.tables.values():
            if table.name.casefold() == clean_text(name).casefold():
                return table
        raise Refusal(
            Code.NO_SUCH_TABLE,
            f"No table called {clean_text(name)!r}; tables here: {', '.join(self.tables)}.",
        )

    def hello(
        self,
        hello: p.Hello,
        deliver: Callable[[Any], None],
        close: Callable[[str], None],
        now: float,
        link: object = None,
        identified: Callable[[str], bool] = lambda name: False,
    ) -> Member:
        """Admit a connection that said hello: join a table or resume a seat.

        Returns the member; raises Refusal (the connection may try again)."""
        if hello.protocol not in p.PROTOCOLS:
            raise Refusal(
                Code.BAD_VERSION,
                f"This host speaks protocol {p.PROTOCOL_VERSION}, not {hello.protocol}: "
                "update Motherlode on the older side (pip install -U motherlode).",
            )
        if hello.token is not None:
            old, secret = self._member_for(hello.token)
            assert old.table is not None
            new = Member(name=old.name, deliver=deliver, close=close, link=link,
                         verified=identified(old.name))
            return old.table.resume(old, secret, new, now)
        name = clean_name(hello.name)
        problem = check_length(name, "name", NAME_MAX)
        if problem:
            raise Refusal(Code.BAD_NAME, problem)
        table = self.find(hello.table)
        problem = name_problem(name, [m.name for m in table.members])
        if problem:
            raise Refusal(Code.BAD_NAME, problem)
        member = Member(
            name=name, deliver=deliver, close=close, spectator=hello.spectate, link=link,
            verified=not hello.spectate and identified(name),
        )
        table.join(member, now)
        self._by_id[member.id] = member
        return member

    def _member_for(self, token: str) -> tuple[Member, str]:
        ident, _, secret = token.partition(".")
        # ASCII only: "²".isdigit() is True, and int() of it raises
        strict = token.isascii() and ident.isdigit() and len(ident) < 19
        member = self._by_id.get(int(ident)) if strict else None
        if member is None or member.table is None or member not in member.table.members:
            # compare anyway, so a miss costs the same time as a wrong secret
            hmac.compare_digest(b"x" * 32, secret.encode("utf-8", "replace"))
            raise Refusal(
                Code.BAD_TOKEN, "That resume token is stale or unknown; join the table anew."
            )
        return member, secret
