"""The TUI tests' harness: the one way to make the app and the one way to wait in it.

``make_app`` builds the real app on temporary settings, with nothing announced or
browsed on the LAN and keys at machine speed; ``until`` lets the app run (through its
pilot) until a condition holds, on ``tests.waiting.until``, and fails with the screen.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from msgspec.structs import replace

from net import protocol as p
from net.clock import FakeClock
from net.lan import LanHost
from net.saves import Store
from net.served import TableDirectory
from net.views import to_view
from nuggets import Game, Keep, Roll
from nuggets.rules import FACES
from tests.hardening.harness import drive, start_nuggets
from tests.tui.helpers import events, foolsgold_view, nuggets_view
from tests.waiting import until as _poll
from tui.app import MotherlodeApp
from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.games.nuggets.screen import NuggetsScreen
from tui.screen_text import screen_text
from tui.settings import Settings

FACE_KEY = {"nugget": "n", "lasso": "l", "2": "f2", "3": "f3", "4": "f4", "5": "f5"}


def make_app(tmp_path, **kwargs) -> MotherlodeApp:
    """The app, its settings in ``tmp_path`` (or ``settings_path``); ``kwargs`` go to
    ``MotherlodeApp``."""
    kwargs.setdefault("settings_path", tmp_path / "s.json")
    kwargs.setdefault("announce", False)
    kwargs.setdefault("discover", False)
    kwargs.setdefault("turn_pause", 0.0)  # keys at machine speed (the pause has its own test)
    kwargs.setdefault("settings", Settings(name="Ann"))
    return MotherlodeApp(**kwargs)


async def until(pilot, condition, what: str, deadline: float = 30.0,
                step: float | None = 0.001) -> Any:  # fmt: skip
    """Let the app run (``step`` seconds of the pilot's pause between looks, or with
    ``None`` until the app is idle: a layout's next pass) until
    ``condition()`` holds, and return it; ``condition`` may be a coroutine function, one
    move of a scripted player that says when it is done. Fail saying what never
    happened, with the screen."""
    try:
        return await _poll(condition, what, deadline, step=step, pause=pilot.pause)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{screen_text(pilot.app)}") from None


def log_text(screen) -> str:
    """Every line of a table's event log, scrolled off or not."""
    return "\n".join(line.plain for line in screen.query_one("#log").lines)


def keys_for(rolled: list[str], faces) -> list[str]:
    """Keys that select ``faces`` from ``rolled``: a face key where all dice of that
    face are wanted, else the dice one by one."""
    keys = []
    wanted = [f.value for f in faces]
    for face in dict.fromkeys(wanted):
        if wanted.count(face) == rolled.count(face):
            keys.append(FACE_KEY[face])
        else:
            picks = [i for i, f in enumerate(rolled) if f == face][: wanted.count(face)]
            keys += [str(i + 1) for i in picks]
    return keys


def labels(footer: str) -> set[str]:
    """The descriptions in a footer line: " r Ready  s Start  ? Keys" -> {Ready, ...}."""
    return {entry.strip().split(" ", 1)[1] for entry in footer.strip().split("  ") if entry}


def solo_fools_gold(tmp_path, clock: FakeClock, first_player: int):
    """The app of a solo Fool's Gold game against two bots, on a host clock that moves
    only when told (its cards always the same)."""
    return make_app(tmp_path, start=("solo", "foolsgold", 2), host_clock=clock,
                    table_options={"seed": "phases-cards", "bot_pace": 0.5,
                                   "first_player": first_player})  # fmt: skip


async def dealt(app, pilot) -> FoolsGoldScreen:
    """The table's screen, once it shows a hand."""
    await until(pilot, lambda: isinstance(app.screen, FoolsGoldScreen), "the table")
    screen: FoolsGoldScreen = app.screen
    await until(pilot, lambda: screen.view is not None and screen.view.hand, "a hand")
    return screen


async def pass_a_card(pilot, now, clock: FakeClock) -> None:
    """Ann's part in passing cards on, if she has one now (draw, or discard her first
    card), then 0.1 s more of the host's clock (the caller's wait lets it run)."""
    if now.phase == "draw":
        await pilot.press("d")
    elif now.phase == "discard":
        await pilot.press("1")
    clock.advance(0.1)


async def next_message(client, kind, match=lambda item: True):
    while True:
        item = await client.recv()
        if isinstance(item, kind) and match(item):
            return item


async def into_game(pilot, app, bob, screen_type):
    await until(pilot, lambda: "not ready" in screen_text(app), "Ann's seat")
    await bob.send(p.Ready())
    await pilot.press("r")
    await until(pilot, lambda: isinstance(app.screen, screen_type), "the table")
    await until(pilot, lambda: app.screen.view is not None, "a first view")
    return app.screen


def last_turn(players=("Ann", "Bob"), holdings=(27, 45), keep_last=False):
    """Last turn: the supply holds 5, so taking it ends the game with Bob ahead.
    Ann has set aside two lassos and three 5s and rolled a lasso and a 5."""
    g = Game(list(players), supply=5)
    g.holdings = list(holdings)
    g.apply(Roll(["lasso", "lasso", "5", "5", "5", "2", "3"]))
    g.apply(Keep(["lasso", "lasso", "5", "5", "5"]))
    g.apply(Roll(["lasso", "5"]))
    if keep_last:
        g.apply(Keep(["lasso", "5"]))
    return to_view(g.view(0))


async def serving(tmp_path):
    lan = LanHost(save=False)
    lan.host.create_table("Main", "nuggets")
    await lan.listen("127.0.0.1", 0)
    directory = TableDirectory(lan.host)
    await directory.start(tmp_path / "run" / "tables.sock")
    return lan, directory


def served_app(tmp_path, lan, directory, name="Ann", named=True) -> MotherlodeApp:
    """``named``: the door gave the name (SSH); else a browser that never gave one, whose
    settings hold none (its next visit's settings would, and skip the question)."""
    start = ("served", "127.0.0.1", lan.port, str(directory.path), named)
    return make_app(tmp_path, settings=Settings(name=name if named else ""),
                    settings_path=tmp_path / f"{name}.json", start=start)


def snapshot_app(tmp_path, ascii_mode=False) -> MotherlodeApp:
    return make_app(tmp_path, ascii_mode=ascii_mode)


def nuggets_table(advisor: bool, ascii_mode: bool = False):
    async def run_before(pilot) -> None:
        screen = NuggetsScreen([0, 1], advisor=advisor, hotseat=True, ascii_mode=ascii_mode)
        await pilot.app.push_screen(screen)
        view = nuggets_view(rolled=("nugget", "lasso", "3", "3", "3", "5", "2"),
                            names=("Ann", "Bob"))
        view = replace(view, supply=61, holdings=[9, 7])
        screen.show_state(view, events({"type": "turn", "seat": 0},
                                 {"type": "rolled", "seat": 0, "faces": view.rolled}))
        await pilot.press("n", "f3")
        await pilot.pause()

    return run_before


def foolsgold_table(ascii_mode: bool = False):
    async def run_before(pilot) -> None:
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"], ascii_mode=ascii_mode)
        await pilot.app.push_screen(screen)
        view = foolsgold_view(grabbed=[[2, 10.0], [3, 10.153]], frozen=True, nuggets_left=1)
        screen.show_state(view, events(
            {"type": "drew", "seat": 1, "pile": "draw"},
            {"type": "grabbed", "seat": 2, "at": 10.0, "order": 1, "nuggets_left": 2},
            {"type": "grabbed", "seat": 3, "at": 10.153, "order": 2, "nuggets_left": 1}))
        screen.query_one("#foolsgold-table").remove_class("-flash")  # no flash in a snapshot
        await pilot.pause()

    return run_before


async def a_finished_game() -> Store:
    """Ann and Bob (greedy players over TCP) and a bot play Gold Nuggets to the end."""
    clock = FakeClock()
    store = Store.default("tables")
    host, table, ann, bob = await start_nuggets(clock, store, supply=12)
    play = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
    await drive(clock, lambda: all(t.done() for t in play))
    await host.close()
    return store


class Rigged(random.Random):
    """Dice that come out as queued (faces by name), then as the seed says."""

    def __init__(self, faces: list[str]) -> None:
        super().__init__(0)
        self.queue = [next(i for i, f in enumerate(FACES) if f.value == x) for x in faces]

    def randrange(self, *args, **kwargs):  # noqa: D102 - random.Random's
        if self.queue:
            return self.queue.pop(0)
        return super().randrange(*args, **kwargs)


async def ready_at_dice_table(pilot) -> NuggetsScreen:
    """A joined app in its lobby says ready (r), and the Gold Nuggets table opens."""
    from tui.screens.lobby import LobbyScreen

    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby opens")
    await until(pilot, lambda: "not ready" in screen_text(app), "the seats show")
    await pilot.press("r")
    await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the game starts")
    return app.screen
