"""The warm parent the SSH door forks its apps from (``serve.warm``, issue 36).

First the fork server alone, with a small parent program of the test's own (real
processes, a real pty): what a forked app gets (its own session on its own terminal,
its arguments, folder and environment, the frozen heap), its exit status, a crash, a
parent whose code changed on disk, a parent that died. Then through ``motherlode
serve``: the players' apps are forked from one warm parent, one player's app killed
troubles no one else, and a changed install is served by a fresh parent."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest

from serve.warm import WARM_PARENT, WarmParent
from tests.serve.helpers import Player, ServeProcess, children_of
from tests.waiting import until

pytestmark = [
    pytest.mark.timeout(90),
    pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="pidfds are Linux's"),
]

ROOT = Path(__file__).resolve().parents[2]

# the test's own parent: imports a module of the test's folder, then serves forks of
# ``run``, which prints what the app was given and exits with the code it is asked
PARENT = textwrap.dedent("""
    import gc, json, os, sys
    sys.path.insert(0, sys.argv[1])
    import warmed  # noqa: F401 - a module whose file the test may change
    from serve.warm import serve_forks

    def run(args):
        if args[0] == "crash":
            raise RuntimeError("the app broke")
        if args[0] == "hang":
            import time
            time.sleep(60)
        print(json.dumps({"args": args, "cwd": os.getcwd(), "env": os.environ.get("WHO"),
                          "frozen": gc.get_freeze_count(), "leader": os.getsid(0) == os.getpid(),
                          "tty": os.ttyname(0), "ppid": os.getppid()}), flush=True)
        return int(args[1])

    sys.exit(serve_forks(int(sys.argv[2]), run))
""")


async def read_pty(master: int, until_text: str, within: float = 10.0) -> str:
    os.set_blocking(master, False)
    seen = [b""]

    def arrived() -> bool:
        try:
            seen[0] += os.read(master, 65536)
        except OSError:  # nothing yet (BlockingIOError), or EIO: the app closed it
            pass
        return until_text.encode() in seen[0]

    await until(arrived, lambda: f"{until_text!r} on the terminal: {seen[0]!r}", within,
                step=0.01)
    return seen[0].decode(errors="replace")


@pytest.fixture
async def parent(tmp_path):
    (tmp_path / "warmed.py").write_text("VALUE = 1\n")
    (tmp_path / "parent.py").write_text(PARENT)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    warm = WarmParent([sys.executable, str(tmp_path / "parent.py"), str(tmp_path)], env=env)
    assert await warm.start()
    yield warm
    await warm.close()


async def fork(warm: WarmParent, args: list[str], cwd: Path, who: str = "ann"):
    master, slave = os.openpty()
    try:
        child = await warm.spawn(args, {"WHO": who, "PATH": os.environ["PATH"]}, cwd, slave)
    finally:
        os.close(slave)  # the door's copy: the app has its own
    return child, master


async def test_a_forked_app_has_its_own_session_terminal_and_words(parent, tmp_path):
    import json

    home = tmp_path / "home"
    home.mkdir()
    child, master = await fork(parent, ["ok", "7"], home, who="bob")
    assert child is not None and child.pid != parent.proc.pid
    text = await read_pty(master, "}")
    said = json.loads(text[text.index("{"): text.rindex("}") + 1])
    assert said["args"] == ["ok", "7"] and said["cwd"] == str(home) and said["env"] == "bob"
    assert said["leader"]  # a session of its own: the door signals its group
    assert said["tty"].startswith("/dev/pts/")  # the pty is its controlling terminal
    assert said["frozen"] > 1000  # the imported heap is frozen, so it stays shared
    assert said["ppid"] == parent.proc.pid  # forked by the warm parent
    assert await asyncio.wait_for(child.wait(), 10) == 7  # its exit status, as reported
    os.close(master)


async def test_a_crashing_app_troubles_neither_the_parent_nor_the_next_app(parent, tmp_path):
    child, master = await fork(parent, ["crash", "0"], tmp_path)
    assert "the app broke" in await read_pty(master, "the app broke")  # on its own screen
    assert await asyncio.wait_for(child.wait(), 10) == 1
    os.close(master)
    hung, hung_master = await fork(parent, ["hang", "0"], tmp_path)
    nxt, master = await fork(parent, ["ok", "0"], tmp_path)  # a hung app holds no one up
    await read_pty(master, "}")
    assert await asyncio.wait_for(nxt.wait(), 10) == 0
    os.killpg(hung.pid, signal.SIGKILL)  # as the door stops an app that does not quit
    assert await asyncio.wait_for(hung.wait(), 10) == -signal.SIGKILL
    for fd in (master, hung_master):
        os.close(fd)


async def test_a_parent_whose_code_changed_forks_no_old_code(parent, tmp_path):
    module = tmp_path / "warmed.py"
    later = time.time() + 5
    os.utime(module, (later, later))  # a new install on disk
    child, master = await fork(parent, ["ok", "0"], tmp_path)
    os.close(master)
    assert child is None and parent.stale  # the door starts it the old way, and a new parent


async def test_an_app_outlives_its_parent_and_its_end_is_still_seen(parent, tmp_path):
    hung, master = await fork(parent, ["hang", "0"], tmp_path)
    parent.proc.kill()  # the parent dies; its app plays on
    await parent.proc.wait()
    await until(lambda: not parent.ready, "the door saw the parent go")
    child, spare = await fork(parent, ["ok", "0"], tmp_path)
    assert child is None  # no parent: the door starts apps the old way
    os.close(spare)
    os.kill(hung.pid, 0)  # still running
    os.killpg(hung.pid, signal.SIGKILL)
    assert await asyncio.wait_for(hung.wait(), 10) == -1  # ended; its status is unknown
    os.close(master)


async def test_a_bad_request_is_refused_and_the_parent_goes_on(parent, tmp_path):
    from serve.warm import _send

    _send(parent.sock, {"args": ["ok", "0"], "env": {}, "cwd": str(tmp_path)})  # no pty
    answer = await asyncio.wait_for(parent._answers.get(), 10)
    assert "descriptor" in answer["error"]
    child, master = await fork(parent, ["ok", "0"], tmp_path)
    await read_pty(master, "}")
    assert await asyncio.wait_for(child.wait(), 10) == 0
    os.close(master)


async def test_a_cancelled_request_keeps_the_answers_in_order(parent, tmp_path):
    from tests.serve.helpers import children_of

    os.kill(parent.proc.pid, signal.SIGSTOP)  # the parent answers nothing for now
    try:
        master, slave = os.openpty()
        asking = asyncio.create_task(parent.spawn(["hang", "0"], {}, tmp_path, slave))
        await until(lambda: parent._lock.locked(), "the request sent")
        asking.cancel()  # the tab closed while its app was being forked
        os.close(slave)
    finally:
        os.kill(parent.proc.pid, signal.SIGCONT)
    with pytest.raises(asyncio.CancelledError):
        await asking
    # the app forked for nobody is killed, and the next request gets its own answer
    await until(lambda: not children_of(parent.proc.pid), "the unwanted app ended")
    child, other = await fork(parent, ["ok", "5"], tmp_path)
    assert '"ok"' in await read_pty(other, "}")
    assert await asyncio.wait_for(child.wait(), 10) == 5
    for fd in (master, other):
        os.close(fd)


def test_the_app_knows_the_parents_command():
    assert WARM_PARENT in (ROOT / "tui" / "cli.py").read_text()


# -- through motherlode serve ----------------------------------------------------------


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


MENU = "Tables at this host"


@pytest.mark.slow
async def test_serve_forks_the_players_apps_from_one_warm_parent(tmp_path):
    import asyncssh

    serve = await ServeProcess.start(tmp_path / "data")
    players: list[Player] = []
    try:
        def parents() -> list[int]:
            return [p for p in children_of(serve.proc.pid) if WARM_PARENT in command_of(p)]

        await serve.wait_for_line("forked from a warm parent", 30.0)
        (warm,) = parents()
        keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}
        for name, key in keys.items():
            player = await Player.connect(serve.ssh_port, name, key)
            players.append(player)
            await player.wait_for(MENU)
        ann, bob = players
        apps = children_of(warm)
        assert len(apps) == 2  # both forked from it, none started by serve itself
        assert not [p for p in children_of(serve.proc.pid)
                    if p != warm and "served" in command_of(p)]
        # one player's app killed: theirs ends, the other plays on
        (victim,) = [p for p in apps if "ann" in Path(os.readlink(f"/proc/{p}/cwd")).name]
        os.kill(victim, signal.SIGKILL)
        await until(lambda: len(children_of(warm)) == 1, "the killed app reaped")
        assert await ann.exit_status() is not None  # ann's session ended
        bob.send(b"?")  # bob's app still answers
        await bob.wait_for("Everywhere")
        # bob's line drops; the forked app waits for him, and he is back in it
        (bobs,) = children_of(warm)
        bob.abort()
        await serve.wait_for_line("bob dropped")
        bob = await Player.connect(serve.ssh_port, "bob", keys["bob"])
        players.append(bob)
        await bob.wait_for("Everywhere")  # the same screen he left
        assert children_of(warm) == [bobs]
        # a changed install: the next player's app comes from a fresh parent
        later = time.time() + 5
        touched = ROOT / "tui" / "settings.py"
        before = touched.stat()
        try:
            os.utime(touched, (later, later))
            carl = await Player.connect(serve.ssh_port, "carl",
                                        asyncssh.generate_private_key("ssh-ed25519"))
            players.append(carl)
            await carl.wait_for(MENU)
            await until(lambda: [p for p in parents() if p != warm], "a fresh parent", 30.0)
            await serve.wait_for_line("the installed code changed")
        finally:
            os.utime(touched, ns=(before.st_atime_ns, before.st_mtime_ns))
    finally:
        for player in players:
            await player.close()
        await serve.stop()


def test_every_module_a_served_flow_imports_on_its_way_is_in_the_warm_parent():
    """What ``tui.flows.served`` imports inside its functions (its first screen, its
    kept seat, a table) is imported by the warm parent before it forks: a module
    imported in a child is built again in every child, on the way to its first frame
    and into its private pages (issue 48: 19 modules, 10-40 ms, 1 MiB a player)."""
    import ast
    import subprocess
    import sys
    from pathlib import Path

    import tui.flows.served as served

    found: set[str] = set()
    for fn in ast.walk(ast.parse(Path(served.__file__).read_text())):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                if node.module == "tui":  # ``from tui import modes``
                    found.update(f"tui.{alias.name}" for alias in node.names)
    lazy = sorted(found)
    assert "tui.modes" in lazy  # (the parse found the imports it is about)
    check = ("import importlib, sys; from tui.cli import WARM_MODULES\n"
             "for m in WARM_MODULES: importlib.import_module(m)\n"
             f"missing = [m for m in {lazy!r} if m not in sys.modules]\n"
             "print(missing)")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == "[]", f"imported in every forked child, not in the parent: {out}"
