"""Each style sheet parsed once a process and once a machine (``tui.styles``, issue 48):
a second app in the same process (as every app the warm parent forks is) parses no CSS
to draw its menu, and draws the same screen; a change of theme, which changes the CSS
variables, parses again and draws in the new colours. A new process loads what an
earlier one parsed, unless the file is not the user's own, damaged, or another
Textual's. And the menu is styled once before its first frame. The real app, headless,
counting Textual's own parser's and styler's calls."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from textual.app import App
from textual.css import stylesheet
from textual.screen import Screen
from textual.widgets import Static

from tests.tui.harness import make_app
from tests.tui.helpers import screen_text
from tui import styles

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Each call of Textual's CSS parser, by the source it parsed (where it came from)."""
    calls: list[str] = []
    real = stylesheet.parse

    def counted(scope, css, read_from, *args, **kwargs):
        calls.append(repr(read_from))
        return real(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(stylesheet, "parse", counted)
    return calls


async def _menu(tmp_path) -> tuple[str, str]:
    """Draw the menu once; its text and the menu's background colour."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        background = str(app.screen.styles.background)
    return text, background


async def test_a_second_app_parses_no_style_sheet_and_draws_the_same(tmp_path, parses):
    first, _ = await _menu(tmp_path / "one")
    parsed = len(parses)
    second, _ = await _menu(tmp_path / "two")
    assert "hot-seat" in first  # the menu drew
    assert second == first
    assert len(parses) == parsed, parses[parsed:]  # nothing parsed again


async def test_a_new_theme_parses_again_in_its_own_colours(tmp_path, parses):
    _, dark = await _menu(tmp_path / "one")
    app = make_app(tmp_path / "two")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = len(parses)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        assert len(parses) > before  # the new variables: the sheets parsed for them
        light = str(app.screen.styles.background)
    assert light != dark


# -- once a machine: the parsed sheets kept on disk ------------------------------------


@pytest.fixture
def fresh_process(tmp_path, monkeypatch):
    """What a new process starts with: nothing parsed in memory, and a disk cache in
    its own folder; calling it again forgets the memory (the next process)."""
    folder = tmp_path / "cache" / "css"
    monkeypatch.setattr(styles, "_disk", styles.DiskCache(folder))

    def start() -> Path:
        monkeypatch.setattr(styles, "_parsed", {})
        return folder

    start()
    return start


def _facts(rule) -> tuple:
    """Everything a rule set says: its selectors, declarations and flags."""
    declarations = {name: repr(value) for name, value in rule.styles.get_rules().items()}
    return (rule.selector_set, declarations, rule.styles.important,
            rule.selector_names, rule.pseudo_classes, rule.is_default_rules,
            rule.tie_breaker, rule.errors)


def _kept(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


async def test_a_new_process_loads_the_sheets_a_first_one_parsed(tmp_path, parses,
                                                                 fresh_process):
    first, colour = await _menu(tmp_path / "one")
    parsed = len(parses)
    folder = fresh_process()
    assert parsed and len(_kept(folder)) == parsed  # each source parsed once, kept once
    second, again = await _menu(tmp_path / "two")
    assert len(parses) == parsed, parses[parsed:]  # nothing parsed: all loaded
    assert (second, again) == (first, colour)


async def test_what_a_file_holds_is_what_the_parse_gives(tmp_path, fresh_process):
    await _menu(tmp_path / "one")
    kept = dict(styles._parsed)
    folder = fresh_process()
    for key, rules in kept.items():
        loaded = styles.disk().load(key)
        assert loaded is not None and loaded is not rules
        assert [_facts(rule) for rule in loaded] == [_facts(rule) for rule in rules]
    assert _kept(folder)


@pytest.mark.parametrize("damage", ["garbage", "others_can_write", "symlink", "other_key",
                                    "other_textual"])
async def test_a_file_not_safe_or_not_whole_is_parsed_again(tmp_path, parses, fresh_process,
                                                            monkeypatch, damage):
    first, _ = await _menu(tmp_path / "one")
    parsed = len(parses)
    folder = fresh_process()
    files = _kept(folder)
    for file in files:
        if damage == "garbage":
            file.write_bytes(b"\x80\x05not a pickle")
        elif damage == "others_can_write":
            file.chmod(0o666)
        elif damage == "symlink":
            target = file.with_suffix(".real")
            file.rename(target)
            file.symlink_to(target)
        elif damage == "other_key" and file != files[0]:  # another key's rules
            file.write_bytes(files[0].read_bytes())
    if damage == "other_textual":
        monkeypatch.setattr(styles.disk(), "_stamp", "another Textual")
    second, _ = await _menu(tmp_path / "two")
    assert second == first  # drawn all the same
    again = len(parses) - parsed
    assert again == (parsed - 1 if damage == "other_key" else parsed), damage


async def test_a_folder_others_can_write_keeps_nothing(tmp_path, parses, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setattr(styles, "_disk", styles.DiskCache(folder))
    monkeypatch.setattr(styles, "_parsed", {})
    text, _ = await _menu(tmp_path / "one")
    assert "hot-seat" in text and parses
    assert _kept(folder) == []


def test_the_oldest_files_go_beyond_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(styles, "LIMIT", 3)
    cache = styles.DiskCache(tmp_path / "css")
    for n in range(5):
        cache.keep((f"source {n}",), [])
        path = cache.path((f"source {n}",))
        os.utime(path, ns=(n * 10**9, n * 10**9))
    cache.keep(("source 5",), [])
    names = {path.name for path in _kept(tmp_path / "css")}
    assert len(names) == 3
    assert cache.path(("source 5",)).name in names
    assert cache.path(("source 0",)).name not in names
    assert cache.load(("source 5",)) == []


# -- styled once before the first frame ----------------------------------------------------


@pytest.fixture
def styled(monkeypatch) -> Counter:
    """How many times each node (by id) had its styles applied."""
    counts: Counter = Counter()
    real = stylesheet.Stylesheet.apply

    def apply(self, node, *args, **kwargs):
        counts[node.id] += 1
        return real(self, node, *args, **kwargs)

    monkeypatch.setattr(stylesheet.Stylesheet, "apply", apply)
    return counts


@pytest.mark.parametrize("size", [(80, 24), (50, 16)])
async def test_the_menu_is_styled_once_before_its_first_frame(tmp_path, styled, size):
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert "hot-seat" in screen_text(app)
        assert styled["logo"] == styled["tagline"] == 1, styled
        narrow = size[0] < 80
        assert app.screen.has_class("-narrow") == narrow
        assert app.screen.has_class("-wide") != narrow
        # the narrow layout took: the logo gives way to the name where it cannot fit
        logo = app.screen.query_one("#logo")
        assert logo.display != narrow


async def test_a_resize_after_the_first_frame_restyles_for_the_new_size(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#logo").display
        await pilot.resize_terminal(50, 16)
        await pilot.pause()
        assert app.screen.has_class("-narrow")
        assert not app.screen.query_one("#logo").display


class _Own(styles.StyledAtMount, Screen):
    """A screen with a style sheet of its own, shown over the first one."""

    CSS = """
    _Own { align-horizontal: center; }
    _Own #wide { width: 20; }
    _Own.-narrow #wide { display: none; }
    """

    def compose(self):
        yield Static("only when wide", id="wide")


class _OwnApp(App):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]

    async def on_mount(self) -> None:
        await self.push_screen(_Own())


@pytest.mark.parametrize("size", [(120, 40), (60, 20)])
async def test_a_screen_with_its_own_sheet_is_styled_by_it(size):
    app = _OwnApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, _Own)
        assert screen.styles.align_horizontal == "center"
        wide = screen.query_one("#wide")
        assert wide.display == (size[0] >= 80)
        if wide.display:
            assert wide.region.x == (size[0] - 20) // 2  # centred by its own sheet
