"""No dead code in the product: vulture (a well-kept dead-code finder) reads the product,
the tests and the benches (code a test or a bench calls is used), and finds nothing
unused in ``foolsgold``, ``nuggets``, ``net``, ``tui`` or ``serve``. The hooks a
framework calls by name are listed in ``tests/dead_code_whitelist.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("foolsgold", "nuggets", "net", "tui", "serve")
WHITELIST = "tests/dead_code_whitelist.py"


def unused(*extra: str) -> list[str]:
    """vulture's findings in the product, at its 60% confidence and above."""
    done = subprocess.run(
        [sys.executable, "-m", "vulture", *PRODUCT, "tests", "bench", WHITELIST, *extra,
         "--min-confidence", "60"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode in (0, 3), done.stderr  # 3: it found something
    return [line for line in done.stdout.splitlines() if line.startswith(PRODUCT)]


@pytest.mark.timeout(150)
def test_nothing_in_the_product_is_unused():
    found = unused()
    assert not found, "remove it, or list a framework hook in " + WHITELIST + ":\n" + \
        "\n".join(found)


@pytest.mark.timeout(150)
def test_the_finder_sees_a_function_nobody_calls(tmp_path):
    """The negative control: a module with an uncalled function, put in the product."""
    orphan = ROOT / "net" / "_orphan_for_test.py"
    orphan.write_text("def never_called_anywhere():\n    return 1\n")
    try:
        found = unused()
    finally:
        orphan.unlink()
    assert any("never_called_anywhere" in line for line in found), found
