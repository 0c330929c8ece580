"""Gold Nuggets in the app: its table screen (``screen``), its dice (``dice``) and the
advisor (``advisor``)."""
