"""docs/ARCHITECTURE.md stays true: at most 400 lines, and every module, file, class,
method and function it names in backticks exists in the code.

What counts as a name (anything else in backticks, a key or a JSON line, is left be):
- a path with a ``/`` (``net/table/play.py``, ``tui/games/<key>/``): it exists, with
  ``<key>`` read as each game that ships;
- a dotted name starting with a package (``net.games.Refused``, ``serve.door.Door``):
  it imports, attribute by attribute;
- ``Class.name`` (``Play.submit``): a class of that name in the product defines
  ``name``, itself or through a base class defined in the product;
- ``name(...)`` and a bare ``CamelCase`` name: defined somewhere in the product (a
  function, a class or a module-level name), or a name of Textual or msgspec that the
  doc uses on purpose (``EXTERNAL``).
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PACKAGES = ("foolsgold", "nuggets", "net", "serve", "tui")
KEYS = ("foolsgold", "nuggets")
#: names the doc borrows from the libraries underneath
EXTERNAL = frozenset({"ValueError"})
CAMEL = re.compile(r"^_?[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")


@cache
def _definitions() -> tuple[dict[str, list[tuple[ast.ClassDef, str]]], frozenset[str]]:
    """Every class of the product by name (with its module), and every name defined
    anywhere in it (functions, classes, module-level assignments)."""
    classes: dict[str, list[tuple[ast.ClassDef, str]]] = {}
    names: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    classes.setdefault(node.name, []).append((node, module))
                    names.add(node.name)
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(node.name)
            for node in tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else (
                    [node.target] if isinstance(node, ast.AnnAssign) else [])
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return classes, frozenset(names)


def _members(node: ast.ClassDef) -> set[str]:
    found = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(item.name)
        elif isinstance(item, ast.Assign):
            found.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            found.add(item.target.id)
    return found


def _class_has(name: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
    classes, _ = _definitions()
    for node, _module in classes.get(name, []):
        if member in _members(node):
            return True
        for base in node.bases:
            base_name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)
            if base_name and base_name not in seen and _class_has(
                    base_name, member, seen | {name}):
                return True
    return False


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


def problems(text: str) -> list[str]:
    """Each name of ``text`` that is not in the code, with why."""
    classes, names = _definitions()
    bad = []
    for token in sorted(set(re.findall(r"`([^`\n]+)`", text))):
        name = token.split("(")[0].strip()
        if "/" in token and " " not in token:
            for key in KEYS:
                path = ROOT / token.replace("<key>", key)
                if not path.exists():
                    bad.append(f"{token}: no such file or folder")
                    break
        elif re.fullmatch(r"[a-z_]+(\.[A-Za-z_][A-Za-z0-9_]*)+", name) and \
                name.split(".")[0] in PACKAGES:
            if not _resolves(name):
                bad.append(f"{token}: does not import")
        elif re.fullmatch(r"_?[A-Z][A-Za-z0-9]*\.[A-Za-z_][A-Za-z0-9_]*", name):
            cls, member = name.split(".")
            if cls not in classes:
                bad.append(f"{token}: no class {cls}")
            elif not _class_has(cls, member):
                bad.append(f"{token}: {cls} has no {member}")
        elif re.fullmatch(r"_?[a-z][a-z0-9_]*", name) and "(" in token:
            if name not in names:
                bad.append(f"{token}: no function {name}")
        elif CAMEL.fullmatch(name) and name not in EXTERNAL and name not in names:
            bad.append(f"{token}: defined nowhere in the product")
    return bad


def test_the_architecture_is_short_enough_to_read():
    lines = DOC.read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"docs/ARCHITECTURE.md has {lines} lines; keep it to 400"


def test_every_name_in_the_architecture_exists():
    assert problems(DOC.read_text(encoding="utf-8")) == []


def test_the_checker_catches_a_name_that_drifted():
    text = ("`net/table/play.py` `Play.submit` `Play._act` `net.games.Refused` "
            "`net.games.Refusal` `Nowhere` `vanished()` `tui/games/<key>/gone.py` "
            "`g` `{\"type\":\"move\"}`")
    assert problems(text) == [
        "Nowhere: defined nowhere in the product",
        "Play._act: Play has no _act",
        "net.games.Refusal: does not import",
        "tui/games/<key>/gone.py: no such file or folder",
        "vanished(): no function vanished",
    ]
