# Two commands do everything: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean install screenshots train-dice

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

# Retrain the two dice networks (CPU only, seeded; ~40 min on 2 cores) into
# companion/vision/models/. HOLDOUT=0.25 trains into build/ on three quarters of the
# photos instead and scores the pair on the quarter left out.
TRAIN_VENV := .venv-train
TRAIN_PY := $(TRAIN_VENV)/bin/python
HOLDOUT ?= 0
MODELS := $(if $(filter 0,$(HOLDOUT)),companion/vision/models,build/holdout)
train-dice:
	@test -x $(TRAIN_PY) || $(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_PY) -m pip install --quiet -e '.[train]'
	$(TRAIN_PY) -m training.dice_net --holdout $(HOLDOUT) --out $(MODELS)/dice_net.onnx
	$(TRAIN_PY) -m training.dice_faces --holdout $(HOLDOUT) --out $(MODELS)/dice_face.onnx
	@test "$(HOLDOUT)" = 0 || $(TRAIN_PY) -m training.holdout --holdout $(HOLDOUT) \
		$(MODELS)/dice_net.onnx $(MODELS)/dice_face.onnx

screenshots: $(STAMP)
	SCREENSHOT_DIR=docs/screenshots $(BIN)/pytest -q tests/web/test_browser.py -k full_round

install:
	sudo bash systemd/install.sh
