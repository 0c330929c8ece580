"""The doors' last words and the protocol's own (issue 56, item 7): the warm parent of a
server that could not start (``serve --via`` to a port the relay refuses) ends without
a traceback; the hello hint names the protocol the host speaks; the document says the
versions the host speaks and the pattern a move's name must match."""

from __future__ import annotations

import asyncio
import re
import socket
import sys
from pathlib import Path

import pytest

from net import protocol as p
from net.host import Host
from net.protocol import messages
from tests.net.helpers import Raw

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]


async def test_the_warm_parent_ends_quietly_when_its_server_went_first():
    """The server stops before its warm parent has finished importing: the parent's
    first word ("ready") meets a closed socket, and it exits 0 with nothing on stderr."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "warm-parent", str(theirs.fileno()),
        pass_fds=(theirs.fileno(),), cwd=ROOT, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    theirs.close()
    ours.close()  # the server is gone before the parent says it is ready
    out, err = await asyncio.wait_for(proc.communicate(), 45)
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()


async def test_the_hello_hint_names_the_protocol_the_host_speaks():
    host = Host()
    await host.start("127.0.0.1", 0)
    host.create_table("Camp", "nuggets", seats=2)
    try:
        raw = await Raw.open(host.port)
        await raw.send(p.Ping(id=1))  # before any hello
        refused = await raw.expect(p.Error)
        assert refused.code == "hello_first"
        assert f'"protocol":{p.PROTOCOL_VERSION}' in refused.message, refused.message
        raw.close()
    finally:
        await host.close()


def test_the_protocol_document_says_the_versions_and_the_move_names_pattern():
    doc = (ROOT / "docs" / "PROTOCOL.md").read_text()
    spoken = ", ".join(str(v) for v in sorted(p.PROTOCOLS, reverse=True))
    bad_version = next(line for line in doc.splitlines() if line.startswith("| `bad_version`"))
    assert f"this host speaks ({spoken})" in bad_version, bad_version
    pattern = messages.MoveName.__metadata__[0].pattern
    assert f"`{pattern}`" in doc and re.search(r"move.{0,40}name", doc)
