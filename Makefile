# One command to run the service, one to run every test; both set everything up first.
VENV   ?= .venv
# The interpreter the venv is made from. Debian's own CPython (/usr/bin/python3) is built with
# profile-guided and link-time optimisation and links libpython statically; pyenv's default
# build (what `python3` is on our machines) has neither and runs this service's code about 20-25 %
# slower (README, Speed). So Debian's comes first when it is 3.11 or newer and can make a venv;
# anywhere else, the python3 on PATH. `make setup PYTHON=...` chooses another.
PYTHON ?= $(shell /usr/bin/python3 -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && echo /usr/bin/python3 || echo python3)
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: setup native browser run test bench check-books clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

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
# tests/browser/a11y/package-lock.json.
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)
	command -v npm >/dev/null || (apt-get update && apt-get install -y --no-install-recommends nodejs npm)
	test -f tests/browser/a11y/node_modules/axe-core/axe.min.js || (cd tests/browser/a11y && npm ci --no-audit --no-fund)

test: setup native browser
	$(VENV)/bin/python -m pytest -q

bench: setup
	command -v wrk >/dev/null || (apt-get update && apt-get install -y --no-install-recommends wrk)
	$(PY) benchmarks/run.py
	$(PY) benchmarks/server.py
	$(PY) benchmarks/combat.py
	$(PY) benchmarks/pdf.py
	$(PY) benchmarks/store.py
	$(PY) benchmarks/importer.py
	$(PY) benchmarks/events.py
	$(PY) benchmarks/scale.py
	$(PY) benchmarks/tournament.py

check-books: setup
	$(VENV)/bin/listbuilder check-books

clean:
	rm -rf $(VENV) .pytest_cache
