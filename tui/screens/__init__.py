"""Screens of the app: menu, lobby, the two tables, and small modal boxes."""
