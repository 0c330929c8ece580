"""Gold Nuggets under the host: its entry in the catalogue (``SPEC``, named by the
entry point in ``pyproject.toml``). Its driver, bots and codec are in ``host``, its
views and events on the wire in ``views``, the check of a finished game in ``verify``,
its player stats in ``stats``."""

from __future__ import annotations

from typing import Annotated

from msgspec import Struct

from net.catalogue import GameSpec, Limits

#: the whole supply: the most nuggets a table may start with (``nuggets.STARTING_SUPPLY``)
SUPPLY = 77
#: the person's own turns a guided first game covers (``tui.games.nuggets.guided``):
#: its opening is over once each person has ended that many (``host.NuggetsDriver``)
GUIDED_TURNS = 2


class NuggetsSettings(Struct, frozen=True, kw_only=True):
    """A Gold Nuggets table's own settings, declared once (``net.catalogue.declared``)."""

    supply: Annotated[int, Limits(1, SUPPLY, label="supply", unit="nuggets")] = SUPPLY

SPEC = GameSpec(
    key="nuggets",
    title="Gold Nuggets",
    low=2,
    high=5,
    grace=30.0,
    solo_bots=1,
    hotseat=True,
    letter="n",
    short="Dice",
    kind="dice",
    host=f"{__name__}.host:HOST",
    app="tui.games.nuggets:APP",
    order=1,
    options=NuggetsSettings,
    stats=(
        "turns",
        "gained",
        "busts",
        "steals",
    ),
)
