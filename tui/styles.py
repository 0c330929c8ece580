"""Each style sheet parsed once a process (issue 48).

Textual parses every CSS source again whenever its stylesheet is re-parsed: each new
screen with CSS of its own, each widget class first mounted with a ``DEFAULT_CSS``,
builds a fresh ``Stylesheet`` and parses every source it holds, and each app starts
with an empty cache. The menu's first frame parsed the same sheets four times, a
fifth of a forked app's CPU to its first frame. :func:`share` (installed when
``tui.app`` imports this module) keeps what a source parses to for the whole process,
keyed by everything the parse reads: the text, where it came from, whether it is a
widget's default, its tie-breaker and scope, and the CSS variables (a theme's change
parses again). The warm parent draws the menu once before it forks
(``tui.cli.warm_first_frame``), so every forked app starts with the parsed sheets in
its copy-on-write memory.

A parsed ``RuleSet`` is never changed after the parse (Textual's own cache hands the
same lists to repeated parses of one stylesheet); a source that fails to parse raises
as before and is not kept.
"""

from __future__ import annotations

from typing import Any

from textual.css.stylesheet import Stylesheet

LIMIT = 512  # sources kept: every sheet of the app, of every theme, with room to spare

_parsed: dict[tuple, list[Any]] = {}


def share() -> None:
    """Parse each source once a process, for every stylesheet (idempotent). A Textual
    without the method this wraps is left as it is: the app then parses as before."""
    original = getattr(Stylesheet, "_parse_rules", None)
    if original is None or getattr(original, "shared", False):
        return

    def _parse_rules(self: Stylesheet, *args: Any, **kwargs: Any) -> list[Any]:
        # (css, read_from, is_default_rules, tie_breaker, scope), however they are
        # passed, and the variables the parse substitutes
        key = (args, tuple(sorted(kwargs.items())), tuple(self._variables.items()))
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, *args, **kwargs)
            if len(_parsed) >= LIMIT:
                del _parsed[next(iter(_parsed))]  # the oldest
            _parsed[key] = rules
        return rules

    _parse_rules.shared = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]


share()  # on import: the app imports this module before it makes a stylesheet
