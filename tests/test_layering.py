"""The layering stays honest: each package is imported in a fresh interpreter and
must not pull in what lies above it (or any I/O, for the pure rules)."""

import subprocess
import sys

import pytest

FORBIDDEN = {
    "nuggets": {"asyncio", "socket", "net", "tui", "textual"},
    "foolsgold": {"asyncio", "socket", "net", "tui", "textual"},
    "net": {"tui", "textual"},
    "serve": {"tui", "textual"},
}

PROBE = """
import importlib, pkgutil, sys
pkg = importlib.import_module({pkg!r})
for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
print("\\n".join(sorted({{m.split(".")[0] for m in sys.modules}})))
"""


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
@pytest.mark.slow
def test_package_does_not_import_upper_layers(package):
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(pkg=package)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split()
    leaked = FORBIDDEN[package] & set(out)
    assert not leaked, f"{package} (with all its modules) imports {sorted(leaked)}"


def test_probe_catches_a_forbidden_import(tmp_path):
    # The probe must be able to fail: a throwaway package whose submodule imports
    # socket is caught.
    pkg = tmp_path / "leaky"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "deep.py").write_text("import socket\n")
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(pkg="leaky")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=tmp_path,
    ).stdout.split()
    assert "socket" in out


# -- no import cycles inside tui/ (every import counts: top level, inside functions,
# and under TYPE_CHECKING, since each one is a dependency a reader has to follow) ---

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def _module_name(path, root) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root, package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports, from the source (AST)."""
    import ast

    paths = {_module_name(path, root): path for path in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        deps: set[str] = set()
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = module.split(".")
                    anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                    base = ".".join(anchor + ([base] if base else []))
                names = [f"{base}.{alias.name}" for alias in node.names] + [base]
            else:
                continue
            for name in names:
                # the longest known module the name starts with
                while name and name not in paths:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    deps.add(name)
        graph[module] = deps
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (a list of modules, first repeated last), or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return None
        for dep in sorted(graph.get(node, ())):
            # a package's __init__ is imported by its submodules' imports: skip that edge
            if node.startswith(dep + "."):
                continue
            cycle = visit(dep, path + [node])
            if cycle:
                return cycle
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node, [])
        if cycle:
            return cycle
    return None


@pytest.mark.parametrize("package", ["tui", "net", "nuggets", "foolsgold", "serve"])
@pytest.mark.slow
def test_no_package_has_an_import_cycle(package):
    assert find_cycle(import_graph(ROOT, package)) is None


def test_screens_know_neither_the_app_nor_the_session():
    """State flows down and intent flows up: screens and widgets post messages; they
    never import the app, the session or the launchers."""
    graph = import_graph(ROOT, "tui")
    upper = {"tui.app", "tui.session", "tui.modes", "tui.cli"}
    for module, deps in graph.items():
        if module.startswith(("tui.screens", "tui.widgets", "tui.games")):
            assert not deps & upper, f"{module} imports {sorted(deps & upper)}"


def test_cycle_finder_finds_a_cycle(tmp_path):
    pkg = tmp_path / "loop"
    (pkg / "screens").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "screens" / "__init__.py").write_text("")
    (pkg / "app.py").write_text("def f():\n    from loop.screens import lobby\n")
    (pkg / "screens" / "lobby.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..app import X\n")
    (pkg / "plain.py").write_text("from . import app\n")
    cycle = find_cycle(import_graph(tmp_path, "loop"))
    assert cycle is not None and set(cycle) == {"loop.app", "loop.screens.lobby"}


# -- every package has its row ------------------------------------------------------

RULES = ("nuggets", "foolsgold")
# the sans-I/O core of net: bytes and messages, tables, games, text; no loop, no socket
SANS_IO = ("net/protocol", "net/table", "net/games", "net/catalogue.py", "net/views.py",
           "net/text.py",
           "net/discovery/records.py",
           "net/address.py", "net/paths.py", "net/verify.py", "net/saves/replay.py",
           "net/saves/documents.py", "net/saves/saved.py", "net/saves/stats.py")


def _imports(path) -> set[str]:
    """Every module a file imports, anywhere in it (top level, functions, TYPE_CHECKING)."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package", RULES)
def test_the_rules_import_only_the_standard_library(package):
    """Pure rules: the standard library and their own package. (Their simulators, `sim.py`,
    are programs, not rules; they import nothing more either, and say so if they must.)"""
    for path in (ROOT / package).rglob("*.py"):
        extra = set()
        if path.name == "sim.py":  # a program: it may use more, if its docstring says so
            import ast

            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            extra = {"rich"} if "`rich`" in doc else set()
        for module in _imports(path):
            top = module.split(".")[0]
            assert top in sys.stdlib_module_names or top in (package, "__future__") \
                or top in extra, f"{path.relative_to(ROOT)} imports {module}"


@pytest.mark.parametrize("name", SANS_IO)
def test_the_sans_io_modules_never_touch_a_loop_or_a_socket(name):
    path = ROOT / name
    for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
        leaked = {m for m in _imports(file) if m.split(".")[0] in ("asyncio", "socket",
                                                                   "textual", "tui")}
        assert not leaked, f"{file.relative_to(ROOT)} imports {sorted(leaked)}"


def _allowed_rules_helpers() -> dict[str, set[str]]:
    """The allow-list in docs/ARCHITECTURE.md: module -> names the TUI may use."""
    import re

    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    block = text[text.index("It may call"):text.index("## Where things live")]
    allowed: dict[str, set[str]] = {}
    for item in re.split(r"\n  - ", block)[1:]:
        module, _, rest = item.partition(":")
        names = set(re.findall(r"`([A-Za-z_]+)`", rest.split("(")[0]))
        allowed[module.strip().strip("`")] = names
    return allowed


def test_the_tui_uses_the_rules_only_through_the_allow_list():
    import ast

    allowed = _allowed_rules_helpers()
    assert allowed["nuggets"] >= {"check_keep"} and "chances" in allowed["nuggets.chances"]
    used: set[tuple[str, str]] = set()
    for path in (ROOT / "tui").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.split(".")[0] in RULES:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in allowed:  # a helper module: its attributes are checked below
                        aliases[alias.asname or alias.name] = full
                    else:
                        used.add((node.module, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] not in RULES, \
                        f"{path.relative_to(ROOT)} imports {alias.name} whole"
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases:
                used.add((aliases[node.value.id], node.attr))
    outside = sorted(f"{m}.{n}" for m, n in used if n not in allowed.get(m, set()))
    assert not outside, f"tui/ uses rules names outside the allow-list: {outside}"
