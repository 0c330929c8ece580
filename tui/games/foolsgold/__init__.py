"""Fool's Gold in the app: its table screen (``screen``) and its cards (``cards``)."""
