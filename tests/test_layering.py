"""The layering stays honest: each package is imported in a fresh interpreter and
must not pull in what lies above it (or any I/O, for the pure rules)."""

import subprocess
import sys

import pytest

FORBIDDEN = {
    "nuggets": {"asyncio", "socket", "net", "tui", "textual"},
    "foolsgold": {"asyncio", "socket", "net", "tui", "textual"},
    "net": {"tui", "textual"},
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
