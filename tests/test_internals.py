"""The libraries' internals the product uses are each in one module a layer
(``tui.textual_internals``, ``net.asyncio_internals``, ``serve.asyncssh_internals``),
named with the version they were checked on. A new version that changes the
parameters of a method one of them wraps or calls, or drops an attribute it reads,
fails here, loudly, before it fails somewhere on a screen."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import re
from pathlib import Path

import pytest

from net import asyncio_internals
from serve import asyncssh_internals
from tui import textual_internals

ROOT = Path(__file__).resolve().parent.parent
REGISTRIES = (textual_internals, asyncio_internals, asyncssh_internals)


def shape(function) -> str:
    """A method's parameters as written, without their annotations: what a wrapper or
    a caller depends on (names, order, kinds, defaults)."""
    signature = inspect.signature(function)
    return str(signature.replace(
        parameters=[p.replace(annotation=inspect.Parameter.empty)
                    for p in signature.parameters.values()],
        return_annotation=inspect.Signature.empty))


def changed(wrapped: dict[tuple[str, str, str], str]) -> list[str]:
    """Each method of ``wrapped`` that is gone or whose parameters are not those
    recorded."""
    found = []
    for (module, owner, name), recorded in wrapped.items():
        cls = getattr(importlib.import_module(module), owner)
        method = inspect.getattr_static(cls, name, None)
        if method is None:
            found.append(f"{module}.{owner}.{name} is gone")
            continue
        method = getattr(cls, name)
        if isinstance(inspect.getattr_static(cls, name), staticmethod | classmethod):
            method = getattr(cls, name)
        now = shape(method)
        if now != recorded:
            found.append(f"{module}.{owner}.{name}{now}, checked as {name}{recorded}")
    return found


@pytest.mark.parametrize("registry", REGISTRIES, ids=lambda r: r.__name__)
def test_every_wrapped_method_has_the_parameters_it_was_checked_with(registry):
    found = changed(registry.WRAPPED)
    assert not found, (
        f"{registry.__name__} was checked on {registry.CHECKED_ON}; these changed (read "
        "the new code, fix the use, record the version):\n" + "\n".join(found))


def test_a_changed_signature_is_caught():
    """The negative control: a method recorded with other parameters, and one gone."""
    planted = {("textual.app", "App", "_unnotify"): "(self, notification)",
               ("textual.app", "App", "_never_was_a_method"): "(self)"}
    found = changed(planted)
    assert len(found) == 2 and "checked as _unnotify(self, notification)" in found[0]
    assert "is gone" in found[1]


async def _driver(kind):
    """A driver as an app makes one: in a running loop (it keeps the loop)."""
    from textual.app import App

    return kind(App())


def test_every_private_attribute_read_is_there():
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.css.stylesheet import Stylesheet
    from textual.dom import DOMNode
    from textual.drivers.headless_driver import HeadlessDriver
    from textual.screen import Screen

    made = {"Stylesheet": Stylesheet(), "DOMNode": DOMNode(), "BindingsMap": BindingsMap(),
            "Screen": Screen(), "App": App(),
            "HeadlessDriver": asyncio.run(_driver(HeadlessDriver))}
    for module, owner, name in textual_internals.READ:
        assert isinstance(made[owner], getattr(importlib.import_module(module), owner))
        assert hasattr(made[owner], name), (
            f"{module}.{owner}().{name} is gone (checked on Textual "
            f"{textual_internals.CHECKED_ON}): fix tui/textual_internals.py")


# a private name of the library: ``obj._name`` where ``_name`` is not the product's own
PRIVATE = re.compile(r"\.(_parse_rules|_bindings|_compositor|_variables|_notifications|"
                     r"_message_queue|_screen_stack|"
                     r"_unnotify|_get_breakpoint_classes|_accept_connection2?|"
                     r"_start_serving|_remove_reader|_match)\b")


def test_the_internals_are_used_nowhere_else():
    """Each library's private names appear only in its one module (a class of the
    product overriding a handler by name, ``_on_screen_resume``, is listed there)."""
    homes = {"tui/textual_internals.py", "net/asyncio_internals.py",
             "serve/asyncssh_internals.py"}
    found = []
    for package in ("tui", "net", "serve"):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if rel in homes:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                code = line.split("#", 1)[0]
                if PRIVATE.search(code):
                    found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "move it into the library's internals module:\n" + "\n".join(found)


def test_the_style_cache_is_stamped_with_textuals_version(tmp_path):
    import textual

    from tui.styles import DiskCache

    stamp = DiskCache(tmp_path).stamp()
    assert f"textual {textual.__version__}" in stamp


def test_the_search_finds_a_private_use():
    """The negative control of the search above."""
    assert PRIVATE.search("own = node._bindings.key_to_bindings")
    assert PRIVATE.search("strips = app.screen._compositor.render_strips()")
    assert not PRIVATE.search("self._bindings_changed(screen)")
