"""The tests keep one harness per layer, checked: no test imports another test module,
nothing polls but ``tests/waiting.py``, and nothing sleeps where a condition could be
waited on.

What this reads, in every ``.py`` file under ``tests/`` (by its syntax tree):
- an import from a ``test_*`` module (shared helpers live in ``helpers``/``harness``
  modules or a ``conftest.py``): none is allowed;
- a sleep: ``sleep(x)`` (``asyncio``'s, ``time``'s) or ``pause(x)`` (Textual's pilot)
  with any delay but a literal ``0``: only those in ``ALLOWED``, each with a comment on
  its line or the line above saying why no condition serves;
- a poll loop: a loop that looks until something holds (a ``while``, a ``for`` with a
  ``break``, ``return`` or ``continue``) and whose own body sleeps or pauses (with any
  delay, ``0`` too), and a function (not a method of a harness object, which names
  its condition) named like a wait (``until``, ``wait_for``...): only in ``POLLERS``.
- the app made (``MotherlodeApp(...)``, a ``make_app``) anywhere but
  ``tests/tui/harness.py``: none is allowed.

The allow-list shrinks: a file with more findings than listed fails, and so does a
file with fewer (lower its count, or remove it), so a fix is written down when it is
made. Each check is shown to fail on a planted snippet.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: the only modules that poll (the one poller and the one TUI harness over it); the
#: harness is also the one place the app is made (``make_app``)
POLLERS = frozenset({"tests/waiting.py", "tests/tui/harness.py"})

#: what is left, by kind and file. Sleeps left say why no condition serves (a delay that
#: is itself what is tested, a peer that must stay silent for a while); imports none.
ALLOWED: dict[str, dict[str, int]] = {
    "import": {},
    "app": {},
    "sleep": {
        # each says why on its line or the line above: the time is what is tested, a
        # pace a real player keeps (the host's rate limit), a clock's own sleep
        "tests/hardening/crash_host.py": 1,
        "tests/hardening/harness.py": 1,
        "tests/hardening/test_restored_wait.py": 2,
        "tests/net/test_client_handshake.py": 1,
        "tests/net/test_gctune.py": 1,
        "tests/net/test_lagfair_proxy.py": 1,
        "tests/net/test_real_delay.py": 1,
        "tests/plain/driver.py": 1,
        "tests/plain/test_plain_web.py": 1,
        "tests/serve/phone.py": 1,
        "tests/serve/test_browser.py": 1,
        "tests/serve/test_floods.py": 1,
        "tests/serve/test_link_delay.py": 2,
        "tests/serve/test_ssh_door.py": 1,
        "tests/serve/test_via.py": 2,
        "tests/tui/test_comeback.py": 1,
        "tests/tui/test_frictions.py": 1,
    },
    "poll": {
        # a player's pace (answers slower than the host's rate limit), a peer trickling
        # a byte every 10 ms: loops that sleep, but on nothing they could wait for
        "tests/hardening/harness.py": 1,
        "tests/net/test_client_handshake.py": 1,
        "tests/plain/driver.py": 1,
        "tests/plain/test_plain_web.py": 1,
        "tests/serve/test_floods.py": 1,
    },
    "helper": {},
}

#: a function named like this is a wait helper: it belongs in tests/waiting.py
WAIT_NAME = re.compile(r"_?(until|wait|wait_for|wait_until|poll|eventually)")


def _module_of(path: Path) -> list[str]:
    return list(path.relative_to(ROOT).with_suffix("").parts)


def _imported(node: ast.ImportFrom | ast.Import, path: Path) -> list[str]:
    """The dotted modules an import statement names (relative ones resolved)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = []
    if node.level:
        package = _module_of(path)[:-1]
        base = package[: len(package) - (node.level - 1)]
    module = base + (node.module.split(".") if node.module else [])
    # ``from pkg import test_x`` imports the module ``pkg.test_x``
    return [".".join(module + [alias.name]) for alias in node.names] + [".".join(module)]


def _name(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else \
        call.func.id if isinstance(call.func, ast.Name) else None


def _is_sleep(call: ast.Call) -> bool:
    return _name(call) in ("sleep", "pause")


def _delay(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    for keyword in call.keywords:
        if keyword.arg in ("delay", "seconds", "delta"):
            return keyword.value
    return None


def _zero(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value in (0, 0.0)


def _own_nodes(body: list[ast.stmt]):
    """The nodes in ``body``, not those inside a function or class defined there."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _polls(loop: ast.While | ast.For | ast.AsyncFor) -> bool:
    """A loop that looks until something holds: a ``while``, or a ``for`` that can
    leave early (``break``, ``return``, ``continue``). A ``for`` over sizes that pauses
    after each is not one."""
    if isinstance(loop, ast.While):
        return True
    stack = list(loop.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Return, ast.Continue)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef, ast.For, ast.AsyncFor, ast.While)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _waits(nodes: list[ast.AST]) -> bool:
    """The calls of a loop's body wait to look again: a sleep, a timed pause, or a bare
    ``pause()`` (the app's next idle moment) in a loop that does nothing else. A loop
    that presses keys and lets each one land with a bare ``pause()`` plays; it does not
    poll."""
    waits = [node for node in nodes if isinstance(node, ast.Call) and _is_sleep(node)]
    if any(_delay(call) is not None or _name(call) == "sleep" for call in waits):
        return True
    acts = [node for node in nodes if isinstance(node, ast.Await)
            and not (isinstance(node.value, ast.Call) and _is_sleep(node.value))]
    return bool(waits) and not acts


def _comment_lines(source: str) -> set[int]:
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            lines.add(token.start[0])
    return lines


def findings(source: str, path: Path) -> list[tuple[str, int, str]]:
    """(kind, line, what) for each import from a test module, sleep, poll loop and wait
    helper in one file's ``source``; ``path`` places it (relative imports, pollers)."""
    tree = ast.parse(source)
    rel = path.relative_to(ROOT).as_posix()
    found = []
    comments = _comment_lines(source)
    # a harness object's ``wait_for(text)`` names its condition (and may not poll)
    methods = {item for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
               for item in cls.body}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for module in _imported(node, path):
                if any(part.startswith("test_") for part in module.split(".")):
                    found.append(("import", node.lineno, f"imports {module}"))
                    break
        elif rel not in POLLERS and isinstance(node, ast.Call) and _is_sleep(node) \
                and _delay(node) is not None and not _zero(_delay(node)):
            why = node.lineno in comments or node.lineno - 1 in comments
            said = "" if why else " (no comment why)"
            found.append(("sleep", node.lineno, ast.unparse(node) + said))
        if rel in POLLERS:
            continue
        if isinstance(node, ast.Call) and _name(node) == "MotherlodeApp" \
                or isinstance(node, ast.FunctionDef) and node.name == "make_app":
            found.append(("app", node.lineno, "an app made beside tests.tui.harness.make_app"))
        if isinstance(node, (ast.While, ast.For, ast.AsyncFor)) and _polls(node) \
                and _waits(list(_own_nodes(node.body))):
            found.append(("poll", node.lineno, "a loop that sleeps or pauses"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and WAIT_NAME.fullmatch(node.name) and node not in methods:
            found.append(("helper", node.lineno, f"a wait helper {node.name}()"))
    return found


def _files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__snapshots__" not in p.parts)


def _all() -> dict[str, list[tuple[str, int, str]]]:
    return {p.relative_to(ROOT).as_posix(): findings(p.read_text(), p) for p in _files()}


def faults(everything: dict[str, list[tuple[str, int, str]]]) -> list[str]:
    """What is wrong in ``everything`` (findings by file) against ``ALLOWED``: more of
    a kind than listed in a file, fewer (the list shrinks), a sleep with no comment."""
    counts: Counter[tuple[str, str]] = Counter()
    found = []
    for rel, seen in everything.items():
        for kind, line, what in seen:
            counts[kind, rel] += 1
            if kind == "sleep" and "no comment why" in what:
                found.append(f"{rel}:{line}: {what}: say why no condition serves")
    for (kind, rel), n in sorted(counts.items()):
        allowed = ALLOWED[kind].get(rel, 0)
        if n > allowed:
            lines = ", ".join(f"{line} {what}" for k, line, what in everything[rel] if k == kind)
            found.append(f"{rel}: {n} {kind}, {allowed} allowed ({lines}): {ADVICE[kind]}")
    for kind, listed in ALLOWED.items():
        for rel, n in sorted(listed.items()):
            if counts[kind, rel] < n:
                found.append(f"{rel}: {counts[kind, rel]} {kind}, {n} listed: lower ALLOWED")
    return found


ADVICE = {
    "import": "move what is shared into a helpers/harness module or a conftest",
    "sleep": "wait on a condition (tests.waiting.until, tests.tui.harness.until)",
    "poll": "wait with tests.waiting.until (or tests.tui.harness.until)",
    "helper": "wait with tests.waiting.until (or tests.tui.harness.until)",
    "app": "make the app with tests.tui.harness.make_app",
}


def test_the_tests_keep_one_harness_and_the_allow_list_shrinks():
    assert not ALLOWED["import"] and not ALLOWED["app"]
    assert sum(ALLOWED["sleep"].values()) <= 20
    found = faults(_all())
    assert not found, "\n".join(found)


# --- the checks fail on planted snippets ---------------------------------------------

PLANTED = TESTS / "tui" / "planted.py"


def _kinds(source: str, path: Path = PLANTED) -> list[str]:
    return [kind for kind, _line, _what in findings(source, path)]


def test_an_import_from_a_test_module_is_found():
    assert _kinds("from .test_modes import make_app\n") == ["import"]
    assert _kinds("from tests.net.test_table import join\n") == ["import"]
    assert _kinds("from tests.tui import test_modes\n") == ["import"]
    assert _kinds("def f():\n    import tests.serve.test_ssh\n") == ["import"]
    assert _kinds("from .harness import make_app\nfrom tests.net.helpers import join\n") == []


def test_a_sleep_is_found_and_a_yield_is_not():
    assert _kinds("async def f(pilot):\n    await pilot.pause(0.01)\n") == ["sleep"]
    assert _kinds("import time\ntime.sleep(1)\n") == ["sleep"]
    assert _kinds("async def f(d):\n    await asyncio.sleep(d)\n") == ["sleep"]
    assert _kinds("async def f():\n    await asyncio.sleep(0)\n") == []
    assert _kinds("async def f(pilot):\n    await pilot.pause()\n") == []
    why = findings("async def f():\n    # the delay is what is tested\n"
                   "    await asyncio.sleep(0.2)\n", PLANTED)
    assert why == [("sleep", 3, "asyncio.sleep(0.2)")]
    assert "no comment why" in findings("asyncio.sleep(0.2)\n", PLANTED)[0][2]


def test_a_poll_loop_and_a_wait_helper_are_found_outside_the_poller():
    loop = "async def f(pilot, ok):\n    while not ok():\n        await pilot.pause()\n"
    assert _kinds(loop) == ["poll"]
    assert _kinds("async def g(ok):\n    for _ in range(9):\n        await asyncio.sleep(0)\n"
                  "        if ok():\n            break\n") == ["poll"]
    # a loop that pauses after each size, with no way out but its end, is not a poll
    assert _kinds("async def g(p):\n    for s in (1, 2):\n        await p.pause()\n") == []
    assert _kinds("async def _until(ok):\n    return await until(ok, 'ok')\n") == ["helper"]
    assert _kinds(loop, TESTS / "waiting.py") == []
    # a loop that plays (presses a key) and lets each land with a bare pause plays
    assert _kinds("async def g(p, ok):\n    while not ok():\n        await p.press('x')\n"
                  "        await p.pause()\n") == []
    assert _kinds("async def g(p, ok):\n    while not ok():\n        await p.press('x')\n"
                  "        await p.pause(0.1)\n") == ["poll", "sleep"]
    # a loop that defines a function that pauses is not itself a poll
    assert _kinds("for x in y:\n    async def h(p):\n        await p.pause()\n") == []


def test_the_allow_list_fails_a_new_finding_and_a_stale_entry(monkeypatch):
    """The whole check, on the real tree plus a planted file, and with a stale entry."""
    everything = _all()
    planted = ("from .test_modes import until\n"
               "async def f(pilot):\n    await pilot.pause(0.5)  # a guess\n"
               "async def wait_for(ok):\n    while not ok():\n        await pilot.pause()\n")
    everything["tests/tui/planted.py"] = findings(planted, PLANTED)
    found = faults(everything)
    planted += "def make_app(tmp_path):\n    return MotherlodeApp()\n"
    everything["tests/tui/planted.py"] = findings(planted, PLANTED)
    found = faults(everything)
    assert any(f.startswith("tests/tui/planted.py: 2 app, 0 allowed") for f in found)
    for kind in ("import", "sleep", "poll", "helper"):
        assert any(f.startswith(f"tests/tui/planted.py: 1 {kind}, 0 allowed") for f in found), kind
    monkeypatch.setitem(ALLOWED["sleep"], "tests/tui/nowhere.py", 1)
    assert "tests/tui/nowhere.py: 0 sleep, 1 listed: lower ALLOWED" in faults(_all())
