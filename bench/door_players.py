"""The seated players of ``bench/attack_doors.py``: six real players at one table (two
apps over SSH, three LAN clients, one web tab), each a process of its own (the bench's
``--player``) playing at a person's pace, and what each saw (``Screen``: a terminal
read with pyte)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import asyncssh  # noqa: E402
import msgspec  # noqa: E402
import pyte  # noqa: E402

from net import protocol as p  # noqa: E402
from tests.serve.helpers import ServeProcess  # noqa: E402

#: the bench's password (``--password``), which the web tab and SSH players log in with
PASSWORD = "gold rush 1849"
#: the script a player's process runs (``--player``)
BENCH = Path(__file__).with_name("attack_doors.py")


class Screen:
    def __init__(self, size=(100, 30)) -> None:
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)
        self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, pattern: str, timeout: float = 30.0) -> float:
        start = time.perf_counter()
        while not re.search(pattern, self.text):  # checked on each new output only
            self.changed.clear()
            left = timeout - (time.perf_counter() - start)
            if left <= 0:
                raise AssertionError(f"no {pattern!r}:\n{self.text}")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return time.perf_counter() - start


PLAYERS = [("ssh", "ann"), ("ssh", "bob"), ("web", "Wendy"), ("lan", "Lan1"),
           ("lan", "Lan2"), ("lan", "Lan3")]


class Player:
    """One seated player, in a process of its own (``--player``): it plays at a
    person's pace (a key every ``pace`` seconds, give or take 30%, after the last
    answer) and prints a JSON line for each answer's time, its seating and any
    problem, for the bench's process to collect."""

    def __init__(self, ports: dict[str, int], password: bool, pace: float, seed: int) -> None:
        self.ports = ports
        self.password = password
        self.pace = pace
        self.random = random.Random(seed)
        self.closers: list = []

    @staticmethod
    def emit(**line) -> None:
        print(json.dumps(line), flush=True)

    def problem(self, text: str) -> None:
        self.emit(problem=text[:2000])

    async def play(self, kind: str, name: str) -> None:
        play = {"ssh": self._ssh, "web": self._web, "lan": self._lan}[kind]
        try:
            await play(name)
        except Exception as error:  # a player that stops is a finding, not a crash
            self.problem(f"{kind} {name} stopped: {error!r}")
        finally:
            for close in self.closers:
                with contextlib.suppress(Exception):
                    close()

    async def _think(self) -> None:
        await asyncio.sleep(self.pace * self.random.uniform(0.7, 1.3))

    async def _toggle(self, kind: str, name: str, screen: Screen, press) -> None:
        self.emit(seated=name)
        while True:
            await self._think()
            # the state on the screen now decides what the key must show next
            ready = re.search(rf"\d\. {name} +ready +\(you\)", screen.text) is None
            start = time.perf_counter()
            await press(b"r")
            row = rf"\d\. {name} +{'ready' if ready else 'not ready'} +\(you\)"
            try:
                await screen.wait_for(row, 15.0)
            except AssertionError:
                self.problem(f"{kind} {name}: no answer to r within 15 s:\n{screen.text}")
                continue
            self.emit(kind=kind, sample=time.perf_counter() - start)

    async def _ssh(self, name: str) -> None:
        options = {"password": PASSWORD} if self.password else {}
        conn = await asyncssh.connect(
            "127.0.0.1", self.ports["ssh"], username=name, known_hosts=None,
            encoding=None, agent_path=None,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")], **options)
        self.closers.append(conn.close)
        proc = await conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                         stderr=asyncssh.STDOUT)
        screen = Screen()

        async def pump() -> None:
            while data := await proc.stdout.read(65536):
                screen.feed(data)
            self.problem(f"ssh {name}: the session ended")

        pumping = asyncio.create_task(pump())
        await screen.wait_for("Tables at this host", 60)
        await screen.wait_for("Fool's Gold at", 30)
        proc.stdin.write(b"\r")
        await screen.wait_for(rf"\d\. {name} +not ready +\(you\)", 30)

        async def press(key: bytes) -> None:
            proc.stdin.write(key)

        try:
            await self._toggle("ssh", name, screen, press)
        finally:
            pumping.cancel()

    async def _web(self, name: str) -> None:
        base = f"http://127.0.0.1:{self.ports['web']}"
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.closers.append(lambda: asyncio.ensure_future(http.close()))
        if self.password:
            async with http.post(base + "/login", data={"password": PASSWORD}) as page:
                assert page.status == 200, page.status
        ws = await http.ws_connect(base + "/ws?width=100&height=30")
        screen = Screen()

        async def pump() -> None:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    screen.feed(message.data)
            self.problem(f"web {name}: the tab closed")

        pumping = asyncio.create_task(pump())
        await screen.wait_for("Your name at the table", 60)
        await ws.send_json(["stdin", name])
        await screen.wait_for(name)
        await ws.send_json(["stdin", "\r"])
        await screen.wait_for("Fool's Gold at", 60)
        await ws.send_json(["stdin", "\r"])
        await screen.wait_for(rf"\d\. {name} +not ready +\(you\)", 30)

        async def press(key: bytes) -> None:
            await ws.send_json(["stdin", key.decode()])

        try:
            await self._toggle("web", name, screen, press)
        finally:
            pumping.cancel()

    async def _lan(self, name: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.ports["game"])
        self.closers.append(writer.close)
        writer.write(p.encode(p.Hello(protocol=3, name=name)))
        line = await reader.readline()
        welcome = msgspec.json.decode(line)
        if welcome.get("type") != "welcome" or welcome.get("seat") is None:
            self.problem(f"lan {name}: refused: {line[:200]!r}")
            return
        self.emit(seated=name)
        n = 0
        while True:
            await self._think()
            n += 1
            start = time.perf_counter()
            writer.write(p.encode(p.Ping(id=n)))
            while True:
                line = await asyncio.wait_for(reader.readline(), 30)
                if not line:
                    self.problem(f"lan {name}: closed by the host")
                    return
                message = msgspec.json.decode(line)
                if message.get("type") == "error" or message.get("type") == "bye":
                    self.problem(f"lan {name}: {message}")
                if message.get("type") == "pong" and message.get("id") == n:
                    break
            self.emit(kind="lan", sample=time.perf_counter() - start)


class Players:
    """The six players, each a process of its own (so no player's screen parsing or
    scheduling is in another's samples); ``samples`` collects (kind, seconds) while
    ``recording``."""

    def __init__(self, serve: ServeProcess, password: bool, pace: float) -> None:
        self.ports = {"ssh": serve.ssh_port, "web": serve.web_port, "game": serve.game_port}
        self.password = password
        self.pace = pace
        self.samples: list[tuple[str, float]] = []
        self.recording = False
        self.problems: list[str] = []
        self.procs: list[asyncio.subprocess.Process] = []
        self.tasks: list[asyncio.Task] = []
        self.seated = 0  # players past their setup, playing

    async def start(self) -> None:
        for seed, (kind, name) in enumerate(PLAYERS):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(BENCH), "--player", f"{kind}:{name}", "--ports",
                json.dumps(self.ports), "--pace", str(self.pace), "--seed", str(seed),
                *(["--password"] if self.password else []), cwd=ROOT,
                stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL)
            self.procs.append(proc)
            self.tasks.append(asyncio.create_task(self._collect(proc)))
            if kind != "lan":
                await asyncio.sleep(1.5)  # an app starts before the next

    async def _collect(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            try:
                found = json.loads(line)
            except ValueError:
                continue
            if "seated" in found:
                self.seated += 1
            elif "problem" in found:
                self.problems.append(found["problem"])
            elif self.recording:
                self.samples.append((found["kind"], found["sample"]))

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()


# -- the attacker (a process of its own) ----------------------------------------------
