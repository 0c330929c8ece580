"""Fool's Gold: the pure rules engine of the real-time card game, and its bots."""
