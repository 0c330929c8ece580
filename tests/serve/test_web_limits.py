"""The web door's limits (issue 20), in process with a stand-in app: Host and Origin
checked, the password page and its cookie, every resize clamped, slow headers closed,
tabs capped per address, and no secret in an app's environment."""

import asyncio
import json

import aiohttp
import pytest

from net.budgets import Budgets, Ledger
from serve.web import clamp, host_name
from tests.serve.web import door as _door
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)

async def _logged(path, text, timeout=20.0) -> str:
    """The app's log, once it holds ``text``."""
    await until(lambda: path.exists() and text in path.read_text(), f"{text!r} in {path}",
                timeout, step=0.05)
    return path.read_text()


def test_sizes_are_clamped_and_host_names_read():
    assert clamp("30000", "30000") == (240, 80)
    assert clamp(30000, -5) == (240, 5)
    assert clamp(400, 200) == (240, 80)  # issue 56, finding 6: a storm at the most costs
    assert clamp(None, "x") == (80, 24)
    assert host_name("[::1]:8080") == "::1" and host_name("LocalHost:1") == "localhost"


async def test_a_foreign_host_or_origin_gets_403(tmp_path, monkeypatch):
    door = await _door(tmp_path, monkeypatch)
    base = f"http://127.0.0.1:{door.port}"
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/") as ok:
                assert ok.status == 200
            async with http.get(base + "/", headers={"Host": "evil.example"}) as bad:
                assert bad.status == 403
            async with http.get(base + "/", headers={"Origin": "http://evil.example"}) as bad:
                assert bad.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(base + "/ws", headers={"Origin": "http://rebind.example"})
    finally:
        await door.stop()


@pytest.mark.slow
async def test_the_password_page_then_a_cookie(tmp_path, monkeypatch):
    door = await _door(tmp_path, monkeypatch, password="gold rush 1849")
    base = f"http://127.0.0.1:{door.port}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(base + "/") as page:
                assert 'type="password"' in await page.text()
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(base + "/ws")
            async with http.post(base + "/login", data={"password": "wrong"}) as no:
                assert no.status == 403
            async with http.post(base + "/login", data={"password": "gold rush 1849"}) as yes:
                assert yes.status == 200 and "data-session-websocket-url" in await yes.text()
            ws = await http.ws_connect(base + "/ws?width=100&height=30")
            await _logged(tmp_path / "app.log", "secret")
            await ws.close()
    finally:
        await door.stop()


@pytest.mark.slow
async def test_every_resize_is_clamped_and_the_app_sees_no_secret(tmp_path, monkeypatch):
    door = await _door(tmp_path, monkeypatch)
    try:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws?width=90&height=30")
            await ws.send_json(["resize", {"width": 30000, "height": 30000}])
            await ws.send_json(["resize", "junk"])
            await ws.send_str("not json")
            await ws.send_json(["resize", {"width": 33, "height": 11}])
            log = await _logged(tmp_path / "app.log", '"width": 33')
            await ws.close()
    finally:
        await door.stop()
    assert json.loads(log.splitlines()[0]) == {"secret": None}
    assert '"width": 240' in log and '"height": 80' in log and "30000" not in log


@pytest.mark.slow
async def test_slow_headers_are_closed_and_tabs_capped_per_address(tmp_path, monkeypatch):
    ledger = Ledger(Budgets(header_timeout=0.3))
    door = await _door(tmp_path, monkeypatch, ledger=ledger, per_address=1)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        answer = await asyncio.wait_for(reader.read(), 10)
        assert answer.startswith(b"HTTP/1.1 503") and b"within" in answer
        assert ledger.count("pending") == 0
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{door.port}/ws?width=90&height=30"
            first = await http.ws_connect(url)
            second = await http.ws_connect(url)
            message = await second.receive()
            assert b"your address" in message.data
            assert ledger.count("seated") == 1
            await first.close()
            await second.close()
    finally:
        await door.stop()


@pytest.mark.slow
async def test_tabs_opened_and_closed_in_a_loop_are_refused_with_words(tmp_path, monkeypatch):
    """Each tab starts an app: an address that churns tabs past its burst is told how
    long to wait, and no app starts for it."""
    ledger = Ledger(Budgets(app_start_burst=2, app_start_every=600.0))
    door = await _door(tmp_path, monkeypatch, ledger=ledger)
    try:
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{door.port}/ws?width=90&height=30"
            for started in (1, 2):
                tab = await http.ws_connect(url)
                await until(lambda n=started: _starts(tmp_path / "app.log") == n,
                            "this tab's app has started", 20, step=0.05)
                await tab.close()
            third = await http.ws_connect(url)
            message = await third.receive()
            assert b"Too many new sessions from your address (127.0.0.1)" in message.data
            assert b"Try again in 600 s." in message.data
            await third.close()
    finally:
        await door.stop()
    assert _starts(tmp_path / "app.log") == 2
    assert ledger.snapshot()["starts_refused"] == 1


def _starts(log) -> int:
    return log.read_text().count('"secret"') if log.exists() else 0


async def test_a_loop_opening_sockets_gets_503_at_accept(tmp_path, monkeypatch):
    ledger = Ledger(Budgets(connect_burst=2, connect_rate=0.001))
    door = await _door(tmp_path, monkeypatch, ledger=ledger)
    try:
        held = [await asyncio.open_connection("127.0.0.1", door.port,
                                              local_addr=("127.0.0.2", 0)) for _ in range(2)]
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port,
                                                       local_addr=("127.0.0.2", 0))
        answer = await asyncio.wait_for(reader.read(), 10)
        assert answer.startswith(b"HTTP/1.1 503")
        assert b"Too many new connections from your address (127.0.0.2)" in answer
        assert ledger.count("pending", "127.0.0.2") == 2
        async with aiohttp.ClientSession() as http:  # the local address is not counted
            async with http.get(f"http://127.0.0.1:{door.port}/") as page:
                assert page.status == 200
        for _, w in held:
            w.close()
        writer.close()
    finally:
        await door.stop()


@pytest.mark.slow
async def test_a_tab_resizing_to_30000_a_hundred_times_costs_its_app_one_resize(tmp_path,
                                                                               monkeypatch):
    """The storm, for real (``serve.resize``): the first size at once, clamped; the
    latest after the interval; nothing between."""
    log = tmp_path / "app.log"
    door = await _door(tmp_path, monkeypatch)
    try:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws?width=90&height=30")
            for _ in range(100):
                await ws.send_json(["resize", {"width": 30000, "height": 30000}])
            await ws.send_json(["resize", {"width": 33, "height": 11}])
            await _logged(log, '"width": 33')
            await ws.close()
    finally:
        await door.stop()
    sizes = [json.loads(line) for line in log.read_text().splitlines()
             if '"resize"' in line]  # fmt: skip
    assert [(s["width"], s["height"]) for s in sizes] == [(240, 80), (33, 11)]


async def test_a_socket_that_sends_nothing_is_closed_without_a_word(tmp_path, monkeypatch):
    """Issue 37: a browser's pre-opened socket, or a kept-alive one between two page
    loads, sends nothing; after the header deadline it is closed with no answer (an
    unprompted 503 would be read as the reply to the browser's next request). A request
    that has begun still gets its refusal, whole deadline counted from its first byte."""
    ledger = Ledger(Budgets(header_timeout=0.3))
    door = await _door(tmp_path, monkeypatch, ledger=ledger)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        assert await asyncio.wait_for(reader.read(), 10) == b""  # EOF, zero bytes
        writer.close()
        # kept alive after one answer, then idle: closed without a second answer
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 200")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        await asyncio.wait_for(reader.readexactly(length), 10)
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
        # half a request after a long silence: refused, not dropped
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        writer.write(b"GET / HTTP/1.1\r\n")
        answer = await asyncio.wait_for(reader.read(), 10)
        assert answer.startswith(b"HTTP/1.1 503") and b"within 0.3 seconds" in answer
        writer.close()
        await until(lambda: ledger.count("pending") == 0, "every socket out of the ledger")
    finally:
        await door.stop()


@pytest.mark.slow
async def test_a_browser_reloading_does_not_eat_its_address_new_sessions(tmp_path, monkeypatch):
    """Issue 37: a reload replaces the same browser's app, paid from that browser's own
    bucket; its address keeps every new session it had."""
    ledger = Ledger(Budgets(app_start_burst=2, app_start_every=600.0))
    door = await _door(tmp_path, monkeypatch, ledger=ledger)
    log = tmp_path / "app.log"
    try:
        base = f"http://127.0.0.1:{door.port}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(base + "/") as page:
                assert "motherlode_player" in page.cookies
            for started in range(1, 6):  # a first visit, then four reloads
                tab = await http.ws_connect(base + "/ws?width=90&height=30")
                await until(lambda n=started: _starts(log) == n, f"app start {started}", 20)
                await tab.close()
        assert ledger.snapshot()["starts_refused"] == 0
        async with aiohttp.ClientSession() as http:  # no cookie: a new session each
            first = await http.ws_connect(base + "/ws?width=90&height=30")
            await until(lambda: _starts(log) == 6, "the address's second start", 20)
            third = await http.ws_connect(base + "/ws?width=90&height=30")
            message = await third.receive()
            assert b"Too many new sessions from your address" in message.data
            await first.close()
            await third.close()
    finally:
        await door.stop()
