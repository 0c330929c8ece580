"""The layering is a contract (``[tool.importlinter]`` in pyproject.toml, run by
``make test`` as ``lint-imports``). These show that it holds on the product and that
it can fail: a copy of the product with one forbidden import added is refused."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("foolsgold", "nuggets", "net", "serve", "tui")
LINT = Path(sys.executable).with_name("lint-imports")

# a fresh import graph per case (make test-fast runs lint-imports itself)
pytestmark = pytest.mark.slow


def lint(root: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the tree at ``root`` (its packages first on the path)."""
    return subprocess.run(
        [str(LINT), "--no-cache", str(root / "pyproject.toml")],
        cwd=root, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
    )  # fmt: skip


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """The product's packages and its pyproject, copied: a tree the tests may spoil."""
    root = tmp_path_factory.mktemp("product")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, root / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.bin", "*.json"))
    shutil.copy(ROOT / "pyproject.toml", root)
    return root


def test_the_product_keeps_the_contract(copy):
    result = lint(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # the negative control the issue asks for: the app importing a rules package
        ("tui/screens/leak.py", "import foolsgold.round\n",
         "the app reaches the rules only through its games' folders and the allow-list"),
        ("tui/games/foolsgold/leak.py", "import nuggets.odds\n",
         "own game's rules (Fool's Gold)"),
        ("nuggets/leak.py", "import asyncio\n", "the rules are pure"),
        ("net/leak.py", "import textual\n", "never import Textual"),
        ("net/leak.py", "import tui.app\n", "floors"),
        ("net/games/foolsgold/__init__.py", "import nuggets.odds\n",
         "own game's rules (Fool's Gold)"),
        ("tui/games/nuggets/screen.py", "from foolsgold import is_set\n",
         "own game's rules (Gold Nuggets)"),
        ("foolsgold/leak.py", "import nuggets\n", "floors"),
    ],
)  # fmt: skip
def test_a_forbidden_import_breaks_the_contract(copy, module, line, broken):
    leak = copy / module
    before = leak.read_text() if leak.exists() else None
    leak.write_text((before or "") + line)  # a new module, or one line more in one
    try:
        result = lint(copy)
    finally:
        if before is None:
            leak.unlink()
        else:
            leak.write_text(before)
    assert result.returncode != 0, result.stdout
    broken_lines = [ln for ln in result.stdout.splitlines() if " BROKEN" in ln]
    assert any(broken in ln for ln in broken_lines), result.stdout
