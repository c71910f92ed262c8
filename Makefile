# Two commands do everything: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean install screenshots

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion run $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

screenshots: $(STAMP)
	SCREENSHOT_DIR=docs/screenshots $(BIN)/pytest -q tests/web/test_browser.py -k full_round

install:
	sudo bash systemd/install.sh
