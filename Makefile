# mythzoo: `make demo` and `make test` set everything up themselves (a .venv here) and run.
# Installing is skipped while the .venv's stamp is newer than pyproject.toml and constraints.txt.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
VPY := $(VENV)/bin/python
# constraints.txt keeps pip from ever picking any torch build but the pinned one.
PIP_INSTALL := $(VPY) -m pip install --quiet --disable-pip-version-check -c constraints.txt
DEPS := pyproject.toml constraints.txt

.PHONY: demo test bench docs clean help
.DEFAULT_GOAL := help

help:
	@echo "make demo   set up .venv and run the main job (mythzoo demo)"
	@echo "make test   set up .venv with the dev extra and run every test"
	@echo "make bench  decisions/s benchmark (benchmarks/bench_envs.py; options in BENCH_ARGS=...)"
	@echo "make docs   regenerate the generated docs (docs/gen_env_docs.py)"
	@echo "make clean  remove .venv, caches and build outputs"

$(VPY):
	$(PYTHON) -m venv $(VENV)

# The project alone (what the demo and the docs need).
$(VENV)/.installed: $(DEPS) | $(VPY)
	$(PIP_INSTALL) -e .
	@touch $@

# The project with the dev extra: everything the tests and the benchmark need.
$(VENV)/.installed-dev: $(DEPS) | $(VPY)
	$(PIP_INSTALL) -e '.[dev]'
	@touch $(VENV)/.installed $@

demo: $(VENV)/.installed
	$(VPY) -m mythzoo demo

test: $(VENV)/.installed-dev
	$(VPY) -m pytest -q -n 2

bench: $(VENV)/.installed-dev
	$(VPY) benchmarks/bench_envs.py $(BENCH_ARGS)

docs: $(VENV)/.installed
	$(VPY) docs/gen_env_docs.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
