# Db2 Performance, Retraced. `make book` builds the site; `make test` passes the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
VOILA_PORT ?= 8866
VOILA_IP ?= 127.0.0.1
export JUPYTER_CONFIG_DIR := $(CURDIR)/dashboards/jupyter-config
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: venv node book book-fast pdf serve voila test test-fast lint bench chromium lock clean classroom

## venv: create .venv (when absent) and install the pinned runtime, test and classroom dependencies
venv: $(STAMP)
$(STAMP): requirements.txt requirements-test.txt requirements-classroom.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -r requirements-test.txt -r requirements-classroom.txt
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

## node: the Node tools the tests use (axe-core, configurable-http-proxy), exactly as package-lock.json pins them
node: node_modules/.installed
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch node_modules/.installed

## book: build the whole site strictly (warnings are errors) into _build/html; every page is read again, and
## notebooks run unless the execution cache holds them for exactly this code, data and packages (book/_ext/exec_cache.py)
JOBS ?= 2
book: venv node
	DB2BOOK_BUILD=1 $(BIN)/python -m tools.execute --jobs $(JOBS)
	DB2BOOK_BUILD=1 $(BIN)/jupyter-book build --all -W -n --keep-going .

## book-fast: for authors, after editing pages: reads only the pages changed since the last build (as strictly)
book-fast: venv node
	DB2BOOK_BUILD=1 $(BIN)/jupyter-book build -W -n --keep-going .

## pdf: the print edition, _build/pdf/db2-performance-retraced.pdf, made from the built site in Chromium
## (tools/pdf.py); a copy goes to the site's root, and the root page is rebuilt to link it
pdf: book chromium
	$(BIN)/python -m tools.pdf
	DB2BOOK_BUILD=1 $(BIN)/jupyter-book build -W -n --keep-going .

## serve: serve the built site on http://127.0.0.1:$(PORT) as a static host does: HTML, CSS and scripts sent
## compressed (the .br/.gz copies the build writes beside them; tools/serve.py)
serve:
	$(BIN)/python -m tools.serve --bind 127.0.0.1 --directory _build/html $(PORT)

## voila: the chapter dashboards on http://127.0.0.1:$(VOILA_PORT); for a class, one dashboard with a kernel
## pool sized for it: make voila NOTEBOOK=large_memory.ipynb CLASS=30 (kernels share one SVG cache and one
## chart engine; two spare kernels for late arrivals; the pool refills after the class settles: classroom/voila_pool.py).
## VOILA_IP=0.0.0.0 lets the students' laptops reach it over the room's network.
NOTEBOOK ?=
CLASS ?= 1
voila: venv
	PYTHONPATH=$(CURDIR) DB2BOOK_SVG_CACHE="$${DB2BOOK_SVG_CACHE:-$(CURDIR)/_build/svg-cache}" $(BIN)/voila dashboards/$(NOTEBOOK) \
	  --no-browser --port=$(VOILA_PORT) --Voila.ip=$(VOILA_IP) --VoilaConfiguration.default_pool_size=$$(( $(CLASS) > 1 ? $(CLASS) + 2 : 1 )) \
	  --VoilaConfiguration.multi_kernel_manager_class=classroom.voila_pool.ClassKernelManager

## classroom: the nbgrader course in _build/classroom (one assignment per chapter, seeded per student)
classroom: venv
	$(BIN)/python -m classroom.course

## chromium: Debian's Chromium for the browser tests (installed when absent)
chromium:
	@command -v chromium >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

## lint: ruff over the whole tree (rules in pyproject.toml) and the dead-code check (tools/deadcode.py,
## vulture with the short allow-list tools/vulture_allow.py)
lint: venv
	$(BIN)/python -m ruff check .
	$(BIN)/python -m tools.deadcode

## test: lint, build the book strictly, then every test (models, data, notebooks, browser, Voila)
test: lint book chromium node
	$(BIN)/python -m pytest -q

## test-fast: the tests that need no built site, browser or server
test-fast: venv
	$(BIN)/python -m pytest -q -m "not browser and not voila and not slow"

## bench: build times, page weight, redraw and Voila latency, model speed, Lighthouse on a phone (table; JSON in
## bench/results/)
bench: book chromium node
	$(BIN)/python bench/run.py

## lock: regenerate requirements.txt (the exact lock) from requirements.in in a scratch venv
lock:
	rm -rf /tmp/db2book-lock && $(PYTHON) -m venv /tmp/db2book-lock
	/tmp/db2book-lock/bin/pip install --quiet -r requirements.in
	{ echo "# Exact lock of the book's runtime (build, live notebooks, Voila). Binder builds from this file."; \
	  echo "# Generated from requirements.in by 'make lock'; do not edit by hand."; \
	  /tmp/db2book-lock/bin/pip freeze; echo "-e ."; } > requirements.txt

clean:
	rm -rf _build
