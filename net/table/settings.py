"""A table's settings: every table's own (seats, bots, grace, lag cap...) and its
game's own (``GameSpec.settings``, kept by name in ``game`` and handed to the game's
driver by :meth:`Settings.own`). Nothing here names a game's setting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net import protocol as p
from net import tcpinfo
from net.catalogue import spec

#: a table's pace: how much longer than the game's own its time windows are (a race, a
#: call window, the pause between rounds) and how much slower its bots play, for
#: slower hands and for players reading by ear. Races stay lag-fair at every pace.
#: relaxed is four times: a modelled person reacting in 3 s wins 23% (17.7-29.3) of
#: matches against three normal bots there (bench/foolsgold_pace.py), at three times 5%
PACES = {"normal": 1.0, "steady": 2.0, "relaxed": 4.0}


@dataclass
class Settings:
    """A table's settings; ``seed`` is set by the host operator only, never by a peer."""

    seats: int
    difficulty: str = "normal"
    first_player: int | None = None
    seed: str | None = None
    grace: float = 30.0
    bot_pace: float = 0.9
    hotseat: bool = False
    # lag-fair races: the most a race move's time is corrected for its sender's
    # network delay (seconds); 0 judges races in arrival order. A table's, not a
    # game's: any game whose moves declare a race is judged this way.
    lag_cap: float = 0.15
    #: the table's pace now (:data:`PACES`)
    pace: str = "normal"
    #: a guided first game's (``solo --guided``): the pace the table goes on at once
    #: the game's guided opening is over (``Driver.opening_over``, at a boundary
    #: between rounds: ``net.table.guided``); until then it plays at ``pace``. None:
    #: the pace stays as it is.
    after_guide: str | None = None
    #: the game's own settings, by name (``GameSpec.settings``); one not here takes
    #: its default
    game: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def default(cls, game: str) -> Settings:
        """The most seats, the game's own grace period and its own settings' defaults
        (``net.catalogue``)."""
        found = spec(game)
        return cls(seats=found.high, grace=found.grace, game=dict(found.defaults))

    @classmethod
    def build(cls, game: str, **values: Any) -> Settings:
        """:meth:`default`, with ``values`` by name: the table's own fields and the
        game's own settings alike; raises TypeError for a name that is neither."""
        settings = cls.default(game)
        for key, value in values.items():
            if key in settings.game:
                settings.game[key] = value
            elif key == "game" or key not in _TABLE_FIELDS:
                raise TypeError(f"unknown table setting {key!r}")
            else:
                setattr(settings, key, value)
        for key in ("pace", "after_guide"):
            value = getattr(settings, key)
            if value not in PACES and not (key == "after_guide" and value is None):
                raise ValueError(f"{key} is one of {', '.join(PACES)}, not {value!r}")
        return settings

    @classmethod
    def from_saved(cls, values: dict[str, Any], game: str) -> Settings:
        """Settings as a save holds them (:meth:`saved`). A save from before the games
        owned their settings kept them beside the table's (``"supply": 10``): read the
        same. Keys of another version are ignored."""
        own = spec(game).defaults
        table = {k: v for k, v in values.items() if k in _TABLE_FIELDS}
        found = dict(own)
        found.update({k: v for k, v in values.items() if k in own})  # an older save
        found.update({k: v for k, v in (values.get("game") or {}).items() if k in own})
        return cls(**table, game=found)

    def complete(self, game: str) -> dict[str, Any]:
        """``game``'s own settings, by name, each one not set at its default."""
        return {**spec(game).defaults,
                **{k: v for k, v in self.game.items() if k in spec(game).defaults}}

    def own(self, game: str, pace: str | None = None) -> dict[str, Any]:
        """The settings that are ``game``'s own (its driver's), by name: its time
        windows stretched by the table's pace (or by ``pace``, if given)."""
        found = self.complete(game)
        slow = self.slow if pace is None else PACES.get(pace, 1.0)
        for setting in spec(game).settings:
            if setting.paced and found.get(setting.name) is not None and slow != 1.0:
                found[setting.name] = found[setting.name] * slow
        return found

    @property
    def slow(self) -> float:
        """How many times slower than the game's own this table plays (its pace)."""
        return PACES.get(self.pace, 1.0)

    def saved(self) -> dict[str, Any]:
        """Plain values for a save (the game's own in ``game``, copied)."""
        values = {k: getattr(self, k) for k in _TABLE_FIELDS}
        values["game"] = dict(self.game)
        return values

    def shape(self) -> tuple:
        """Every value, comparable with an earlier shape (what the saves watch)."""
        return (*(getattr(self, k) for k in _TABLE_FIELDS), tuple(self.game.items()))

    def info(self) -> p.TableSettings:
        return p.TableSettings(
            seats=self.seats,
            difficulty=self.difficulty,
            first_player=self.first_player,
            seeded=self.seed is not None,
            grace=self.grace,
            bot_pace=self.bot_pace,
            hotseat=self.hotseat,
            lag_cap=self.lag_cap,
            lag_bound="kernel" if tcpinfo.AVAILABLE else "probes",
            pace=self.pace,
            game=dict(self.game),
        )


_TABLE_FIELDS = ("seats", "difficulty", "first_player", "seed", "grace", "bot_pace",
                 "hotseat", "lag_cap", "pace", "after_guide")
