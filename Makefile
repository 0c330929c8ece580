# `make play` and `make test` work on a fresh clone with only python3 (>= 3.11) and
# make: each creates or refreshes .venv and installs the project with its test extra.
# `make play` then opens the game; `make test` runs ruff, the layering contract
# (lint-imports, [tool.importlinter] in pyproject.toml) and the whole pytest suite;
# `make test-fast` runs the same checks and every test not marked slow.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test test-fast lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/motherlode

# The whole suite, in a random order (its seed is printed last, to replay it), on three
# workers (pytest-xdist; PYTEST_WORKERS=0 runs it in this one process). A file's tests
# stay on one worker (--dist loadfile): some plant a file in the tree for their
# neighbour to find (tests/test_dead_code.py), so they never run side by side. Three on
# two cores: a third of the workers' time is spent waiting (browsers, tmux, SSH, real
# clocks), and a third worker fills it (804 s against 915 s on 2 cores, 7 Dec 2026).
PYTEST_WORKERS ?= 3
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile

# The inner loop: everything not marked slow (see the markers in pyproject.toml).
test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
