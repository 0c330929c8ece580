"""Save SVG screenshots of both tables for the README: `python bench/tui_screenshots.py`.

Real games on the in-process host with fixed seeds (and a fake host clock for the
cards), driven by key presses, captured at 80x24 by Textual's `save_screenshot`.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from net.clock import FakeClock
from tui.app import MotherlodeApp
from tui.settings import Settings

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def _app(tmp: Path, **kwargs) -> MotherlodeApp:
    return MotherlodeApp(settings=Settings(name="Ann"), settings_path=tmp / "s.json",
                         announce=False, discover=False, **kwargs)


async def _until(pilot, condition, steps: int = 3000) -> None:
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.001)
    raise SystemExit("the game did not reach the wanted moment")


async def nuggets(tmp: Path) -> Path:
    app = _app(tmp, start=("hotseat", [("Ann", False), ("Bob", False), ("Cid", True)]),
               table_options={"seed": "screenshot-3", "bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: getattr(app.screen, "view", None) is not None
                     and app.screen.acting_seat is not None)
        screen = app.screen
        await pilot.press("enter")
        await _until(pilot, lambda: screen.view.phase == "keep")
        rolled = screen.view.rolled
        for face, key in (("nugget", "n"), ("lasso", "l")):
            if face in rolled:
                await pilot.press(key)
                break
        await pilot.pause(0.05)
        return Path(app.save_screenshot("nuggets-table.svg", str(OUT)))


async def foolsgold(tmp: Path) -> Path:
    clock = FakeClock()
    app = _app(tmp, start=("solo", "foolsgold", 3), host_clock=clock,
               table_options={"seed": "cards-7", "bot_pace": 0.5})
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: getattr(app.screen, "view", None) is not None)
        screen = app.screen
        for _ in range(3000):
            view = screen.view
            if len(view.grabbed) >= 2:
                break
            hand = view.hand or []
            if not view.frozen and len(hand) == 6:
                await pilot.press("1")
            elif not view.frozen and len(hand) == 5 and (
                    view.start == 0 or view.incoming_sizes[0]):
                await pilot.press("d")
            clock.advance(0.1)
            await pilot.pause(0.001)
        screen.query_one("#foolsgold-table").remove_class("-flash")
        await pilot.pause(0.05)
        return Path(app.save_screenshot("foolsgold-table.svg", str(OUT)))


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for shot in (nuggets, foolsgold):
            print(await shot(Path(tmp)))


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
