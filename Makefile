# Two commands do everything: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lock run test test-fast lint typecheck unit bench clean install install-check uninstall pi-check screenshots train-dice check-dice calibrate-dice crossval-dice

# On a Raspberry Pi the venv must see apt's picamera2 and lgpio (built for the system numpy),
# as the installer's does; elsewhere it is a plain venv.
ON_PI := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo yes)
VENV_FLAGS := $(if $(ON_PI),--system-site-packages,)

# Everything is installed from a hashed lock (requirements/), so a fresh clone next month
# gets exactly what was tested: dev.lock here; on a Pi the lock of its Debian release,
# which leaves numpy to apt (picamera2 is built against it).
PI_RELEASE := $(shell . /etc/os-release 2>/dev/null && echo $$VERSION_CODENAME)
LOCK := $(if $(ON_PI),requirements/pi-$(PI_RELEASE).lock,requirements/dev.lock)

# A venv without pip is one whose making failed half-way (Debian without python3-venv
# leaves .venv/bin/python behind): made again, so `make run` works once that is installed.
$(STAMP): pyproject.toml $(LOCK)
	@test -f $(LOCK) || { echo "No lock for this system ($(LOCK)): the companion supports Raspberry Pi OS bookworm and trixie."; exit 2; }
	@$(BIN)/python -m pip --version >/dev/null 2>&1 || $(PYTHON) -m venv --clear $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# Refresh the locks from pyproject.toml with uv (itself installed from a hashed lock); commit
# the result only after `make test` passes on it.
LOCK_VENV := .venv-lock
UV := $(LOCK_VENV)/bin/uv
UV_COMPILE := $(UV) pip compile --quiet --generate-hashes
$(UV): requirements/uv.lock
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements/uv.lock
	@touch $(UV)

lock: $(UV)
	$(UV_COMPILE) --universal --python-version 3.11 --extra dev \
		pyproject.toml requirements/build.in -o requirements/dev.lock
	$(UV_COMPILE) --python-platform aarch64-unknown-linux-gnu --python-version 3.11 \
		--no-emit-package numpy -c requirements/pi-bookworm.constraints \
		pyproject.toml requirements/build.in -o requirements/pi-bookworm.lock
	$(UV_COMPILE) --python-platform aarch64-unknown-linux-gnu --python-version 3.13 \
		--no-emit-package numpy -c requirements/pi-trixie.constraints \
		pyproject.toml requirements/build.in -o requirements/pi-trixie.lock
	$(UV_COMPILE) --universal requirements/uv.in -o requirements/uv.lock

run: $(STAMP)
	$(BIN)/companion run $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# axe-core (from the npm registry) checks the page's accessibility in the browser tests.
AXE := .cache/axe/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --silent --no-audit --no-fund --prefix .cache/axe axe-core@4

# A failed test is run once more and reported as "rerun" in the summary (see pyproject.toml).
RERUN := --reruns 1 --reruns-delay 2

unit: $(STAMP) $(AXE)
	$(BIN)/pytest $(RERUN)

test: lint typecheck unit

# Everything but the tests marked slow (crash safety, many random games): for a quick check
# while working; `make test` (and CI) still runs them all.
test-fast: $(STAMP) $(AXE) lint typecheck
	$(BIN)/pytest $(RERUN) -m "not slow"

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) $(LOCK_VENV) .mypy_cache .pytest_cache .ruff_cache

# Retrain the dice networks (CPU only, seeded; ~1 h 15 min on 2 cores) into
# companion/vision/models/. The detector learns from three quarters of the photos (it
# gave fewer false dice that way than trained on all of them: 52 against 76 on the
# folder); the face classifier learns from all of them, and from the detector's own
# crops and false finds, so it must be trained after the detector.
# `make check-dice` trains the face classifier on the same three quarters into build/
# and scores the pair on the quarter nobody trained on: the honest figures.
TRAIN_VENV := .venv-train
TRAIN_PY := $(TRAIN_VENV)/bin/python
DICE_MODELS := companion/vision/models
$(TRAIN_PY):
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_PY) -m pip install --quiet -e '.[train]'

train-dice: $(TRAIN_PY)
	$(TRAIN_PY) -m training.dice_net --holdout 0.25 --out $(DICE_MODELS)/dice_net.onnx
	$(TRAIN_PY) -m training.dice_faces --widths 32,64,128 --steps 12000 --batch 64 \
		--out $(DICE_MODELS)/dice_face.onnx

check-dice: $(TRAIN_PY)
	$(TRAIN_PY) -m training.dice_faces --holdout 0.25 --widths 32,64,128 --steps 12000 \
		--batch 64 --out build/holdout/dice_face.onnx
	$(TRAIN_PY) -m training.holdout --holdout 0.25 $(DICE_MODELS)/dice_net.onnx \
		build/holdout/dice_face.onnx

# Cross-validation: every labelled photo read by a detector and a close-up classifier
# trained, with the shipped recipe, on the other three folds (fold 0 is the quarter the
# shipped detector left out, so it is reused). Seven trainings: ~2 h on 2 cores.
CROSSVAL := build/crossval
crossval-dice: $(TRAIN_PY) $(STAMP)
	mkdir -p $(CROSSVAL)/fold0 && cp $(DICE_MODELS)/dice_net.onnx $(CROSSVAL)/fold0/
	for fold in 1 2 3; do \
		$(TRAIN_PY) -m training.dice_net --fold $$fold --out $(CROSSVAL)/fold$$fold/dice_net.onnx \
		|| exit 1; done
	for fold in 0 1 2 3; do \
		$(TRAIN_PY) -m training.dice_faces --fold $$fold --widths 32,64,128 --steps 12000 \
			--batch 64 --detector $(CROSSVAL)/fold$$fold/dice_net.onnx \
			--out $(CROSSVAL)/fold$$fold/dice_face.onnx || exit 1; done
	$(BIN)/python -m training.crossval $(CROSSVAL)

# Fit the confidence's temperature and pick AUTO_ACCEPT with the shipped models (no torch,
# seconds), each on its own part of the photos (companion/vision/dice_split.py).
calibrate-dice: $(STAMP)
	$(BIN)/python -m training.calibrate_dice

screenshots: $(STAMP)
	SCREENSHOT_DIR=docs/screenshots $(BIN)/pytest -q tests/web/test_browser.py -k full_round
	SCREENSHOT_DIR=docs/screenshots $(BIN)/pytest -q tests/web/test_history_page.py -k lists_every

install:
	sudo bash systemd/install.sh

# What `make install` would do on this system, changing nothing (no root needed).
install-check:
	bash systemd/install.sh --check

uninstall:
	sudo PURGE=$(PURGE) bash systemd/uninstall.sh

# The Pi install proved on arm64 (docs/pi.md#proved-on-arm64): Debian Bookworm and Trixie
# roots built with mmdebstrap, the real installer, doctor, the page and a test subset under
# qemu-user. Needs root; about an hour the first time, not part of CI.
pi-check:
	python3 -m pi.check $(ARGS)
