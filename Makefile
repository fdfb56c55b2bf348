# Two commands do all the set-up on a fresh clone: `make serve` and `make test`.
SHELL := /bin/bash
# Material 9.8 prints a banner on every `mkdocs` run (its end of life, and its successor);
# the README covers what that means here.
export NO_MKDOCS_2_WARNING := 1
# Reproducible builds: MkDocs dates the sitemap from SOURCE_DATE_EPOCH. Unless the caller
# sets it, take the last commit's date; without git, the newest source file's.
ifeq ($(origin SOURCE_DATE_EPOCH),undefined)
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || \
	find content mkdocs.yml -type f -printf '%T@\n' 2>/dev/null | sort -n | tail -1 | cut -d. -f1)
endif
export SOURCE_DATE_EPOCH
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed
# Node.js ≥ 22 for every command below: the machine's, else Node 24 that .ci/node installs
# from the npm registry into build/node/ (whose bin/ holds a `node` only then).
export PATH := $(CURDIR)/build/node/bin:$(PATH)

.PHONY: serve site test lint bench clean node

# The environment, made once: a change of the pins installs into it, not a new one.
$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The package's version is read from its code: installed again when it changes.
$(STAMP): requirements.txt pyproject.toml generator/regles/__init__.py | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	# What setuptools leaves beside the package (its metadata, this README inside): not
	# the package's, and the installed metadata is in the venv.
	rm -rf generator/regles.egg-info
	touch $@

$(NPM_STAMP): package.json package-lock.json | node
	npm ci --no-audit --no-fund
	touch $@

# Checked at each command (a fraction of a second): the machine's Node may change.
node:
	@bash .ci/node >/dev/null

deps: node $(STAMP) $(NPM_STAMP)

site: deps
	$(VENV)/bin/mkdocs build --strict

# mkdocs serve rebuilds on every edit of the site (its pages, mkdocs.yml, its rules package,
# which the build imports anew) and of the generator's theme: a page whose text alone changed
# is rebuilt alone (the plugin's builder, generator/regles/serve.py), anything else in full.
# An edit of the generator's Python code restarts it, since code already loaded would stay
# as it was.
serve: deps
	$(VENV)/bin/watchmedo auto-restart --directory generator \
		--patterns '**/*.py' --recursive --debounce-interval 1 --kill-after 5 -- \
		$(VENV)/bin/mkdocs serve --strict --dev-addr 127.0.0.1:8000 --watch generator/regles/theme

lint: deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	node_modules/.bin/eslint generator/regles/theme

# Two processes (pytest-xdist), each file's tests in one of them: most browser tests wait on
# the page more than they work, and the machine has two cores.
test: deps
	$(PY) -m pytest -n 2 --dist loadfile

# Lighthouse, pinned in bench/package.json, installed apart from the site's own npm packages.
BENCH_NPM_STAMP := bench/node_modules/.installed
$(BENCH_NPM_STAMP): bench/package.json bench/package-lock.json | node
	npm ci --prefix bench --no-audit --no-fund
	touch $@

# Then the big games, each size with its own time budget: BENCH_SIZES=s1,s3,s10,s30 to choose
# them (s30 alone takes some 20 minutes), BENCH_ARGS=--tailles-seules for them alone,
# BENCH_ARGS="--profil s10" for cProfile's top lines of a warm build of one (bench/cli.py).
bench: deps $(BENCH_NPM_STAMP)
	$(PY) -m bench $(BENCH_ARGS)

clean:
	rm -rf site build
