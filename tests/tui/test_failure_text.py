"""What a person reads when joining fails because a web server (not a host) answered."""

import pytest

from net.client import Client, NotAHost
from tests.net.test_client_handshake import http_server
from tui.modes import failure_text


async def test_joining_a_web_server_reads_not_a_motherlode_host():
    with http_server() as port:
        with pytest.raises(NotAHost) as info:
            await Client.connect("127.0.0.1", port, "Ann")
    title, body = failure_text(info.value)
    assert title == "Not a Motherlode host"
    assert body.startswith(f"127.0.0.1:{port} answered, but it is not a Motherlode host")
    assert "Check the port" in body and "the host printed" in body
