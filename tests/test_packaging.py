"""The wheel `pipx install .` builds carries every subpackage and the app's data files."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.timeout(240)
@pytest.mark.slow
def test_the_wheel_holds_every_package_and_the_rules_text(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=230,
    )
    (wheel,) = tmp_path.glob("motherlode-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    on_disk = {
        p.relative_to(ROOT).as_posix()
        for pkg in ("foolsgold", "nuggets", "net", "serve", "tui")
        for p in (ROOT / pkg).rglob("*")
        if p.suffix in (".py", ".tcss", ".bin", ".html") and "__pycache__" not in p.parts
    }
    assert on_disk - names == set()
    rules = zipfile.ZipFile(wheel).read("tui/RULES.md").decode()
    assert rules == (ROOT / "docs" / "RULES.md").read_text()
    entry = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("entry_points.txt"))
    ).decode()
    assert "motherlode = tui.cli:main" in entry
