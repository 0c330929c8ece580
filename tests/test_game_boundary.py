"""A game is its own folders: outside them, only the registries may name a game.

Counted from the AST of every module of ``net/``, ``tui/`` and ``serve/``. A module
names a game when it imports a rules package or a game's own module, imports a game's
constant from the catalogue (``FOOLSGOLD``, ``NUGGETS``), writes a game's key or title
as a string (docstrings aside), writes one of a game's moves' names as a string (they
are declared once, by the game: ``net.moves``), or defines or uses a name that spells a
key (``nuggets_now``, ``FoolsGoldView``).

The goal (issue 33) is at most two such modules, the registries. Until the move is
done, :data:`STILL_NAMING` lists the modules that still do: the list may only shrink.
A module that starts naming a game fails here; a module that stops must leave the list
(so the count in the failure message is always the true one).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from tests.docstrings import TITLE
from tests.docstrings import docstrings as _docstrings

ROOT = HERE = Path(__file__).resolve().parent.parent
SCANNED = ("net", "tui", "serve")
KEYS = ("foolsgold", "nuggets")
RULES = ("foolsgold", "nuggets")
CONSTANTS = ("FOOLSGOLD", "NUGGETS")
# a name spelling a key: foolsgold, fools_gold, FoolsGold, nuggets, Nuggets, NUGGETS...
SPELLS = re.compile(r"fools_?gold|nuggets", re.IGNORECASE)

#: a game's own folders (the rules packages, and each game's host and app sides)
GAME_FOLDERS = ("net/games/foolsgold", "net/games/nuggets", "tui/games/foolsgold",
                "tui/games/nuggets")
#: the registries: the two modules that may name the games
REGISTRIES: frozenset[str] = frozenset()

#: modules that still name a game, to be moved into a game's folders (issue 33)
STILL_NAMING: frozenset[str] = frozenset()


def _module_of(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts = parts[: len(parts) - node.level]
    return ".".join(parts + ([node.module] if node.module else []))


def _is_game_module(module: str) -> bool:
    parts = module.split(".")
    return parts[0] in RULES or any(SPELLS.fullmatch(part) for part in parts[1:])


def _move_names() -> frozenset[str]:
    """Every shipped game's moves', settings' and statistics' names, as the games
    declare them (``net.moves``, ``GameSpec.settings``, ``GameSpec.stats``)."""
    from net.catalogue import games

    return frozenset(
        {move.name for game in games() for move in game.moves}
        | {setting.name for game in games() for setting in game.settings}
        | {stat for game in games() for stat in game.stats})


def _wire_types() -> frozenset[str]:
    """The names of every game's own wire types (its view, events and pieces: the
    classes of ``net/games/<key>/views.py``): using one names that game."""
    return frozenset(
        node.name
        for key in KEYS
        for node in ast.parse((HERE / "net/games" / key / "views.py").read_text()).body
        if isinstance(node, ast.ClassDef)
    )


def naming(path: Path) -> list[str]:
    """How the module at ``path`` names a game (empty: it does not)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    # a game's wire type, unless the module has a class of that name of its own
    # (the saves' ``Kept``, a kept game, is not the dice's ``Kept``)
    wire = _wire_types() - {
        a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        and not _is_game_module(_module_of(node, path)) for a in node.names
    } - {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    why: list[str] = []
    moves = _move_names()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            why += [f"imports {a.name}" for a in node.names if _is_game_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = _module_of(node, path)
            if _is_game_module(module):
                why.append(f"imports {module}")
            why += [f"imports {module}.{a.name}" for a in node.names
                    if a.name in CONSTANTS or SPELLS.search(a.name)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and (node.value in KEYS or TITLE.search(node.value)):
                why.append(f"writes {node.value[:40]!r} (line {node.lineno})")
            elif id(node) not in docs and node.value in moves:
                why.append(f"names the game's {node.value!r} (line {node.lineno})")
        elif isinstance(node, ast.Name | ast.Attribute | ast.FunctionDef | ast.ClassDef
                        | ast.AsyncFunctionDef):  # fmt: skip
            name = node.id if isinstance(node, ast.Name) else (
                node.attr if isinstance(node, ast.Attribute) else node.name)
            if name in CONSTANTS or SPELLS.search(name):
                why.append(f"spells {name} (line {node.lineno})")
            elif name in wire and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                why.append(f"uses {name}, a game's wire type (line {node.lineno})")
    return why


def modules_naming_a_game() -> dict[str, list[str]]:
    """Every module of net/, tui/ and serve/ outside a game's folders that names a game."""
    found = {}
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(GAME_FOLDERS) or rel.removesuffix(".py") in GAME_FOLDERS:
                continue
            if why := naming(path):
                found[rel] = why
    return found


def test_only_the_registries_and_the_modules_still_to_move_name_a_game():
    found = modules_naming_a_game()
    new = {m: why[:3] for m, why in found.items() if m not in STILL_NAMING | REGISTRIES}
    assert not new, f"these modules now name a game; ask the registry instead: {new}"
    moved = sorted(STILL_NAMING - set(found))
    assert not moved, f"these no longer name a game: take them off STILL_NAMING: {moved}"
    assert len(REGISTRIES) <= 2


def test_the_counter_sees_every_way_of_naming_a_game(tmp_path, monkeypatch):
    cases = {
        "a.py": "import foolsgold\n",
        "b.py": "from net.catalogue import NUGGETS\n",
        "c.py": "x = 'nuggets'\n",
        "d.py": "def nuggets_now():\n    pass\n",
        "e.py": "from net.views import FoolsGoldView\n",
        "f.py": "title = \"Fool's Gold (2-8 players)\"\n",
        "g.py": "from .games import foolsgold\n",
        "h.py": "def f(event):\n    return isinstance(event, v.Rolled)\n",
        "i.py": "def grab(send):\n    send({'type': 'move', 'move': 'grab'})\n",
        "j.py": "def cap(send):\n    send({'type': 'configure', 'game': {'round_cap': 9}})\n",
        "k.py": "def column(row):\n    return row['calls_right']\n",
    }
    clean = "def f():\n    '''Fool's Gold is a game.'''\n    return \"Fool's Gold!\"\n"
    pkg = tmp_path / "net"
    pkg.mkdir()
    for name, source in {**cases, "clean.py": clean}.items():
        (pkg / name).write_text(source)
    here = sys.modules[__name__]
    monkeypatch.setattr(here, "ROOT", tmp_path)
    monkeypatch.setattr(here, "SCANNED", ("net",))
    found = modules_naming_a_game()
    assert set(found) == {f"net/{name}" for name in cases}
