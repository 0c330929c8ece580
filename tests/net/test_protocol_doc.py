"""docs/PROTOCOL.md stays true: every error code and message type is documented, and
the `nc` transcript replays against a real host line for line."""

import asyncio
import hashlib
import json
import random
import re
from pathlib import Path

import nuggets
from net import protocol as p
from net.clock import FakeClock

from .helpers import settle

DOC = (Path(__file__).parents[2] / "docs" / "PROTOCOL.md").read_text()


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
            assert normal(got) == normal(lines[i][2:])
            i += 1
    await settle()
    writer.close()


def test_the_transcripts_seed_checks_out():
    assert hashlib.sha256(b"nc-0").hexdigest() in DOC
    faces = [f.value for f in nuggets.roll_dice(random.Random("nc-0"), 7)]
    assert faces == ["4", "nugget", "lasso", "nugget", "nugget", "nugget", "nugget"]
