"""No module over 500 lines (the house's limit): a module that long holds two things,
and is read as one. Those still over it are listed, each with its count; the list
only shrinks (a module split, or cut below its count, lowers or leaves it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500

#: modules over the limit, and their length when listed
OVER: dict[str, int] = {}


def lengths() -> dict[str, int]:
    """Every Python module the repository tracks, by its number of lines."""
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    return {name: len((ROOT / name).read_text().splitlines()) for name in files
            if (ROOT / name).exists()}


def too_long(found: dict[str, int]) -> list[str]:
    wrong = [f"{name}: {n} lines (the limit is {LIMIT}; listed at {OVER.get(name)})"
             for name, n in sorted(found.items())
             if n > LIMIT and n > OVER.get(name, LIMIT)]
    wrong += [f"{name}: listed at {n}, now {found.get(name, 0)}: lower or remove it"
              for name, n in OVER.items() if found.get(name, 0) < n]
    return wrong


def test_no_module_is_over_the_limit_but_those_listed():
    wrong = too_long(lengths())
    assert not wrong, "\n".join(wrong)


def test_a_long_new_module_fails():
    assert too_long({"tui/new.py": 501} | {n: c for n, c in OVER.items()}) == \
        ["tui/new.py: 501 lines (the limit is 500; listed at None)"]
