# The course's entry points. Every target creates the environment (.venv) first if it is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# nbgrader runs `alembic` as a subprocess: the environment's bin/ must come first on PATH.
RUN := PATH="$(CURDIR)/$(BIN):$$PATH" TF_CPP_MIN_LOG_LEVEL=3 TF_ENABLE_ONEDNN_OPTS=0
AS_ROOT := $(filter 0,$(shell id -u))
# JupyterLab refuses to start as root unless told it may.
ALLOW_ROOT := $(if $(AS_ROOT),--allow-root,)
PORT ?= 8888

.PHONY: help env lab test test-fast test-colab test-lab-floor screenshots build check lint grade demo bench bench-grading browser-deps sandbox-deps colab-env lab-floor-env hub-env test-hub clean-env

help:
	@echo "make lab    - set up everything and open the course in JupyterLab (with nbgrader)"
	@echo "make test   - set up everything and run every test"
	@echo "make build  - regenerate release/, notebooks/, setup cells and the README course map from source/"
	@echo "make lint   - check the source notebooks' grade ids, points, markers and setup cells"
	@echo "make grade ASSIGNMENT=01_first_gradient - autograde every submission, then feedback and grades.csv"
	@echo "make demo   - grade a demo class (two notebooks, correct, wrong and broken submissions) into demo/"
	@echo "make bench  - time TensorFlow's import and each notebook top to bottom, graded and in full"
	@echo "make bench-grading - grade a class of 24 with stock nbgrader and with make grade: times, ratio, same scores"
	@echo "make test-colab - run the self-study edition on Colab's versions (Python 3.12, tensorflow 2.20, keras 3.13)"
	@echo "make test-lab-floor - the browser tests with the oldest JupyterLab the course allows serving them"
	@echo "make screenshots - play a first-timer's first minutes with 01 in JupyterLab: times, and the README's pictures"
	@echo "make test-hub - a class on a real JupyterHub: release, fetch, validate, submit, grade, feedback (as root)"

env: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

lab: $(STAMP)
	$(RUN) $(BIN)/jupyter lab --notebook-dir="$(CURDIR)" --port=$(PORT) $(ALLOW_ROOT)

build: $(STAMP)
	$(RUN) $(BIN)/python -m autograder build

check: $(STAMP)
	$(RUN) $(BIN)/python -m autograder build --check

lint: $(STAMP)
	$(RUN) $(BIN)/python -m autograder lint

grade: $(STAMP) sandbox-deps
	@test -n "$(ASSIGNMENT)" || { echo "usage: make grade ASSIGNMENT=01_first_gradient"; exit 2; }
	$(RUN) $(BIN)/python -m autograder grade $(ASSIGNMENT)

demo: $(STAMP) sandbox-deps
	$(RUN) $(BIN)/python -m autograder demo

bench: $(STAMP)
	$(RUN) $(BIN)/python -m autograder bench

bench-grading: $(STAMP) sandbox-deps
	$(RUN) $(BIN)/python -m autograder bench-grading

# Debian's Chromium for the browser tests (Playwright's own browser download cannot work here).
browser-deps:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "the browser tests need Debian's chromium: sudo apt-get install chromium"; exit 1; fi; }

# Debian's bubblewrap, which sandboxes the kernels that run student code.
sandbox-deps:
	@command -v bwrap >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; \
	  else echo "grading in a sandbox needs bubblewrap: sudo apt-get install bubblewrap"; exit 1; fi; }

# The test environments below are built once per requirements file and Python, in a cache outside the
# clone (a fresh clone links to it instead of installing again), under a lock so that two clones never
# build the same one at once. $(1): the link in the clone, $(2): the Python, $(3): the requirements file,
# $(4): the cache (ENV_CACHE unless given), $(5): a command run in the new environment's folder once it is built.
ENV_CACHE ?= $(HOME)/.cache/gradient-tape-course
define cached_venv
	@cache="$(or $(4),$(ENV_CACHE))"; key=$$( { cat $(3); $(2) --version; echo '$(5)'; } | sha256sum | cut -c1-16 ); \
	dir="$$cache/$(1)-$$key"; mkdir -p "$$cache" && exec 9>"$$dir.lock" && flock 9 && \
	if [ ! -e "$$dir/.installed" ]; then \
	  echo "building $(1) for $(3) in $$dir" && rm -rf "$$dir" && $(2) -m venv "$$dir" && \
	  "$$dir/bin/python" -m pip install --quiet --upgrade pip && \
	  "$$dir/bin/python" -m pip install --quiet -r $(3) && ( cd "$$dir" && true $(5) ) && touch "$$dir/.installed"; \
	fi && rm -rf $(1) && ln -s "$$dir" $(1)
endef

# Colab's versions (tests/colab/requirements.txt) on Python 3.12, without the course installed: the
# self-study edition is run there too. Skipped, with a message, where no Python 3.12 is.
COLAB_VENV := .colab-venv
# pyenv's own 3.12 before PATH's: with pyenv, python3.12 on PATH is a shim that runs only when 3.12 is selected.
COLAB_PYTHON ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12) $(shell command -v python3.12))

colab-env:
ifeq ($(COLAB_PYTHON),)
	@echo "no Python 3.12 here: the tests on Colab's versions will be skipped (pyenv install 3.12 adds it)"
else
	$(call cached_venv,$(COLAB_VENV),$(COLAB_PYTHON),tests/colab/requirements.txt)
endif

test-colab: $(STAMP) colab-env
	$(RUN) $(BIN)/python -m pytest -n 2 tests/test_colab.py

# The oldest JupyterLab the course allows (tests/lab-floor/requirements.txt) serves every browser test
# a second time, in the same session; the newest is .venv's. Without TensorFlow.
LAB_FLOOR_VENV := .lab-floor-venv

lab-floor-env:
	$(call cached_venv,$(LAB_FLOOR_VENV),$(PYTHON),tests/lab-floor/requirements.txt)

test-lab-floor: $(STAMP) browser-deps lab-floor-env
	COURSE_REQUIRE_LAB_FLOOR=1 $(RUN) $(BIN)/python -m pytest -m browser -k lab-floor

# A real JupyterHub serving the course to an instructor and two students who are system users of this
# machine (tests/test_hub.py). Its environment comes from the system's Python and lives where every user
# can read it (root's home is closed to them); configurable-http-proxy, the hub's proxy, comes from npm.
HUB_VENV := .hub-venv
HUB_PYTHON ?= /usr/bin/python3
HUB_ENV_CACHE ?= /var/cache/gradient-tape-course
PROXY_VERSION := 5.3.0

hub-env:
	@command -v npm >/dev/null || { echo "the hub's proxy comes from npm: install Node.js and npm"; exit 1; }
	$(call cached_venv,$(HUB_VENV),$(HUB_PYTHON),tests/hub/requirements.txt,$(HUB_ENV_CACHE),\
	  && npm install --silent --no-audit --no-fund --prefix proxy configurable-http-proxy@$(PROXY_VERSION) \
	  && ln -s ../proxy/node_modules/.bin/configurable-http-proxy bin/configurable-http-proxy)

test-hub: $(STAMP) browser-deps sandbox-deps hub-env
	COURSE_REQUIRE_HUB=1 $(RUN) $(BIN)/python -m pytest tests/test_hub.py

# The README's pictures come from the browser test of a first-timer's first minutes (it prints the times too).
SCREENSHOTS := lesson failed-check validate

screenshots: $(STAMP) browser-deps
	$(RUN) $(BIN)/python -m pytest -s tests/test_first_minutes.py -k lab-newest
	mkdir -p docs/images
	for shot in $(SCREENSHOTS); do cp .artifacts/first-minutes-$$shot.png docs/images/; done

# The environments are built side by side (pip waits on the disk more than on a core). Two workers:
# TensorFlow kernels need a core each. One session: the browser tests' demo class is graded once.
# As root (it creates the hub's users) the class on JupyterHub is part of it; otherwise that test says why it is skipped.
test: browser-deps sandbox-deps
	$(MAKE) --no-print-directory --jobs=4 --output-sync=target env colab-env lab-floor-env $(if $(AS_ROOT),hub-env)
	COURSE_REQUIRE_LAB_FLOOR=1 COURSE_REQUIRE_HUB=$(if $(AS_ROOT),1) $(RUN) $(BIN)/python -m pytest -n 2 --dist loadgroup --durations=15

# Everything but the notebook executions: seconds instead of minutes.
test-fast: $(STAMP)
	$(RUN) $(BIN)/python -m pytest -m "not notebooks and not browser"

clean-env:
	rm -rf $(VENV) $(COLAB_VENV) $(LAB_FLOOR_VENV) $(HUB_VENV)
