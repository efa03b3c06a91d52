# Two commands for a fresh machine with python3 and make:
#   make lab    set up .venv with the notebook extras and open the course in JupyterLab
#   make test   set up .venv with the dev extras and run every test (library + notebooks)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
# JupyterLab refuses to run as root unless told; these machines (and many containers) run as root.
ROOT_FLAG := $(shell [ "$$(id -u)" = "0" ] && echo --allow-root)
LAB_ARGS ?=

.PHONY: lab test install dev bench examples clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.notebook-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[notebook]"
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[dev]"
	touch $@ $(VENV)/.notebook-installed

install: $(VENV)/.notebook-installed
dev: $(VENV)/.dev-installed

lab: $(VENV)/.notebook-installed
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks --ip=127.0.0.1 $(ROOT_FLAG) $(LAB_ARGS)

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest

examples: $(VENV)/.notebook-installed
	$(BIN)/ragmetrics-edu examples

bench: $(VENV)/.dev-installed
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info
