"""The product's docstrings and the games' titles, read by the catalogue and boundary tests."""

from __future__ import annotations

import ast
import re

from net.catalogue import games

TITLES = tuple(s.title for s in games())
# A title as text, except "Fool's Gold!", the call a player makes in that game.
TITLE = re.compile("|".join(re.escape(t) + r"(?!!)" for t in TITLES))


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found
