"""Gold Nuggets (Reiner Knizia): the pure rules engine, exact advisor and bots."""
