"""The Textual terminal app."""
