# xrbench: every target installs what it needs on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

.PHONY: setup web chromium run run-quick test test-all bench lint clean

setup: $(STAMP) web chromium

# Pinned web dependencies (xrblocks, three, iwer, ...) from package-lock.json.
web: node_modules/.installed
node_modules/.installed: package-lock.json
	@if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error && touch $@; fi

# Debian's Chromium (unless XRBENCH_CHROMIUM names one) and bubblewrap (the browser's sandbox when
# running as root), installed when missing.
chromium:
	@missing=""; \
	if [ -z "$$XRBENCH_CHROMIUM" ] && ! command -v chromium >/dev/null 2>&1; then missing="chromium"; fi; \
	if ! command -v bwrap >/dev/null 2>&1; then missing="$$missing bubblewrap"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# The CPU wheel of torch 2.13.0 first: any other version pulls a multi-GB CUDA build.
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[embeddings,dev]'
	rm -f $(VENV)/.installed-* && touch $@

run: setup
	$(VENV)/bin/xrbench run

run-quick: setup
	$(VENV)/bin/xrbench run --quick

# The representative suite (slow tests excluded). pytest exits 5 when it collects nothing: that is a failure here.
test: setup
	$(PY) -m pytest -m "not slow" -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: no tests were collected"; exit 1; fi; exit $$rc

test-all: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) benchmarks/bench_context.py
	$(PY) benchmarks/bench_xrtest.py
	$(PY) benchmarks/bench_guidance_score.py
	$(PY) benchmarks/bench_verify.py

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache runs
