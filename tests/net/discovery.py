"""LAN discovery as its tests see it: a table's announcement, the good beacon and
the garbage, and waiting on a browser's lists."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

from net.discovery import (
    MAX_DATAGRAM,
    Announcement,
    beacon_datagram,
)

ROOT = Path(__file__).resolve().parents[2]
WAIT = 10.0  # seconds: the bound on waiting for an expected packet, never a sleep





def table(**changes) -> Announcement:
    fields = dict(
        game="nuggets", table="Ann's table", seats_free=3, seats_total=4, port=7777, protocol=1
    )
    fields.update(changes)
    return Announcement(**fields)






async def next_games(changes, predicate, timeout: float = WAIT):
    """The first list from ``changes`` that satisfies ``predicate``, within a bound."""

    async def first():
        async for games in changes:
            if predicate(games):
                return games

    return await asyncio.wait_for(first(), timeout)


def assert_quiet_warning(caplog, text: str) -> None:
    records = [r for r in caplog.records if r.name == "net.discovery"]
    assert any(text in r.getMessage() and r.levelno == logging.WARNING for r in records), [
        r.getMessage() for r in records
    ]
    assert all(r.exc_info is None for r in records)  # no traceback anywhere


GOOD = json.loads(beacon_datagram(table()))

GARBAGE = [
    b"",
    b"\xff\xfe\x00garbage",
    b"null",
    b"[1, 2, 3]",
    b'"motherlode"',
    b"{" * 600,
    b"[" * 500 + b"]" * 500,  # deep, but under the size cap
    json.dumps({**GOOD, "motherlode": 2}).encode(),
    json.dumps({**GOOD, "motherlode": True}).encode(),
    json.dumps({**GOOD, "free": True}).encode(),
    json.dumps({**GOOD, "port": 7777.0}).encode(),
    json.dumps({**GOOD, "port": 70000}).encode(),
    json.dumps({**GOOD, "seats": "4"}).encode(),
    json.dumps({**GOOD, "table": ["list"]}).encode(),
    json.dumps({**GOOD, "table": "\x1b[0m\x00"}).encode(),
    json.dumps({**GOOD, "game": None}).encode(),
    json.dumps({k: v for k, v in GOOD.items() if k != "protocol"}).encode(),
    json.dumps({**GOOD, "pad": "x" * MAX_DATAGRAM}).encode(),  # oversize, else fine
    b'{"motherlode":1,"protocol":1,"game":"nuggets","table":"t","free":NaN,"seats":4,"port":7777}',
    json.dumps({"motherlode": 1, "bye": True, "table": "", "port": 7777}).encode(),
    json.dumps({"motherlode": 1, "bye": True, "table": "t"}).encode(),
]
