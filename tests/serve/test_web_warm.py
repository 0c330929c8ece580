"""The web door's apps forked from the warm parent (``serve.web.forked``, issue 48).

First in process: a real ``WebDoor`` and a real warm parent of the test's own (it
forks a stand-in app that logs what it was given and echoes the keys it is sent, in
textual-serve's packets), a websocket client as the browser: a tab's app and its plain
seat are forked on pipes with the browser's driver in their environment and no secret;
one forked app killed closes its own tab only, and tells it; a parent whose code
changed starts that tab's app the old way and a fresh parent forks the next; a parent
that cannot start leaves every app to the old way. Then through ``motherlode serve``:
three browsers at one table, their apps forked by the warm parent; one app killed, and
the other two see its connection dropped and play on, and its browser is back in
the seat with a fresh forked app; with ``--cold``, the old way."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import textwrap
import time
from pathlib import Path

import aiohttp
import pytest

from net.budgets import Budgets, Ledger
from serve.warm import WARM_PARENT, Warm, WarmParent
from serve.web import WebDoor
from serve.web.browsers import Browsers
from serve.web.door import STOPPED
from tests.serve.helpers import ServeProcess, children_of
from tests.serve.web import Browser, Tab, goodbyes
from tests.waiting import until

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="pidfds are Linux's"),
]

ROOT = Path(__file__).resolve().parents[2]

# the stand-in app: what it was given into the log, then textual-serve's packets (a
# key comes back on the screen as "echo:KEY"); with --plain, lines ("said: LINE")
APP = textwrap.dedent("""
    import json, os, sys
    out = open(sys.argv[1], "a")
    out.write(json.dumps({
        "pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(),
        "driver": os.environ.get("TEXTUAL_DRIVER"),
        "secret": os.environ.get("MOTHERLODE_SERVE_PASSWORD"),
        "config": os.environ.get("MOTHERLODE_CONFIG_DIR"), "plain": "--plain" in sys.argv,
    }) + "\\n")
    out.flush()
    if "--plain" in sys.argv:
        for line in sys.stdin:
            if line.strip() == "leave":
                break
            print("said: " + line.strip(), flush=True)
        raise SystemExit(0)
    sys.stdout.buffer.write(b"__GANGLION__\\n")
    sys.stdout.flush()
    while True:
        head = sys.stdin.buffer.read(5)
        if len(head) < 5:
            break
        body = sys.stdin.buffer.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"D":
            said = b"echo:" + body + b"\\r\\n"
            sys.stdout.buffer.write(b"D" + len(said).to_bytes(4, "big") + said)
            sys.stdout.flush()
        elif b'"quit"' in body:  # as a Textual app does
            break
""")

# the test's warm parent: imports a module of the test's folder (which the test may
# change), then forks the stand-in app for each request
PARENT = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import warmed  # noqa: F401
    from serve.warm import serve_forks

    APP = open(sys.argv[2]).read()

    def run(args):
        exec(compile(APP, "app", "exec"), {"__name__": "__main__"})

    sys.exit(serve_forks(int(sys.argv[3]), run))
""")


class Stand:
    """The stand-in app's files: its program, its warm parent, its log."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.app = folder / "app.py"
        self.app.write_text(APP)
        (folder / "warmed.py").write_text("VALUE = 1\n")
        (folder / "parent.py").write_text(PARENT)
        self.log = folder / "app.log"
        self.argv = [sys.executable, str(self.app), str(self.log)]

    def parent(self) -> WarmParent:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        return WarmParent([sys.executable, str(self.folder / "parent.py"), str(self.folder),
                           str(self.app)], skip=2, env=env)  # fmt: skip

    def said(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()
                if line.startswith("{")]

    async def next_app(self, before: int) -> dict:
        await until(lambda: len(self.said()) > before, "the app started", 20)
        return self.said()[before]


async def _door(tmp_path: Path, monkeypatch, stand: Stand, warm: Warm) -> WebDoor:
    monkeypatch.setenv("MOTHERLODE_SERVE_PASSWORD", "not for apps")
    door = WebDoor(stand.argv, warm=warm, root=tmp_path / "serve",
                   ledger=Ledger(Budgets(app_start_burst=32)))
    await door.start("127.0.0.1", 0)
    return door


async def _tab(http: aiohttp.ClientSession, port: int, query: str = "") -> Tab:
    async with http.get(f"http://127.0.0.1:{port}/") as page:  # the browser's cookie
        assert page.status == 200
    return Tab(await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30"
                                     + query))


def _jar() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _old_way(app: dict) -> bool:
    """Started by the door itself (through the shell and ``env``), not forked."""
    parent = app["ppid"]
    if parent == os.getpid():
        return True
    stat = Path(f"/proc/{parent}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid()


async def test_a_tabs_app_and_its_plain_seat_are_forked_with_the_browsers_driver(
        tmp_path, monkeypatch):  # fmt: skip
    stand = Stand(tmp_path)
    warm = Warm(stand.parent)
    door = await _door(tmp_path, monkeypatch, stand, warm)
    try:
        await until(lambda: warm.parent is not None and warm.parent.ready, "the parent", 60)
        parent = warm.parent
        async with _jar() as http:
            tab = await _tab(http, door.port)
            app = await stand.next_app(0)
            await tab.type("g")
            await tab.wait_for("echo:g")  # keys in, the screen out: textual-serve's packets
            assert app["ppid"] == parent.proc.pid  # forked by the warm parent
            assert app["driver"] == "textual.drivers.web_driver:WebDriver"
            assert app["secret"] is None  # the server's secret stays with the server
            cookie = next(c.value for c in http.cookie_jar if c.key == "motherlode_player")
            home = Browsers(tmp_path / "serve").players / "_web" / \
                Browsers(tmp_path / "serve").key_of(cookie)
            assert app["cwd"] == str(home) and app["config"] == str(home / "config")
            # the plain page's seat: forked too, on lines
            plain = await http.ws_connect(
                f"http://127.0.0.1:{door.port}/ws?plain=1&width=100&height=30")
            seat = await stand.next_app(1)
            assert seat["plain"] and seat["ppid"] == parent.proc.pid
            assert seat["driver"] is None  # no browser's driver: it prints lines
            await plain.send_json(["stdin", "hello"])
            said = await asyncio.wait_for(plain.receive_json(), 20)
            assert said == ["line", "said: hello"]
            await plain.close()
            await until(lambda: not _alive(seat["pid"]), "the plain seat left", 20)
            # the tab closes: its app is asked to quit, and does
            await tab.ws.close()
            await until(lambda: not _alive(app["pid"]), "the app ended", 20)
            await until(lambda: not door.sessions, "the tab's session ended", 20)
    finally:
        await door.stop()
        await warm.close()


async def test_one_forked_app_killed_closes_its_own_tab_only(tmp_path, monkeypatch):
    stand = Stand(tmp_path)
    warm = Warm(stand.parent)
    door = await _door(tmp_path, monkeypatch, stand, warm)
    try:
        await until(lambda: warm.parent is not None and warm.parent.ready, "the parent", 60)
        async with _jar() as ann_http, _jar() as bob_http:
            ann = await _tab(ann_http, door.port)
            anns = await stand.next_app(0)
            bob = await _tab(bob_http, door.port)
            bobs = await stand.next_app(1)
            assert anns["ppid"] == bobs["ppid"] == warm.parent.proc.pid
            os.kill(anns["pid"], signal.SIGKILL)
            await asyncio.wait_for(ann.closed.wait(), 20)  # ann's tab is told, and closed
            assert goodbyes(ann) == [STOPPED]
            await bob.type("k")  # bob's app plays on
            await bob.wait_for("echo:k")
            assert _alive(bobs["pid"]) and not bob.closed.is_set()
            assert len(door.sessions) == 1
    finally:
        await door.stop()
        await warm.close()


async def test_a_parent_whose_code_changed_starts_the_tab_the_old_way(tmp_path, monkeypatch):
    stand = Stand(tmp_path)
    warm = Warm(stand.parent)
    door = await _door(tmp_path, monkeypatch, stand, warm)
    try:
        await until(lambda: warm.parent is not None and warm.parent.ready, "the parent", 60)
        old = warm.parent
        later = time.time() + 5
        os.utime(tmp_path / "warmed.py", (later, later))  # a new install on disk
        async with _jar() as http:
            tab = await _tab(http, door.port)
            app = await stand.next_app(0)
            await tab.type("a")
            await tab.wait_for("echo:a")  # it plays, the old way
            assert _old_way(app)
            await until(lambda: warm.parent is not None and warm.parent is not old
                        and warm.parent.ready, "a fresh parent", 60)
            assert old.stale
            await tab.ws.close()
            other = await _tab(http, door.port)  # the next tab: forked by the fresh one
            app = await stand.next_app(1)
            await other.type("b")
            await other.wait_for("echo:b")
            assert app["ppid"] == warm.parent.proc.pid
    finally:
        await door.stop()
        await warm.close()


async def test_a_parent_that_cannot_start_leaves_the_apps_to_the_old_way(tmp_path,
                                                                       monkeypatch):
    stand = Stand(tmp_path)
    warm = Warm(lambda: WarmParent([sys.executable, "-c", "raise SystemExit(3)"]))
    door = await _door(tmp_path, monkeypatch, stand, warm)
    try:
        await until(lambda: warm.parent is not None and warm.parent.proc is not None
                    and warm.parent.proc.returncode is not None, "the parent failed", 30)
        assert not warm.parent.ready
        async with _jar() as http:
            tab = await _tab(http, door.port)
            app = await stand.next_app(0)
            await tab.type("z")
            await tab.wait_for("echo:z")
            assert _old_way(app) and app["driver"] == "textual.drivers.web_driver:WebDriver"
            assert app["secret"] is None
    finally:
        await door.stop()
        await warm.close()


# -- through motherlode serve ----------------------------------------------------------


def _command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


NAMES = ("ann", "ben", "cat")


async def _seated(browser: Browser, name: str, first: bool) -> Tab:
    tab = await browser.open_tab()
    await tab.wait_for("Your name at the table")
    await tab.type(f"{name}\r")
    await tab.wait_for(f"You play as {name}")
    await tab.type("\r")  # the table the server opened
    await tab.wait_for(rf"\d\. {name} +not ready +\(you\)")
    if first:
        await tab.wait_for("owner: you")
    return tab


@pytest.mark.slow
@pytest.mark.timeout(180)
async def test_serve_forks_the_browsers_apps_and_one_killed_leaves_the_others_playing(
        tmp_path):  # fmt: skip
    serve = await ServeProcess.start(tmp_path / "data", "--game", "nuggets", "--seats", "3",
                                     "--seed", "warm-web-3", "--grace", "60", "--web", "0")
    browsers = {name: Browser(serve.web_port) for name in NAMES}
    try:
        await serve.wait_for_line("forked from a warm parent", 60.0)
        (warm,) = [p for p in children_of(serve.proc.pid) if WARM_PARENT in _command_of(p)]
        tabs = {}
        for n, name in enumerate(NAMES):
            tabs[name] = await _seated(browsers[name], name, n == 0)
        for name in NAMES:
            await tabs[name].type("r")
            for other in NAMES:
                await tabs[other].wait_for(rf"\d\. {name} +ready|'s turn|your turn")
        for name in NAMES:
            await tabs[name].wait_for(r"'s turn|your turn")
        apps = children_of(warm)
        assert len(apps) == 3  # every browser's app forked by the warm parent
        assert not [p for p in children_of(serve.proc.pid)
                    if p != warm and "served" in _command_of(p)]  # none the old way
        homes = Browsers(serve.data / "serve")
        home_of = {name: homes.key_of(browsers[name].cookie) for name in NAMES}
        app_of = {name: next(p for p in apps if Path(os.readlink(f"/proc/{p}/cwd")).name
                             == home_of[name]) for name in NAMES}  # fmt: skip
        (turn,) = [name for name in NAMES if f"{name}, your turn" in tabs[name].text]
        victim, other = [name for name in NAMES if name != turn]
        os.kill(app_of[victim], signal.SIGKILL)
        await asyncio.wait_for(tabs[victim].closed.wait(), 30)
        assert goodbyes(tabs[victim]) == [STOPPED]  # the page says so
        for name in (turn, other):  # the others see the seat away, not their game end
            await tabs[name].wait_for(rf"{victim}'s connection dropped", 30)
        await until(lambda: app_of[victim] not in children_of(warm), "the app reaped")
        assert sorted(children_of(warm)) == sorted([app_of[turn], app_of[other]])
        await tabs[turn].type("\r")  # a roll
        await tabs[other].wait_for(rf"{turn} rolled", 30)
        await tabs[turn].wait_for(rf"{turn} rolled|you rolled", 30)
        # the victim opens the page again: a fresh forked app, back in the seat
        tabs[victim] = await browsers[victim].open_tab()
        await tabs[victim].wait_for(r"'s turn|your turn", 30)
        await tabs[other].wait_for(rf"{victim} is back", 30)
        assert len(children_of(warm)) == 3
    finally:
        for browser in browsers.values():
            await browser.close()
        await serve.stop()


@pytest.mark.slow
async def test_cold_serve_starts_the_browsers_apps_the_old_way(tmp_path):
    serve = await ServeProcess.start(tmp_path / "data", "--web", "0", "--cold")
    browser = Browser(serve.web_port)
    try:
        tab = await browser.open_tab()
        await tab.wait_for("Your name at the table")
        kids = children_of(serve.proc.pid)
        assert not [p for p in kids if WARM_PARENT in _command_of(p)]  # no parent at all
        assert [p for p in kids if "served" in _command_of(p)]  # the app: serve's own
        assert "forked from a warm parent" not in serve.output
    finally:
        await browser.close()
        await serve.stop()
