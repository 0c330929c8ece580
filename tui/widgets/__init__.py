"""Widgets that render the view dicts of docs/ARCHITECTURE.md. They hold no rules."""
