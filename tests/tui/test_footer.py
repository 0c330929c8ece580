"""A busy table's footer follows the keys that work without being built again (issue
22): its keys are built once, for every binding the screen could show, and a change of
which keys work shows and hides them. It shows exactly what Textual's footer would."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from net.clock import FakeClock
from tui.widgets.footer import Footer

from .helpers import footer_text
from .test_phases import dealt, labels, pass_a_card, solo_fools_gold


@pytest.mark.slow
async def test_a_fools_gold_footer_shows_and_hides_its_keys_without_a_rebuild(
    tmp_path, monkeypatch
):
    clock = FakeClock()
    app = solo_fools_gold(tmp_path, clock, first_player=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await dealt(app, pilot)
        footer = screen.query_one(Footer)
        built = list(footer.query_children(FooterKey))
        rebuilds = 0
        real = Footer.compose

        def counted(self):
            nonlocal rebuilds
            rebuilds += 1
            return real(self)

        monkeypatch.setattr(Footer, "compose", counted)
        seen: list[frozenset[str]] = []
        for _ in range(400):
            now = screen.now()
            shown = labels(await footer_text(pilot))
            if not seen or shown != seen[-1]:
                seen.append(frozenset(shown))
            # what it shows is what works now, drawn as Textual's own footer would
            expected = ({"Draw"} if "draw" in now.keys else set()) | (
                {"Pass"} if "discard" in now.keys else set())
            assert shown == expected | {"Grab!", "Leave", "Keys"}, (now, shown)
            assert footer._shown == footer._keys_shown()
            if len(seen) >= 4:
                break
            await pass_a_card(pilot, now, clock)
        assert len(seen) >= 4, seen  # Draw came and went, twice
        # the same key widgets all along, the hidden ones kept: no rebuild
        assert rebuilds == 0
        assert list(footer.query_children(FooterKey)) == built
        hidden = {key.description for key in built if not key.display}
        assert hidden == {"Fool's Gold!", "Try now", "Play again", "End guide"} | (
            {"Draw"} - seen[-1])
