"""A warm parent for the served apps (issue 36): one process that has imported
everything a player's app needs forks each app, instead of a fresh interpreter
importing Textual, Rich and the product for every session.

Two halves, joined by a ``SOCK_SEQPACKET`` Unix socket pair (one message a datagram):

- :class:`WarmParent`, in the serve process: starts the parent (the product's own
  entry point, ``motherlode warm-parent``: the door never imports the app), asks it
  for an app with :meth:`WarmParent.spawn` (the app's arguments, environment, folder,
  and its standard streams passed as descriptors: an SSH app's pty slave, or a web
  app's three pipes), and hands back a :class:`Forked` that waits like a subprocess.
  :class:`Warm` is the doors' one parent: both doors fork from it, and it is replaced
  when it says its code is old.
- :func:`serve_forks`, in the parent: imports (the caller's ``preload``), freezes the
  heap (``gc.freeze()``: the collector then never writes to the shared pages, so they
  stay shared copy-on-write), and forks one child per request. A child starts its own
  session (on a pty, with it as its controlling terminal; on pipes, with none) and
  runs the app (``run(args)``). The parent reaps its children and reports each exit.

What the doors promise still holds: a child is its own process (a crash or a hang
troubles no one else, its limits are its own), and the door keeps the pty's master,
so a dropped player's app waits for them as before. A parent whose installed code
changed on disk since it started (a new version) answers ``stale`` instead of forking
old code; the door then starts a fresh parent and runs this app the old way. Where
the parent cannot start or answer, every app is started the old way: nothing a
player sees depends on it.

Messages (JSON): to the parent ``{"args", "env", "cwd", "stdio"}`` with one
descriptor (``"stdio": "pty"``, the default) or three (``"pipes"``: the app's stdin,
stdout and stderr, in that order); from
it ``{"ready": pid}`` once, ``{"pid": n}`` or ``{"stale": true}`` or ``{"error": s}``
per request, in order, and ``{"exit": pid, "code": c}`` whenever a child ends.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import fcntl
import gc
import json
import logging
import os
import select
import signal
import socket
import sys
import termios
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: the product's command that runs a warm parent (not one a person types)
WARM_PARENT = "warm-parent"
#: seconds a parent has to import everything and say it is ready
READY_WITHIN = 60.0
#: seconds a request waits for the parent's answer before the app is started the old way
ANSWER_WITHIN = 5.0
MAX_MESSAGE = 1 << 20
#: an app's standard streams: a pty's slave end, or three pipes (stdin, stdout, stderr)
PTY, PIPES = "pty", "pipes"


def _send(sock: socket.socket, message: dict[str, Any], fds: Iterable[int] = ()) -> None:
    data = json.dumps(message).encode()
    fds = list(fds)
    if fds:
        sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    else:
        sock.send(data)


def _receive(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and the descriptors it carried; (None, []) at the end."""
    fds = array.array("i")
    data, ancillary, _flags, _address = sock.recvmsg(
        MAX_MESSAGE, socket.CMSG_SPACE(4 * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    return json.loads(data), list(fds)


# -- the parent ------------------------------------------------------------------------


def fingerprint() -> dict[str, int]:
    """The modification times of every module file this process imported."""
    files: dict[str, int] = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            with contextlib.suppress(OSError):
                files[path] = os.stat(path).st_mtime_ns
    return files


def stale(files: dict[str, int]) -> bool:
    """Whether any of ``files`` changed or went since (a new install on disk)."""
    for path, mtime in files.items():
        try:
            if os.stat(path).st_mtime_ns != mtime:
                return True
        except OSError:
            return True
    return False


def serve_forks(fd: int, run: Callable[[list[str]], int | None]) -> int:
    """The parent's loop on socket ``fd``: everything is imported by now (the caller's
    job); fork ``run(args)`` for each request until the door closes its end."""
    sock = socket.socket(fileno=fd)
    gc.collect()
    gc.freeze()  # the imported heap: shared with every child, and left alone
    files = fingerprint()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the door decides when apps stop
    try:
        _send(sock, {"ready": os.getpid()})
        while True:
            readable, _, _ = select.select([sock, wake_read], [], [])
            if wake_read in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_read, 4096)
                _reap(sock)
            if sock in readable:
                message, fds = _receive(sock)
                if message is None:
                    return 0  # the door closed: the children run on, on their own
                _answer(sock, message, fds, files, run, (wake_read, wake_write))
    except (BrokenPipeError, ConnectionResetError):
        return 0  # the door went first (a server that could not start): nothing to say
    finally:
        _reap(sock)


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        with contextlib.suppress(OSError):
            _send(sock, {"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def _answer(sock: socket.socket, message: dict[str, Any], fds: list[int],
            files: dict[str, int], run: Callable[[list[str]], int | None],
            wake: tuple[int, int]) -> None:  # fmt: skip
    try:
        stdio = message.get("stdio", PTY)
        wanted = {PTY: 1, PIPES: 3}.get(stdio)
        if wanted is None or len(fds) != wanted:
            _send(sock, {"error": "one terminal descriptor expected" if stdio == PTY
                         else "three pipe descriptors expected"})
            return
        if stale(files):
            _send(sock, {"stale": True})
            return
        args = [str(a) for a in message["args"]]
        env = {str(k): str(v) for k, v in dict(message["env"]).items()}
        cwd = str(message["cwd"])
        pid = os.fork()
        if pid == 0:
            _child(args, env, cwd, fds, [sock.fileno(), *wake], run)
        _send(sock, {"pid": pid})
    except Exception as error:  # a bad request: said, and the parent goes on
        with contextlib.suppress(OSError):
            _send(sock, {"error": f"{type(error).__name__}: {error}"})
    finally:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def _child(args: list[str], env: dict[str, str], cwd: str, stdio: list[int],
           inherited: list[int], run: Callable[[list[str]], int | None]) -> None:  # fmt: skip
    """The forked app: its own session on its own terminal (one descriptor) or on its
    pipes (three: stdin, stdout, stderr), then ``run``. Never returns."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        for fd in inherited:
            with contextlib.suppress(OSError):
                os.close(fd)
        os.setsid()
        if len(stdio) == 1:
            fcntl.ioctl(stdio[0], termios.TIOCSCTTY, 0)
            stdio = stdio * 3
        for target, fd in enumerate(stdio):
            os.dup2(fd, target)
        for fd in set(stdio) - {0, 1, 2}:
            os.close(fd)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        sys.argv = [sys.argv[0], *args]
        result = run(args)
        code = result if isinstance(result, int) else 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


# -- the door's side -------------------------------------------------------------------


class Forked:
    """A forked app, as much of ``asyncio.subprocess.Process`` as a door uses:
    ``pid``, ``returncode`` and ``wait()``. Its end is seen on a pidfd (the parent
    need not be alive for that); its exit status is the parent's report."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        loop = asyncio.get_running_loop()
        self._code: asyncio.Future[int] = loop.create_future()
        self._ended = loop.create_task(self._watch())

    def _exited(self, code: int) -> None:
        if not self._code.done():
            self._code.set_result(code)

    async def _watch(self) -> int:
        loop = asyncio.get_running_loop()
        try:
            pidfd = os.pidfd_open(self.pid)
        except OSError:  # gone already (or no pidfds): the parent's report says
            pidfd = None
        if pidfd is not None:
            gone = loop.create_future()
            loop.add_reader(pidfd, lambda: gone.done() or gone.set_result(None))
            try:
                await asyncio.wait({gone, self._code}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                loop.remove_reader(pidfd)
                os.close(pidfd)
        # it ended: the parent's report follows (unless the parent is gone too)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._code), 1.0 if pidfd else None)
        self.returncode = self._code.result() if self._code.done() else -1
        return self.returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)


class WarmParent:
    """The serve process's handle on one warm parent (see the module docstring)."""

    def __init__(self, command: list[str], skip: int = 0,
                 env: dict[str, str] | None = None) -> None:  # fmt: skip
        self.command = command  # the parent's argv; the descriptor's number is appended
        self.skip = skip  # words of an app's argv that name the program, not its args
        self.env = env
        self.proc: asyncio.subprocess.Process | None = None
        self.sock: socket.socket | None = None
        self.ready = False
        self.stale = False  # it said its code is old: a fresh one is wanted
        self._answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._children: dict[int, Forked] = {}
        self._early: dict[int, int] = {}  # exits reported before their answer was read
        self._lock = asyncio.Lock()
        self._reader: asyncio.Task | None = None

    async def start(self) -> bool:
        """Start the parent and wait until it has imported everything; False (and
        logged) if it cannot."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, str(theirs.fileno()), pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL, env=self.env, start_new_session=True)
        except OSError as error:
            log.warning("the warm parent did not start: %s", error)
            ours.close()
            return False
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock = ours
        loop = asyncio.get_running_loop()
        try:
            data = await asyncio.wait_for(loop.sock_recv(ours, MAX_MESSAGE), READY_WITHIN)
            hello = json.loads(data) if data else {}
        except (TimeoutError, OSError, ValueError):
            hello = {}
        if "ready" not in hello:
            log.warning("the warm parent did not say it was ready")
            await self.close()
            return False
        self.ready = True
        self._reader = loop.create_task(self._read())
        return True

    async def _read(self) -> None:
        assert self.sock is not None
        loop = asyncio.get_running_loop()
        try:
            while True:
                data = await loop.sock_recv(self.sock, MAX_MESSAGE)
                if not data:
                    break
                message = json.loads(data)
                if "exit" in message:
                    child = self._children.pop(message["exit"], None)
                    code = int(message.get("code", -1))
                    if child is not None:
                        child._exited(code)
                    else:
                        self._early[message["exit"]] = code
                else:
                    self._answers.put_nowait(message)
        except (OSError, ValueError):
            pass
        finally:
            self.ready = False
            self._answers.put_nowait({"error": "the warm parent is gone"})

    async def spawn(self, args: list[str], env: dict[str, str], cwd: Path,
                    stdio: int | tuple[int, int, int]) -> Forked | None:  # fmt: skip
        """An app forked on the pty slave ``stdio``, or on three pipes' ends (its
        stdin, stdout, stderr); the caller keeps and closes its own copies. None:
        start it the old way. Cancelled, the request still goes on (the answers stay
        in order), and an app forked for nobody is killed."""
        if not self.ready or self.sock is None:
            return None
        # copies of our own: the caller may close its descriptors once we return
        fds = [os.dup(fd) for fd in ([stdio] if isinstance(stdio, int) else stdio)]
        request = {"args": args, "env": env, "cwd": str(cwd),
                   "stdio": PTY if len(fds) == 1 else PIPES}
        exchange = asyncio.get_running_loop().create_task(self._exchange(request, fds))
        try:
            answer = await asyncio.shield(exchange)
        except asyncio.CancelledError:
            exchange.add_done_callback(self._unwanted)
            raise
        if answer is None:
            return None
        if answer.get("stale"):
            self.stale = True
            self.ready = False
            return None
        pid = answer.get("pid")
        if not isinstance(pid, int):
            log.warning("the warm parent refused an app: %s", answer.get("error"))
            return None
        child = Forked(pid)
        if pid in self._early:
            child._exited(self._early.pop(pid))
        else:
            self._children[pid] = child
        return child

    async def _exchange(self, request: dict[str, Any], fds: list[int]) -> dict[str, Any] | None:
        try:
            async with self._lock:  # one request at a time: answers come in order
                if not self.ready or self.sock is None:
                    return None
                _send(self.sock, request, fds)
                return await asyncio.wait_for(self._answers.get(), ANSWER_WITHIN)
        except (OSError, TimeoutError) as error:
            log.warning("the warm parent did not answer: %s", error)
            self.ready = False
            return None
        finally:
            for fd in fds:
                os.close(fd)

    def _unwanted(self, exchange: asyncio.Task) -> None:
        """The answer to a cancelled request: its app, if any, is nobody's."""
        answer = None if exchange.cancelled() else exchange.result()
        pid = answer.get("pid") if answer else None
        if isinstance(pid, int):  # the app, then its session (once it has one)
            for kill in (os.kill, os.killpg):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)

    async def retire(self) -> None:
        """Fork nothing more; close once every app it forked has ended (until then it
        reports their exits)."""
        self.ready = False
        children = list(self._children.values())
        if children:
            await asyncio.gather(*(child.wait() for child in children))
        await self.close()

    async def close(self) -> None:
        """Close the door's end: the parent exits; its children run on, on their own
        (the door stops them itself)."""
        self.ready = False
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        if self.proc is not None and self.proc.returncode is None:
            try:
                await asyncio.wait_for(self.proc.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()


class Warm:
    """The doors' one warm parent, made by ``factory``: started in the background by
    :meth:`up` (until it is ready, apps start the old way), and replaced by a fresh
    one when it says its code is old. Both doors fork from it; its owner (``serve``)
    closes it once every door has stopped. ``report`` says what happened, in words."""

    def __init__(self, factory: Callable[[], WarmParent],
                 report: Callable[[str], None] = lambda text: None) -> None:  # fmt: skip
        self.factory = factory
        self.report = report
        self.parent: WarmParent | None = None
        self.closing = False
        self._retired: set[WarmParent] = set()  # old parents, until their apps end
        self._tasks: set[asyncio.Task] = set()

    def up(self) -> None:
        """Start a parent, unless there is one already."""
        if self.closing or self.parent is not None:
            return
        parent = self.parent = self.factory()

        async def start() -> None:
            if await parent.start():
                self.report("new players' apps are forked from a warm parent")

        self._run(start())

    async def spawn(self, argv: list[str], env: dict[str, str], cwd: Path,
                    stdio: int | tuple[int, int, int]) -> Forked | None:  # fmt: skip
        """The app of the whole command line ``argv`` forked on ``stdio``
        (:meth:`WarmParent.spawn`), or None: start it the old way."""
        parent = self.parent
        if parent is None or not parent.ready:
            return None
        forked = await parent.spawn(argv[parent.skip:], env, cwd, stdio)
        if parent.stale and parent is self.parent:  # it forked nothing: a fresh one
            self.report("the installed code changed; a fresh parent for new apps")
            self.parent = None
            self._retired.add(parent)
            self._run(self._retire(parent))
            self.up()
        return forked

    async def _retire(self, parent: WarmParent) -> None:
        await parent.retire()  # it reports its apps' ends until the last one
        self._retired.discard(parent)

    def _run(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Close every parent (their apps are the doors' to stop)."""
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for parent in [*self._retired, *([self.parent] if self.parent else [])]:
            await parent.close()
        self._retired.clear()
