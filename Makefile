# mythzoo: `make demo` and `make test` set everything up themselves (a .venv here) and run.
# Installing is skipped while the .venv's stamp is newer than pyproject.toml and constraints.txt.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
VPY := $(VENV)/bin/python
# constraints.txt keeps pip from ever picking any torch build but the pinned one.
PIP_INSTALL := $(VPY) -m pip install --quiet --disable-pip-version-check -c constraints.txt
DEPS := pyproject.toml setup.py constraints.txt

.PHONY: demo test test-fast test-main test-stacks test-browser bench docs clean help

# Other RL stacks (RLlib, OpenSpiel, TorchRL, Tianshou, ...) pin versions that conflict with each
# other or with the main venv (ray[rllib] pins gymnasium 1.2.2), so each gets its own venv:
# tests/stacks/<stack>/requirements.txt names the tested versions, .venvs/<stack> holds them with
# mythzoo installed editable, and tests/stacks/<stack>/ runs there (never in the main venv).
STACKS := $(sort $(patsubst tests/stacks/%/requirements.txt,%,$(wildcard tests/stacks/*/requirements.txt)))
.DEFAULT_GOAL := help

help:
	@echo "make demo   set up .venv, train a small agent (quick preset), register and evaluate it"
	@echo "make test   set up .venv with the dev extra and run every test"
	@echo "make test-fast  the main venv's tests without those marked slow (pytest -m 'not slow')"
	@echo "make test-stacks  the adapter tests, each RL stack in its own venv (.venvs/<stack>)"
	@echo "make test-stack-NAME  one of them: $(STACKS)"
	@echo "make test-browser  the viewer's page in headless Chromium (installs Debian's chromium and Selenium if missing)"
	@echo "make bench  decisions/s benchmark (benchmarks/bench_envs.py; options in BENCH_ARGS=...)"
	@echo "make docs   regenerate the generated docs (docs/gen_env_docs.py)"
	@echo "make clean  remove .venv, caches and build outputs"

$(VPY):
	$(PYTHON) -m venv $(VENV)

# The project alone (what the demo and the docs need).
$(VENV)/.installed: $(DEPS) | $(VPY)
	$(PIP_INSTALL) -e .
	@touch $@

# The project with the training extra (torch, SB3, sb3-contrib) and the tools extra (registry, ratings, plots).
$(VENV)/.installed-train: $(DEPS) | $(VPY)
	$(PIP_INSTALL) -e '.[train]'
	@touch $(VENV)/.installed $@

# The project with the dev extra: everything the tests and the benchmark need.
$(VENV)/.installed-dev: $(DEPS) | $(VPY)
	$(PIP_INSTALL) -e '.[dev]'
	@touch $(VENV)/.installed $(VENV)/.installed-train $@

# The main job: train a small agent with the quick preset, register it, judge it against the baselines.
demo: $(VENV)/.installed-train
	$(VPY) -m mythzoo train mythic_baths --config mythic_baths/quick.yaml --registry registry name=demo
	$(VPY) -m mythzoo eval mythic_baths demo@latest heuristic random --games 120 --workers 2 --registry registry --json runs/demo_eval.json --plot runs/demo_eval.png
	@echo "Plot: runs/demo_eval.png   Results: runs/demo_eval.json   Checkpoint: demo@latest in ./registry"

# Every test: the main venv's suite, then each RL stack's adapter tests in that stack's venv, then
# the viewer's page in a real browser.
test: test-main test-stacks test-browser

test-main: $(VENV)/.installed-dev
	$(VPY) -m pytest -q -n 2 -m "not browser" --durations=25

# The browser tests (tests/browser/): headless Chromium and its driver from Debian's packages (apt,
# as root or through sudo; nothing downloads a browser of its own), driven by Selenium (the browser
# extra). MYTHZOO_BROWSER=required makes a missing browser a failure, not a skip.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
$(VENV)/.installed-browser: $(DEPS) | $(VENV)/.installed-dev
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver; }
	$(PIP_INSTALL) -e '.[dev,browser]'
	@touch $@

test-browser: $(VENV)/.installed-browser
	MYTHZOO_BROWSER=required $(VPY) -m pytest -q tests/browser

# A stack's venv: its pinned libraries and mythzoo (with the extras the stack's requirements name)
# in one pip call, so the stack's pins win; torch only ever the build constraints.txt allows.
# The stamp is reached only through a pattern rule, so make would delete it as an intermediate
# file after each run (and rebuild the venv every time); keep it.
.PRECIOUS: .venvs/%/.installed
.venvs/%/.installed: tests/stacks/%/requirements.txt $(DEPS)
	"$$(bash tests/stacks/python.sh $* $(PYTHON))" -m venv .venvs/$*
	.venvs/$*/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -r tests/stacks/$*/requirements.txt
	@touch $@

test-stacks: $(addprefix test-stack-,$(STACKS))

# Every stack venv together takes about 4.7 GB (ray's alone 1.9 GB, torch_stacks' 1.5 GB). Where disk
# is short (CI sets KEEP_STACK_VENVS=0), each stack's venv is removed once its tests pass, so at most
# one stands beside the main venv; a local `make test` keeps them for the next run.
KEEP_STACK_VENVS ?= 1

test-stack-%: .venvs/%/.installed
	MYTHZOO_STACK=$* .venvs/$*/bin/python -m pytest -q tests/stacks/$*
	@if [ "$(KEEP_STACK_VENVS)" = 0 ]; then rm -rf .venvs/$*; fi

# The fast tier for the edit-test loop: everything but the tests marked slow (long fuzz runs,
# the 500-game fingerprints, the wheel build, training smoke runs).
test-fast: $(VENV)/.installed-dev
	$(VPY) -m pytest -q -n 2 -m "not slow and not browser"

bench: $(VENV)/.installed-dev
	$(VPY) benchmarks/bench_envs.py $(BENCH_ARGS)

docs: $(VENV)/.installed
	$(VPY) docs/gen_env_docs.py

clean:
	rm -rf $(VENV) .venvs build dist *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
