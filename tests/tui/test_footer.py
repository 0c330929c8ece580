"""The footer (``tui.widgets.footer``): one widget that draws its screen's keys as
Textual's own Footer does, key for key and colour for colour, follows the keys that
work now without building anything (issue 22), wraps to rows where one line does not
fit, and presses the key a click or a tap lands on (issue 48: nine key widgets were a
third of the menu's time to its first frame)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets import Static

from net.clock import FakeClock
from tests.tui.harness import dealt, labels, pass_a_card, solo_fools_gold
from tui.widgets.footer import Footer

from .helpers import footer_text

pytestmark = pytest.mark.timeout(60)


class Keys(Screen):
    """A screen with each kind of key: plain, dimmed (does nothing now), without a
    description, hidden, hidden now, and a second key for an action shown already."""

    BINDINGS = [
        Binding("a", "alpha", "Alpha", tooltip="the first"),
        Binding("b", "beta", "Beta"),
        Binding("c", "gamma", ""),
        Binding("d", "delta", "Delta", show=False),
        Binding("e", "alpha", "Alpha again"),
        Binding("f", "hidden", "Hidden now"),
        Binding("question_mark", "omega", "Keys"),
    ]

    def __init__(self, footer: type, many: int = 0) -> None:
        super().__init__()
        self.footer = footer
        self.pressed: list[str] = []
        for n in range(many):
            # the first one in wide characters: two cells each
            words = "金を掘る金を掘る金を掘る" if n == 0 else f"Extra key {n}"
            self._bindings.bind(str(n), f"extra({n})", words)

    def compose(self):
        yield Static("keys")
        yield self.footer()

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "beta":
            return None  # shown, dimmed
        if action == "hidden":
            return False  # not shown
        return True

    def action_alpha(self) -> None:
        self.pressed.append("alpha")

    def action_beta(self) -> None:
        self.pressed.append("beta")

    def action_extra(self, n: int) -> None:
        self.pressed.append(f"extra {n}")


class Theirs(TextualFooter):
    """Textual's own footer, as Motherlode's screens would have it: no palette key."""

    def __init__(self) -> None:
        super().__init__(show_command_palette=False)


class KeysApp(App):
    def __init__(self, footer: type, many: int = 0) -> None:
        super().__init__()
        self.footer, self.many = footer, many
        self.bells = 0

    def get_default_screen(self) -> Screen:
        return Keys(self.footer, self.many)

    def bell(self) -> None:
        self.bells += 1


def _cells(app: App, footer) -> list[list[tuple[str, object, object, bool, bool]]]:
    """The footer's rows, a cell at a time: its character and what it looks like."""
    strips = app.screen._compositor.render_strips()
    rows = []
    for strip in strips[footer.region.y:footer.region.bottom]:
        row = []
        for segment in strip:
            style = segment.style
            for char in segment.text:
                row.append((char, style.color, style.bgcolor, bool(style.bold),
                            bool(style.dim)))
        rows.append(row)
    return rows


async def _drawn(footer: type, size: tuple[int, int], many: int = 0):
    app = KeysApp(footer, many)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        widget = app.screen.query_one(footer)
        return _cells(app, widget), "\n".join(
            "".join(c[0] for c in row).rstrip() for row in _cells(app, widget))


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
async def test_it_draws_what_textuals_footer_draws_cell_for_cell(size):
    ours, text = await _drawn(Footer, size)
    theirs, their_text = await _drawn(Theirs, size)
    assert text == their_text == " a Alpha  b Beta  ? Keys"  # (no key without words)
    assert ours == theirs  # the same characters in the same colours, dimmed and bold


async def test_keys_that_do_not_fit_go_in_rows_each_whole():
    _, text = await _drawn(Footer, (40, 12), many=6)
    rows = text.splitlines()
    assert len(rows) > 1
    assert all(cell_len(row) <= 40 for row in rows)  # cells: a wide character is two
    words = " ".join(rows)
    for n in range(1, 6):
        assert f"{n} Extra key {n}" in words  # whole, on one row
    assert "0 金を掘る金を掘る金を掘る" in words
    # and one line again when they fit
    _, wide = await _drawn(Footer, (160, 12), many=6)
    assert len(wide.splitlines()) == 1 and "0 金を掘る金を掘る金を掘る" in wide


async def test_a_click_presses_its_key_and_a_dimmed_key_rings_the_bell():
    app = KeysApp(Footer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        await pilot.pause()
        line = (await footer_text(pilot))
        assert await pilot.click(Footer, offset=(line.index("Alpha"), 0))
        await pilot.pause()
        assert app.screen.pressed == ["alpha"]
        assert await pilot.click(Footer, offset=(line.index("Beta"), 0))
        await pilot.pause()
        assert app.screen.pressed == ["alpha"] and app.bells == 1
        assert await pilot.click(Footer, offset=(79, 0))  # past the keys: nothing
        await pilot.pause()
        assert app.screen.pressed == ["alpha"] and app.bells == 1
        # the pointer over a key lights it and shows its tooltip; off it, neither
        plain = _cells(app, footer)[0][line.index("Alpha")]
        await pilot.hover(Footer, offset=(line.index("Alpha"), 0))
        await pilot.pause()
        lit = _cells(app, footer)[0][line.index("Alpha")]
        assert lit[2] != plain[2] and footer.tooltip == "the first"
        await pilot.hover(Static)
        await pilot.pause()
        assert _cells(app, footer)[0][line.index("Alpha")] == plain
        assert footer.tooltip is None


@pytest.mark.slow
async def test_a_fools_gold_footer_follows_the_keys_that_work_with_no_widget_built(
    tmp_path, monkeypatch
):
    clock = FakeClock()
    app = solo_fools_gold(tmp_path, clock, first_player=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await dealt(app, pilot)
        footer = screen.query_one(Footer)
        mounted = 0
        real = footer.mount

        def counted(*args, **kwargs):
            nonlocal mounted
            mounted += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(footer, "mount", counted)
        seen: list[frozenset[str]] = []
        for _ in range(400):
            now = screen.now()
            shown = labels(await footer_text(pilot))
            if not seen or shown != seen[-1]:
                seen.append(frozenset(shown))
            # what it shows is what works now
            expected = ({"Draw"} if "draw" in now.keys else set()) | (
                {"Pass"} if "discard" in now.keys else set())
            assert shown == expected | {"Grab!", "Leave", "Keys"}, (now, shown)
            assert footer.keys == footer.read_keys()
            if len(seen) >= 4:
                break
            await pass_a_card(pilot, now, clock)
        assert len(seen) >= 4, seen  # Draw came and went, twice
        assert mounted == 0 and not footer.children  # one widget, nothing built
