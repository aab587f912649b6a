# One command to run the service, one to run every test; both set everything up first.
VENV   ?= .venv
# The interpreter the venv is made from. Debian's own CPython (/usr/bin/python3) is built with
# profile-guided and link-time optimisation and links libpython statically; pyenv's default
# build (what `python3` is on our machines) has neither and runs this service's code about 20-25 %
# slower (measured in the commit that chose it). So Debian's comes first when it is 3.11 or newer and can make a venv;
# anywhere else, the python3 on PATH. `make setup PYTHON=...` chooses another.
PYTHON ?= $(shell /usr/bin/python3 -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && echo /usr/bin/python3 || echo python3)
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: setup native browser contract nginx run stack test lint lint-js lock upgrade-check bench check-books clean

setup: $(VENV)/.installed

# Exactly the versions of requirements-lock.txt, each checked against its hash, then this
# package on top without resolving anything again; pip check fails when the lock is missing
# something pyproject.toml asks for (run `make lock` after changing the dependencies).
$(VENV)/.installed: pyproject.toml requirements-lock.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements-lock.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m pip check
	touch $@

# Rewrites requirements-lock.txt from pyproject.toml with uv, for every platform, with hashes.
# Pins that still fit pyproject.toml are kept; `make lock LOCK_FLAGS=--upgrade` moves every pin
# to the newest release the bounds allow. Then `make setup` installs the new lock.
LOCK_FLAGS ?=
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv>=0.13'
	$(VENV)/bin/uv pip compile pyproject.toml --extra test --generate-hashes --universal --python-version 3.11 \
		--custom-compile-command 'make lock' $(LOCK_FLAGS) --quiet -o requirements-lock.txt

# The newest release of every dependency, our upper bounds ignored, in a venv of its own; then
# the compat tests (the internals we rely on, tests/compat) and the whole suite. Run it on a
# schedule, and before raising a bound in pyproject.toml. It prints what differs from the lock.
# UPGRADE_TESTS narrows the second run (e.g. UPGRADE_TESTS=tests/web).
UPGRADE_VENV ?= .venv-upgrade
UPGRADE_TESTS ?=
UPGRADE_PY   := $(UPGRADE_VENV)/bin/python
NEWEST_NAMES := import re, tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; \
	print("\n".join(re.split(r"[<>=!~;\s]", d, maxsplit=1)[0] for d in p["dependencies"] + p["optional-dependencies"]["test"]))
upgrade-check: native browser
	rm -rf $(UPGRADE_VENV)
	$(PYTHON) -m venv $(UPGRADE_VENV)
	$(UPGRADE_PY) -m pip install --quiet --upgrade pip
	$(UPGRADE_PY) -m pip install --quiet --no-deps -e .
	$(UPGRADE_PY) -c '$(NEWEST_NAMES)' > $(UPGRADE_VENV)/newest.txt
	$(UPGRADE_PY) -m pip install --quiet --upgrade --upgrade-strategy eager -r $(UPGRADE_VENV)/newest.txt
	@echo "Locked (<) and newest (>) where they differ:"
	@grep -oE '^[A-Za-z0-9_.-]+==[^ ;]+' requirements-lock.txt | tr 'A-Z_' 'a-z-' | sort > $(UPGRADE_VENV)/locked.txt
	@$(UPGRADE_PY) -m pip freeze --exclude-editable | tr 'A-Z_' 'a-z-' | sort > $(UPGRADE_VENV)/installed.txt
	@diff $(UPGRADE_VENV)/locked.txt $(UPGRADE_VENV)/installed.txt | grep '^[<>]' || echo "  (none)"
	$(UPGRADE_PY) -m pytest -q tests/compat
	$(UPGRADE_PY) -m pytest -q $(UPGRADE_TESTS)

# WeasyPrint subsets fonts with HarfBuzz's subset library (Debian package libharfbuzz-subset0);
# without it WeasyPrint warns on import and embeds whole fonts.
native:
	ldconfig -p | grep -q libharfbuzz-subset || (apt-get update && apt-get install -y --no-install-recommends libharfbuzz-subset0)

# Bytecode is compiled first: where PYTHONDONTWRITEBYTECODE is set (as on our machines), Python
# would otherwise compile the whole package from source at every start (about 0.2 s).
run: setup native
	$(PY) -m compileall -q listbuilder wsgi.py
	$(VENV)/bin/gunicorn --config python:listbuilder.web.serving --bind $(HOST):$(PORT) wsgi:app

# The browser tests drive Debian's chromium (not a Playwright download); CI runs as root.
# axe-core (accessibility checks in the browser tests) comes from the npm registry, pinned by
# tests/browser/a11y/package-lock.json (installed again when the lock pins another version).
AXE_CURRENT = node -e 'const a = "./node_modules/axe-core/package.json"; process.exit(require(a).version === require("./package-lock.json").packages["node_modules/axe-core"].version ? 0 : 1)'
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)
	command -v npm >/dev/null || (apt-get update && apt-get install -y --no-install-recommends nodejs npm)
	cd tests/browser/a11y && ($(AXE_CURRENT) 2>/dev/null || npm ci --no-audit --no-fund)

# The API's contract from a second language (tests/contract): ajv checks every JSON answer of the
# API tests against the document (tests/answer_schemas.py); openapi-typescript, @hey-api/openapi-ts, typescript and
# redocly for the TypeScript client test. Pinned by tests/contract/package-lock.json, installed
# again when the lock pins other versions.
CONTRACT_CURRENT = node -e 'const lock = require("./package-lock.json").packages; \
	for (const name of Object.keys(lock[""].dependencies)) \
	if (require(`./node_modules/$${name}/package.json`).version !== lock[`node_modules/$${name}`].version) process.exit(1)'
contract:
	command -v npm >/dev/null || (apt-get update && apt-get install -y --no-install-recommends nodejs npm)
	cd tests/contract && ($(CONTRACT_CURRENT) 2>/dev/null || npm ci --no-audit --no-fund)

# The production stack's proxy (deploy/): Debian's nginx, run by `make stack` and the stack
# tests (tests/deploy) as the current user, never as the system's service. Beside it, Debian's
# brotli filter when apt can install it (deploy/render.py turns brotli on only where its module
# file exists, so nginx without it still runs, with gzip alone).
BROTLI_MODULE := /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so
nginx:
	command -v nginx >/dev/null || test -x /usr/sbin/nginx || (apt-get update && apt-get install -y --no-install-recommends nginx)
	test -e $(BROTLI_MODULE) || (apt-get update && apt-get install -y --no-install-recommends libnginx-mod-http-brotli-filter) \
		|| echo "make nginx: no brotli module (gzip only)"

# The whole production stack on this machine, in the foreground (docs/deploy.md): nginx on
# $(PORT), two gunicorn instances on free loopback ports, $$DATABASE_URL and $$REDIS_URL when set.
# Ctrl-C stops all of it.
stack: setup native nginx
	$(PY) -m compileall -q listbuilder wsgi.py
	$(PY) -m deploy.stack --host $(HOST) --port $(PORT)

test: setup native browser contract nginx lint
	$(VENV)/bin/python -m pytest -q

# ruff's lint rules on everything, and mypy on the pure core (model, validation, issue data, dice,
# the Family records, systems, combat, the tournament day, util): strict, settings in pyproject.toml.
CORE := -p listbuilder.model -p listbuilder.validation -p listbuilder.issue_data -p listbuilder.dice -p listbuilder.families \
	-p listbuilder.systems -p listbuilder.combat -p listbuilder.tournament -p listbuilder.util
lint: setup lint-js
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy $(CORE)

# The front end (static/js, plain ES modules): ESLint's recommended rules (eslint.config.js),
# tsc --checkJs in strict mode (tsconfig.json) and tools/js-check.mjs (no module over 400
# lines, no import cycle, JSDoc on every exported function). eslint, @eslint/js, globals and
# typescript are pinned by package-lock.json, installed again when it pins other versions.
JS_CURRENT = node -e 'const lock = require("./package-lock.json").packages; \
	for (const name of Object.keys(lock[""].devDependencies)) \
	if (require(`./node_modules/$${name}/package.json`).version !== lock[`node_modules/$${name}`].version) process.exit(1)'
lint-js:
	command -v npm >/dev/null || (apt-get update && apt-get install -y --no-install-recommends nodejs npm)
	$(JS_CURRENT) 2>/dev/null || npm ci --no-audit --no-fund
	npx eslint static/js tools eslint.config.js
	npx tsc -p tsconfig.json
	node tools/js-check.mjs

# Lighthouse (benchmarks/lighthouse.py) comes from the npm registry, pinned by
# benchmarks/lighthouse/package-lock.json (installed again when the lock pins another version),
# and runs Debian's chromium (make browser).
LIGHTHOUSE_CURRENT = node -e 'const a = "./node_modules/lighthouse/package.json"; process.exit(require(a).version === require("./package-lock.json").packages["node_modules/lighthouse"].version ? 0 : 1)'
bench: setup browser
	command -v wrk >/dev/null || (apt-get update && apt-get install -y --no-install-recommends wrk)
	cd benchmarks/lighthouse && ($(LIGHTHOUSE_CURRENT) 2>/dev/null || npm ci --no-audit --no-fund)
	$(PY) benchmarks/run.py
	$(PY) benchmarks/server.py
	$(PY) benchmarks/combat.py
	$(PY) benchmarks/pdf.py
	$(PY) benchmarks/store.py
	$(PY) benchmarks/importer.py
	$(PY) benchmarks/events.py
	$(PY) benchmarks/scale.py
	$(PY) benchmarks/tournament.py
	$(PY) benchmarks/event_day.py
	$(PY) benchmarks/event_day.py --stack
	$(PY) benchmarks/lighthouse.py

check-books: setup
	$(VENV)/bin/listbuilder check-books

clean:
	rm -rf $(VENV) $(UPGRADE_VENV) .pytest_cache .mypy_cache .ruff_cache
