"""What a person reads when joining fails because a web server (not a host) answered."""

import pytest

from net.client import Client, NotAHost
from tests.net.helpers import http_server
from tui.modes import failure_text


async def test_joining_a_web_server_reads_not_a_motherlode_host():
    with http_server() as port:
        with pytest.raises(NotAHost) as info:
            await Client.connect("127.0.0.1", port, "Ann")
    title, body = failure_text(info.value)
    assert title == "Not a Motherlode host"
    assert body.startswith(f"127.0.0.1:{port} answered, but it is not a Motherlode host")
    assert "Check the port" in body and "the host printed" in body


async def test_the_app_stays_up_when_join_reaches_a_web_server(tmp_path):
    from tui.screens.common import MessageScreen
    from tui.screens.menu import MenuScreen

    from .harness import make_app, until
    from .helpers import screen_text

    with http_server() as port:
        app = make_app(tmp_path, start=("join", "127.0.0.1", port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Not a Motherlode host" in screen_text(app), "a message")
            text = screen_text(app)
            assert isinstance(app.screen, MessageScreen)
            assert "Check the port" in text and "Traceback" not in text
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")
