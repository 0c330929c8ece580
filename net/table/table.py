"""A table: its state and people (``core``), its requests (``lobby``) and its game loop
(``play``), as one class."""

from __future__ import annotations

from net.table.lobby import Lobby
from net.table.play import Play


class Table(Lobby, Play):
    """One table: a game, its seats, its members, its lobby and its log."""
