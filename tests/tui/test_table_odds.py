"""The odds a player sees are the table's (issue 57): the advisor panel's chance to win
is `nuggets.chances.chances(view, kind=...)` at the kind of table its seated bots make
(all hard: "strong"; any other: "mixed"), read from the real app against real bots."""

from __future__ import annotations

import msgspec
import pytest

from net.views import to_plain
from nuggets import chances
from tests.tui.harness import make_app, until
from tui.games.nuggets.advisor import AdvisorPanel
from tui.games.nuggets.screen import NuggetsScreen


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


@pytest.mark.parametrize(("difficulty", "kind", "other"),
                         [("hard", "strong", "mixed"), ("normal", "mixed", "strong")])
async def test_the_advisor_panel_shows_the_chance_of_the_tables_kind(tmp_path, difficulty,
                                                                     kind, other):
    app = make_app(tmp_path, start=("solo", "nuggets", 2),
                   table_options={"seed": f"odds-{difficulty}", "bot_pace": 0.0,
                                  "first_player": 0, "difficulty": difficulty})
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.acting_seat is not None
                    and screen.view.phase == "roll", "my turn")
        view = screen.view
        assert view.table_kind == kind and len(view.players) == 3
        plain = to_plain(msgspec.structs.replace(view, table_kind="mixed"))
        shown = chances.chances(plain, kind=kind).roll
        elsewhere = chances.chances(plain, kind=other).roll
        assert _pct(shown) != _pct(elsewhere)  # the two maps differ here: the test can fail
        await pilot.pause()
        text = str(screen.query_one(AdvisorPanel).render())
        assert f"roll on {_pct(shown)}" in text, text
        assert _pct(elsewhere) not in text


def test_the_plain_seat_answers_odds_with_the_tables_chances():
    """The plain seat's ``odds`` question says the advisor's lines: at a strong table
    the strong chance, at a mixed one the mixed."""
    from net.views import to_view
    from nuggets import Game
    from tui.games.nuggets.plain import answers
    from tui.plain.seat import QUESTIONS

    assert "odds" in QUESTIONS
    game = Game(["Ann", "Bob", "Cy"], supply=40, start=0)
    game.holdings = [20, 10, 7]
    rules_view = game.view(0)
    for kind, other in (("strong", "mixed"), ("mixed", "strong")):
        view = to_view({**rules_view, "table_kind": kind})
        said = answers(view, 0, ["Ann", "Bob", "Cy"], None)["odds"]
        shown = _pct(chances.chances(rules_view, kind=kind).roll)
        assert _pct(chances.chances(rules_view, kind=other).roll) != shown
        assert said.startswith("For Ann: To win:") and f"roll on {shown}" in said, said
