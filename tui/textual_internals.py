"""Every use the app makes of Textual's internals, in one place.

Textual promises its public API; these are the names it does not promise, each a
function here, checked on the version in ``CHECKED_ON``:

- ``Stylesheet._parse_rules``, wrapped so that a source parses once a process and once
  a machine (``tui.styles.share``), keyed with ``Stylesheet._variables``;
- a node's ``_bindings`` (its ``BindingsMap``), read and changed so that a screen gets
  bindings made when it is made (the games registered, a message's own keys) and its
  footer words follow the terminal's width (``tui.keys``, ``tui.screens``);
- ``Screen._compositor``, whose ``render_strips`` is the screen as drawn, read as text
  (``tui.screen_text``);
- ``Screen._get_breakpoint_classes``, so a screen takes its breakpoint classes as it
  is made (``tui.styles.StyledAtMount``), whose ``_on_screen_resume`` it overrides;
- ``App._notifications`` and ``App._unnotify``, to take back a warning that is no
  longer true (``tui.flows.window``);
- ``App._driver``, whose ``write`` puts a desktop notification (an OSC sequence) on the
  terminal between frames (``tui.alerts``);
- a message pump's ``_message_queue`` (its size), ``_closing`` and ``_closed``, and a
  driver's ``_app``, read on the driver's input thread so that it waits while the app
  is behind (``tui.inflow``).

A new Textual: ``tests/test_internals.py`` fails loudly for each method in ``WRAPPED``
whose parameters changed and each attribute in ``READ`` that is gone; read the new
code, fix the use here, and write the version checked in ``CHECKED_ON``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.binding import Binding

#: the Textual these uses were read against
CHECKED_ON = "8.2.8"

#: Textual's methods the app wraps, overrides or calls by their private names:
#: (module, class, name) -> the parameters as checked on ``CHECKED_ON``
WRAPPED: dict[tuple[str, str, str], str] = {
    ("textual.css.stylesheet", "Stylesheet", "_parse_rules"):
        "(self, css, read_from, is_default_rules=False, tie_breaker=0, scope='')",
    ("textual.screen", "Screen", "_get_breakpoint_classes"): "(self, dimension, breakpoints)",
    ("textual.screen", "Screen", "_on_screen_resume"): "(self, event)",
    ("textual.app", "App", "_unnotify"): "(self, notification, refresh=True)",
    ("textual._compositor", "Compositor", "render_strips"): "(self, size=None)",
    ("textual.binding", "BindingsMap", "bind"):
        "(self, keys, action, description='', show=True, key_display=None, priority=False)",
    ("textual.binding", "BindingsMap", "merge"): "(bindings)",
}

#: the private attributes the app reads: (module, class, attribute), on an instance
READ: tuple[tuple[str, str, str], ...] = (
    ("textual.css.stylesheet", "Stylesheet", "_variables"),
    ("textual.dom", "DOMNode", "_bindings"),
    ("textual.binding", "BindingsMap", "key_to_bindings"),
    ("textual.screen", "Screen", "_compositor"),
    ("textual.app", "App", "_notifications"),
    ("textual.app", "App", "_driver"),
    ("textual.app", "App", "_message_queue"),
    ("textual.app", "App", "_closing"),
    ("textual.app", "App", "_closed"),
    ("textual.drivers.headless_driver", "HeadlessDriver", "_app"),
)


# -- style sheets ----------------------------------------------------------------------

def wrap_parse_rules(wrap: Callable[[Callable[..., list[Any]]], Callable[..., list[Any]]]
                     ) -> bool:  # fmt: skip
    """Replace ``Stylesheet._parse_rules`` with ``wrap(original)``, once (a wrapper
    marks itself ``shared``). False where this Textual has no such method: the app
    then parses as Textual does."""
    from textual.css.stylesheet import Stylesheet

    original = getattr(Stylesheet, "_parse_rules", None)
    if original is None or getattr(original, "shared", False):
        return False
    wrapper = wrap(original)
    wrapper.shared = True  # type: ignore[attr-defined]
    wrapper.__wrapped__ = original  # type: ignore[attr-defined] # its signature, Textual's
    Stylesheet._parse_rules = wrapper  # type: ignore[method-assign]
    return True


def sheet_variables(sheet: Any) -> dict[str, str]:
    """The CSS variables a stylesheet substitutes as it parses (a theme's)."""
    return sheet._variables


# -- bindings --------------------------------------------------------------------------

def key_bindings(node: Any) -> dict[str, list[Binding]]:
    """A screen's or widget's own bindings by key, to read or to change in place (a
    change shows after ``node.refresh_bindings()``); empty for a node with none."""
    bindings = getattr(node, "_bindings", None)
    return bindings.key_to_bindings if bindings is not None else {}


def bind(node: Any, keys: str, action: str, description: str) -> None:
    """One more binding on this node alone (not its class)."""
    node._bindings.bind(keys, action, description)


def add_bindings(node: Any, bindings: list[Binding]) -> None:
    """More bindings on this node alone, after its class's: call it in ``__init__``,
    and the app's keymap applies to them as to the class's."""
    from textual.binding import BindingsMap

    node._bindings = BindingsMap.merge([node._bindings, BindingsMap(bindings)])


# -- screens ---------------------------------------------------------------------------

def rendered_strips(screen: Any) -> list[Any]:
    """The screen as its compositor draws it now: one strip a line."""
    return screen._compositor.render_strips()


def breakpoint_classes(screen: Any, dimension: int, breakpoints: list[tuple[int, str]]
                       ) -> set[str]:  # fmt: skip
    """The breakpoint classes Textual gives ``screen`` at a width (or height) of
    ``dimension``."""
    return screen._get_breakpoint_classes(dimension, breakpoints)


# -- notifications ---------------------------------------------------------------------

def take_back_notices(app: Any, starting: str) -> None:
    """Remove the notifications on screen whose message starts with ``starting``."""
    for notice in [n for n in app._notifications if n.message.startswith(starting)]:
        app._unnotify(notice)


# -- the terminal ------------------------------------------------------------------------

def write_to_terminal(app: Any, data: str) -> bool:
    """Write ``data`` (an escape sequence) to the app's terminal as Textual's own ``bell``
    does; False where there is none (a headless test)."""
    driver = getattr(app, "_driver", None)
    if driver is None or app.is_headless:
        return False
    driver.write(data)
    return True


# -- the input thread ------------------------------------------------------------------

def messages_waiting(app: Any) -> int:
    """Messages waiting at the app, its screen and its focused widget (the path a key
    takes), read from another thread: an estimate, never a lock."""
    stack = app.screen_stack
    waiting = 0
    for pump in (app, stack[-1] if stack else None, app.focused):
        queue = getattr(pump, "_message_queue", None)
        if queue is not None:
            waiting += queue.qsize()
    return waiting


def ending(app: Any) -> bool:
    """The app is closing or closed (its driver's input thread then stops waiting)."""
    return app._closing or app._closed


def driver_app(driver: Any) -> Any:
    """The app a driver posts its input to."""
    return driver._app
