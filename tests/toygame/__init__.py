"""Pig Dice: a tiny third game, defined in the tests only, that plugs into the product
through the public registration API (``net.catalogue.register``) with no edit to any
product file (``tests/test_third_game.py``).

Its parts, as every game has them (``net.catalogue``): the rules (``rules``, pure), the
host side (``host``: a driver, a bot brain and a wire codec; ``views``: its view and
events on the wire) and the app side (``app``: its table screen, its replay screen,
its events in words). Its moves are its own (``moves``: ``roll``, ``bank`` and
``double``, a move no other game has), declared once and read by the host's codec, its
app and any client.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Struct

from net.catalogue import GameSpec, Limits


class PigSettings(Struct, frozen=True, kw_only=True):
    """A setting of its own: the score that wins, which the owner may change in the
    lobby."""

    target: Annotated[int, Limits(5, 100, label="target", unit="points")] = 12


SPEC = GameSpec(
    key="pig",
    title="Pig Dice",
    low=2,
    high=4,
    grace=10.0,
    solo_bots=1,
    hotseat=False,
    letter="i",
    short="Pig",
    kind="pig",
    host=f"{__name__}.host:HOST",
    app=f"{__name__}.app:APP",
    order=3,
    options=PigSettings,
    # a statistic of its own: doubles won (its ``stats`` part counts them)
    stats=("doubles", "banked"),
)
