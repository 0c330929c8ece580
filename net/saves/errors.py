"""The one error of the saves: a save, a record or the database that cannot be read,
restored or replayed."""

from __future__ import annotations


class SaveError(Exception):
    """A save that cannot be restored or replayed, or a database that cannot be opened;
    the message names it and says why, for a person. Nothing is changed or deleted."""
