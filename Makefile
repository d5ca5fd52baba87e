# Pulka: `make run` serves the site with demo data, `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run demo test lint fmt messages makemessages check-deploy test-js test-sqlite test-postgres test-browser tools bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Pulka needs Python 3.11 or newer")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check '.[dev]'
	@.ci/need-pdf $(PY)
	@touch $(STAMP)

install: $(STAMP)

# The Ukrainian and Russian catalogs are compiled here; msgfmt comes from gettext.
messages: install
	@.ci/need-command msgfmt gettext
	@DEBUG=true $(PY) manage.py compilemessages --ignore=.venv --verbosity 0

makemessages: install
	DEBUG=true $(PY) manage.py makemessages --locale uk --locale ru --ignore=.venv --ignore=bench --no-obsolete
	DEBUG=true $(PY) manage.py makemessages --domain djangojs --locale uk --locale ru --ignore=.venv \
	  --ignore=bench --ignore=static/vendor --ignore=staticfiles --ignore=tests --ignore=node_modules --no-obsolete

run: messages
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true $(PY) manage.py demo
	DEBUG=true $(PY) manage.py federation_demo
	@echo "Pulka is serving on http://$(HOST):$(PORT)/"
	DEBUG=true $(PY) manage.py runserver $(HOST):$(PORT)

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

fmt: install
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

test: lint messages check-deploy test-js test-sqlite test-postgres test-browser
	@echo "make test: every check passed"

# Django's deployment checks with production-like settings: DEBUG off, a long random key,
# real host names. Any warning fails the run.
check-deploy: install
	@echo "== manage.py check --deploy"
	DEBUG=false ALLOWED_HOSTS=pulka.example.org CSRF_TRUSTED_ORIGINS=https://pulka.example.org \
	  SECRET_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	  $(PY) manage.py check --deploy --fail-level WARNING

# The scripts' own tests (tests/js/: the offline queue, the entry form on the device) under
# Node's built-in runner, from Debian's nodejs; required in CI.
test-js:
	@if ! .ci/need-command node nodejs; then \
	  if [ "$${CI:-}" = "true" ]; then echo "Node.js is required in CI and is not available" >&2; exit 1; fi; \
	  echo "SKIPPED: the scripts' tests (Node.js is not installed: apt-get install nodejs)"; exit 0; fi; \
	echo "== the scripts' tests in Node.js"; \
	node --test tests/js/*.test.js

# nginx (tests/test_deploy_nginx.py runs deploy/nginx.conf in it), from Debian's package when
# root; required in CI.
tools:
	@.ci/need-command nginx nginx-light || { \
	  if [ "$${CI:-}" = "true" ]; then echo "nginx is required in CI and is not available" >&2; exit 1; fi; \
	  echo "(no nginx: its tests are skipped)"; }
	@.ci/need-command zbarimg zbar-tools || { \
	  if [ "$${CI:-}" = "true" ]; then echo "zbarimg is required in CI and is not available" >&2; exit 1; fi; \
	  echo "(no zbarimg: the tests that read QR codes back are skipped)"; }

test-sqlite: messages tools
	@echo "== tests on SQLite"
	$(PY) -m pytest -m "not browser" -n 2 -q -p no:playwright

# Tests that never open a database (the engine, competition's pure library, the series'
# arithmetic, the checks that read the source and the catalogs) answer the same on any:
# they run once, in the SQLite phase, and the PostgreSQL phase leaves them out.
NO_DATABASE := --ignore=tests/engine --ignore=tests/competition/lib \
  --ignore=tests/federation/test_series_core.py --ignore=tests/test_layers.py \
  --ignore=tests/test_test_imports.py --ignore=tests/test_catalogs.py \
  --ignore=tests/scoring/test_entry_form_js.py

test-postgres: messages tools
	@url=$$(.ci/postgres-url) || { \
	  if [ "$${CI:-}" = "true" ]; then echo "PostgreSQL is required in CI and is not available" >&2; exit 1; fi; \
	  echo "SKIPPED: tests on PostgreSQL (no server at 127.0.0.1:5432 and TEST_DATABASE_URL is not set)"; exit 0; }; \
	echo "== tests on PostgreSQL"; \
	DATABASE_URL="$$url" $(PY) -m pytest -m "not browser" $(NO_DATABASE) -n 2 -q -p no:playwright

test-browser: messages tools
	@if ! .ci/need-command chromium chromium; then \
	  if [ "$${CI:-}" = "true" ]; then echo "Chromium is required in CI and is not available" >&2; exit 1; fi; \
	  echo "SKIPPED: browser tests (Chromium is not installed: apt-get install chromium)"; exit 0; fi; \
	url=$$(.ci/postgres-url) || { \
	  if [ "$${CI:-}" = "true" ]; then echo "PostgreSQL is required in CI and is not available" >&2; exit 1; fi; \
	  echo "(no PostgreSQL: the browser tests use a SQLite file with WAL)"; url=; }; \
	echo "== browser tests in Chromium$${url:+ on PostgreSQL}"; \
	DATABASE_URL="$$url" DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest -m browser -q -n 2 --dist loadfile

bench: install
	$(PY) bench/engine.py
	$(PY) bench/entry.py
	$(PY) bench/tournament.py
	$(PY) bench/printouts.py
	@if url=$$(.ci/postgres-url); then $(PY) bench/league.py && $(PY) bench/files.py && \
	  TEST_DATABASE_URL="$$url" $(PY) bench/load.py && \
	  TEST_DATABASE_URL="$$url" $(PY) bench/spectators.py; \
	else echo "SKIPPED: bench/league.py, bench/files.py, bench/load.py and bench/spectators.py need PostgreSQL"; fi

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
