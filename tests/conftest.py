"""Fixtures for the whole suite."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Saved tables and games (``net.persist``) and kept seats (``net.seats``) go to
    temporary directories, never to the user's: hosts save and clients keep their
    tokens by default, subprocesses included."""
    monkeypatch.setenv("MOTHERLODE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    # the seats a client keeps to take back (net.seats): never the user's own
    monkeypatch.setenv("MOTHERLODE_STATE_DIR", str(tmp_path_factory.mktemp("state")))
