"""docs/PROTOCOL.md read as the tests read it: its text, its tables, and the views a
game of bots sends, shared by the protocol doc's tests."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from net import protocol as p

DOC = (Path(__file__).parents[2] / "docs" / "PROTOCOL.md").read_text()
FACES = {"nugget", "lasso", "2", "3", "4", "5"}


def watched_bot_game(settings, difficulties) -> list:
    """A Gold Nuggets game of bots at the table core, played to its end; returns every
    message a spectator was sent."""
    from net.table import Table, Tables

    tables = Tables()
    table = tables.add(Table("Camp", "nuggets", settings))
    for difficulty in difficulties:
        table.add_bot(difficulty)
    inbox: list = []
    tables.hello(p.Hello(protocol=3, name="Eve", spectate=True), inbox.append, print, 0.0)
    table.start(0.0)
    while table.phase == "playing":
        table.tick(table.next_wakeup())
    return inbox




def doc_rows(marker: str) -> list[list[str]]:
    """The body rows of the table right after ``<!-- marker``, as lists of cells."""
    block = DOC[DOC.index(f"<!-- {marker}") :].splitlines()[1:]
    rows = []
    for line in block:
        if not line.startswith("|"):
            if rows:
                break
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows[2:]  # the header and its rule


def documented_views(game: str) -> dict[str, str]:
    return {row[0].strip("`"): row[1] for row in doc_rows(f"view: {game}")}


def documented_events(game: str) -> dict[str, dict[str, str]]:
    events = {}
    for row in doc_rows(f"events: {game}"):
        fields = re.findall(r"`(\w+)` ([^`]+?)(?:, (?=`)|$)", row[1])
        events[row[0].strip("`")] = dict(fields)
    return events


@functools.cache
def _alternatives(kind: str) -> tuple[str, ...]:
    """``kind`` split at its top-level ``or``s (not inside parentheses), each without
    the parentheses around it: ``array of (int or null) or null`` is two."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(kind):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and kind.startswith(" or ", i):
            out.append(kind[start:i])
            start = i + len(" or ")
    out.append(kind[start:])
    parts = [one.strip() for one in out]
    return tuple(one[1:-1] if one.startswith("(") and one.endswith(")") else one
                 for one in parts)  # fmt: skip


def conforms(value, kind: str) -> bool:
    """Whether a JSON value has the documented type (``int or null``, ``array of
    face``, ``array of [int, number]``, ``card``, ``array of (int or null)`` ...)."""
    for one in _alternatives(kind):
        if one != kind and " or " in one:  # it was in parentheses
            if conforms(value, one):
                return True
        elif one.startswith("array of "):
            inner = one[len("array of ") :]
            if isinstance(value, list) and all(conforms(v, inner) for v in value):
                return True
        elif one.startswith("["):
            parts = [p.strip() for p in one.strip("[]").split(",")]
            if isinstance(value, list) and len(value) == len(parts):
                if all(conforms(v, k) for v, k in zip(value, parts, strict=True)):
                    return True
        elif one == "card":
            if (
                isinstance(value, dict)
                and set(value) == {"name", "kind", "variant"}
                and value["kind"] in ("animal", "prospector")
                and all(isinstance(v, str) for v in value.values())
            ):
                return True
        elif one == "face":
            if value in FACES:
                return True
        else:
            checks = {
                "int": lambda v: type(v) is int,
                "number": lambda v: type(v) in (int, float),
                "string": lambda v: isinstance(v, str),
                "bool": lambda v: isinstance(v, bool),
                "null": lambda v: v is None,
            }
            assert one in checks, f"the document uses an unknown type {one!r}"
            if checks[one](value):
                return True
    return False
