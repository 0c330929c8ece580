"""Fixtures for the terminal app: settings and logs go to a temporary directory."""

from __future__ import annotations

import pytest

from tui.settings import Settings


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MOTHERLODE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MOTHERLODE_LOG_DIR", str(tmp_path / "log"))
    monkeypatch.setenv("MOTHERLODE_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def settings() -> Settings:
    return Settings(name="Ann", difficulty="normal", ascii=False, advisor=True)
