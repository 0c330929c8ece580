"""Fixtures for the whole suite."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Saved tables and games (``net.persist``) go to a temporary directory, never to
    the user's data directory: hosts save by default, subprocesses included."""
    monkeypatch.setenv("MOTHERLODE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
