"""docs/PROTOCOL.md stays true: every error code and message type is documented, and
the `nc` transcript replays against a real host line for line."""

import asyncio
import hashlib
import json
import random
import re

import nuggets
from net import protocol as p
from net.clock import FakeClock
from tests.net.protocol_doc import (
    DOC,
    documented_events,
    documented_views,
)

from .helpers import settle


def test_every_error_code_is_documented():
    table = DOC[DOC.index("## Error codes") :]
    table = table[: table.index("\n## ", 3)]  # this section only
    documented = set(re.findall(r"^\| `([a-z0-9_]+)` \|", table, re.M))
    assert documented == {code.value for code in p.Code}


def test_every_message_type_is_documented():
    for union in (p.ClientMessage, p.HostMessage):
        for kind in union.__args__:
            assert f"| `{kind.__struct_config__.tag}` |" in DOC, kind


def transcript():
    block = DOC[DOC.index("<!-- transcript") :]
    block = block[block.index("```\n") + 4 :]
    return block[: block.index("```")].splitlines()


def normal(line):
    data = json.loads(line)
    if data.get("type") == "welcome":
        data["token"] = "<token>"
    return data


async def test_the_nc_transcript_replays_line_for_line(make_host):
    host = await make_host(clock=FakeClock())
    host.create_table(
        "Saloon", "nuggets", seats=2, seed="nc-0", supply=5, first_player=0, bot_pace=0.0
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    lines = transcript()
    assert lines[0].startswith("> ") and lines[-1].startswith("< ")
    i = 0
    while i < len(lines):
        assert lines[i].startswith("> ")
        writer.write(lines[i][2:].encode() + b"\n")
        await writer.drain()
        i += 1
        while i < len(lines) and lines[i].startswith("< "):
            got = await asyncio.wait_for(reader.readline(), 10)
            while json.loads(got)["type"] == "probe":  # the transcript leaves them out
                got = await asyncio.wait_for(reader.readline(), 10)
            assert normal(got) == normal(lines[i][2:])
            i += 1
    await settle()
    writer.close()


def test_the_transcripts_seed_checks_out():
    assert hashlib.sha256(b"nc-0").hexdigest() in DOC
    faces = [f.value for f in nuggets.roll_dice(random.Random("nc-0"), 7)]
    assert faces == ["4", "nugget", "lasso", "nugget", "nugget", "nugget", "nugget"]


# -- views and events (issue 10, point 11) ---------------------------------------------


def rules_events(*modules) -> dict[str, set[str]]:
    """The event types and fields each rules module lists in its docstring."""
    events = {}
    for module in modules:
        for kind, rest in re.findall(r'\{"type": "(\w+)"([^}]*)\}', module.__doc__):
            events[kind] = set(re.findall(r'"(\w+)":', rest))
    return events


def test_the_event_tables_match_the_rules_docstrings():
    import foolsgold.match
    import foolsgold.round
    import nuggets.rules

    def fields(game):
        return {kind: set(f) for kind, f in documented_events(game).items()}

    assert fields("nuggets") == rules_events(nuggets.rules)
    host_events = {"next_round": {"at"}}  # the host's own (net/games.py)
    assert fields("foolsgold") == rules_events(foolsgold.round, foolsgold.match) | host_events


def test_the_view_and_event_tables_are_the_typed_structs():
    """The tables are a readable summary of net.views (the schema is generated from it)."""
    from net import views

    for game, struct in views.kinds().views.items():
        assert list(documented_views(game)) == ["game", *struct.__struct_fields__], game
        documented = documented_events(game)
        typed = {e.__struct_config__.tag: list(e.__struct_fields__)
                 for e in views.kinds().events[game]}  # fmt: skip
        assert {kind: list(fields) for kind, fields in documented.items()} == typed, game
