"""Each style sheet parsed once a process, and once a machine (issue 48).

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

A terminal app started on its own begins with nothing parsed: tokenizing its sheets
and Textual's was a fifth of the time from ``App.run`` to the menu's first frame (10
of 52 ms). So each parse is also kept on disk (:class:`DiskCache`, in the user's cache
folder, ``$MOTHERLODE_CACHE_DIR`` overriding it), pickled, under a digest of the same
key, this Python, the installed Textual's version and its CSS modules: the next start
loads it (a tenth of a millisecond a sheet) instead. A file that is not the user's own, that others
could write, or that does not load is ignored and the source parsed as before: the
cache only ever saves time.

A parsed ``RuleSet`` is never changed after the parse (Textual's own cache hands the
same lists to repeated parses of one stylesheet); a source that fails to parse raises
as before and is not kept.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import sys
import zlib
from pathlib import Path
from typing import Any

import textual
from textual import events
from textual.css import model, parse, styles, stylesheet

from tui import textual_internals
from tui.textual_internals import breakpoint_classes

LIMIT = 512  # sources kept: every sheet of the app, of every theme, with room to spare

#: the cache files' format: a change of what they hold changes this
FORMAT = 1

_parsed: dict[tuple, list[Any]] = {}


class DiskCache:
    """Parsed sheets kept between runs, one file a source (a new theme or a changed
    sheet adds a file; the oldest go beyond :data:`LIMIT`)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # None: no cache (the folder could not be made private)
        self._stamp: str | None = None

    @classmethod
    def default(cls) -> DiskCache:
        override = os.environ.get("MOTHERLODE_CACHE_DIR")
        if override:
            base = Path(override)
        else:
            import platformdirs

            base = Path(platformdirs.user_cache_dir("motherlode"))
        return cls(base / "css")

    def stamp(self) -> str:
        """This Python and the Textual that parses (its version, and its CSS modules'
        files): a new one parses again."""
        if self._stamp is None:
            parts = [sys.version, str(FORMAT), f"textual {textual.__version__}"]
            for module in (parse, model, styles, stylesheet):
                info = os.stat(module.__file__ or "")
                parts.append(f"{module.__file__}:{info.st_mtime_ns}:{info.st_size}")
            self._stamp = "\n".join(parts)
        return self._stamp

    def path(self, key: tuple) -> Path | None:
        if self.folder is None:
            return None
        # a file's name only finds it: the file holds its key, which must match
        text = f"{self.stamp()}\n{key!r}".encode()
        return self.folder / f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}.pickle"

    def load(self, key: tuple) -> list[Any] | None:
        """The rules kept for ``key``, or None (none kept, or not safe to read)."""
        try:
            path = self.path(key)
            if path is None:
                return None
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except (OSError, ValueError):
            return None
        try:
            with os.fdopen(fd, "rb") as file:
                info = os.fstat(file.fileno())
                if info.st_uid != os.geteuid() or info.st_mode & 0o022 \
                        or not stat.S_ISREG(info.st_mode):
                    return None  # not the user's own: another could have written it
                kept, rules = pickle.load(file)  # noqa: S301 - the user's own private file
        except Exception:  # noqa: BLE001 - a damaged or stale file: parse instead
            return None
        return rules if kept == (self.stamp(), key) and isinstance(rules, list) else None

    def keep(self, key: tuple, rules: list[Any]) -> None:
        """Write ``rules`` for ``key`` (atomically; a failure keeps nothing)."""
        path = self.path(key)
        if path is None:
            return
        try:
            data = pickle.dumps(((self.stamp(), key), rules), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - a rule Textual cannot pickle: not kept
            return
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = os.stat(self.folder)
            if info.st_uid != os.geteuid() or info.st_mode & 0o022:
                self.folder = None  # a folder others can write to: keep nothing there
                return
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                         0o600)
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
            self._prune()
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)

    def _prune(self) -> None:
        files = sorted(self.folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns)
        for old in files[:max(0, len(files) - LIMIT)]:
            with contextlib.suppress(OSError):
                old.unlink()


_disk: DiskCache | None = None


def disk() -> DiskCache:
    """The process's disk cache, made the first time a sheet is parsed (so a test's
    ``$MOTHERLODE_CACHE_DIR`` set before its app starts is the one used)."""
    global _disk
    if _disk is None:
        _disk = DiskCache.default()
    return _disk


def share() -> None:
    """Parse each source once a process, for every stylesheet (idempotent). A Textual
    without the method this wraps is left as it is: the app then parses as before."""
    textual_internals.wrap_parse_rules(_sharing)


def _sharing(original: Any) -> Any:
    """Textual's rule parser, sharing: each parse kept for the process and on disk."""

    def _parse_rules(self: Any, *args: Any, **kwargs: Any) -> list[Any]:
        # (css, read_from, is_default_rules, tie_breaker, scope), however they are
        # passed, and the variables the parse substitutes
        variables = textual_internals.sheet_variables(self)
        key = (args, tuple(sorted(kwargs.items())), tuple(variables.items()))
        rules = _parsed.get(key)
        if rules is None:
            rules = disk().load(key)
            if rules is None:
                rules = original(self, *args, **kwargs)
                disk().keep(key, rules)
            if len(_parsed) >= LIMIT:
                del _parsed[next(iter(_parsed))]  # the oldest
            _parsed[key] = rules
        return rules

    return _parse_rules


class StyledAtMount:
    """A screen styled once before its first frame, not three times.

    The mount styles each node of a screen as it is composed. Textual then styled them
    all again twice before the first frame: on the screen's first resize, which sets
    its breakpoint classes (``-narrow``, ``-short``...), and on its first resume, which
    comes a moment after the mount. For the menu that was half the style work before
    its first frame. So this screen takes its breakpoint classes as it is made, for
    the app's size (the first resize then finds them set), and its first resume does
    not style again. A class, a theme or a size that changes meanwhile restyles what it
    touches as always; later resumes (back from another screen) style everything.

    A screen with a ``CSS`` or ``CSS_PATH`` of its own (a table, the lobby) is left to
    Textual: its sheets are loaded as it is shown, after its mount, and what the mount
    styled does not hold them (a table at 120x40 was not centred, nor laid out narrow
    at 60x20)."""

    _resumed = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._own_sheets():
            return
        try:
            classes = breakpoints(self, self.app.size)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - no app running (or a Textual without the
            return  # breakpoints this reads): the first resize sets them, as always
        self.update_classes(classes, update=False)  # type: ignore[attr-defined]

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual calls each class's handler, the subclass's first: this one, then
        # Screen's, which reads ``refresh_styles``
        if not self._resumed:
            self._resumed = True
            if not self._own_sheets():
                event.refresh_styles = False

    def _own_sheets(self) -> bool:
        return bool(self.CSS or self.CSS_PATH)  # type: ignore[attr-defined]


def breakpoints(screen: Any, size: Any) -> dict[str, bool]:
    """The breakpoint classes a screen of ``size`` has, as Textual's ``Screen``
    sets them on a resize: each class of both lists, True for the ones that apply."""
    app = screen.app
    horizontal = (app.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None
                  else screen.HORIZONTAL_BREAKPOINTS) or []
    vertical = (app.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is None
                else screen.VERTICAL_BREAKPOINTS) or []
    classes = {name: False for _, name in horizontal + vertical}
    for name in breakpoint_classes(screen, size.width, horizontal):
        classes[name] = True
    for name in breakpoint_classes(screen, size.height, vertical):
        classes[name] = True
    return classes


share()  # on import: the app imports this module before it makes a stylesheet


# -- Motherlode's own themes ---------------------------------------------------------------

#: the high-contrast theme (issue 61): white on black, every text colour of the tables
#: at 7:1 or more, pure hues a colour-vision deficiency still tells apart
#: (``tests/tui/test_colour.py`` checks it with every other theme)
HIGH_CONTRAST = "high-contrast"


def themes(app: Any) -> Any:
    """The themes ``app`` offers: Textual's, and Motherlode's own (registered once)."""
    if HIGH_CONTRAST not in app.available_themes:
        from textual.theme import Theme

        app.register_theme(Theme(
            name=HIGH_CONTRAST, primary="#3fb8ff", secondary="#ffd000", accent="#ffd000",
            warning="#ffd000", error="#ff6b6b", success="#4cff8f", foreground="#ffffff",
            background="#000000", surface="#000000", panel="#202020", boost="#1c1c1c",
            dark=True))  # fmt: skip
    return app.available_themes
