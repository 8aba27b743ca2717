# The two commands: `make run` (demo site on http://127.0.0.1:8000) and `make test` (the whole suite).
# Both work on a fresh machine with Python 3.11+ and make: SQLite and eager Celery are the defaults.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# A development machine: DEBUG on unless the caller says otherwise (production never uses this file).
export DEBUG ?= 1

.PHONY: run test lint format venv migrate seed messages worker beat clean

$(STAMP): requirements.txt requirements-dev.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

venv: $(STAMP)

migrate: venv
	$(BIN)/python manage.py migrate --noinput

seed: migrate
	$(BIN)/python manage.py seed_demo

run: seed
	@echo ""
	@echo "  The demo site is starting on http://127.0.0.1:8000  (log in as admin/admin; Ctrl+C stops it)"
	@echo ""
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Rebuild the translation catalogues after changing texts (needs GNU gettext; compiled .mo files are committed).
messages: venv
	$(BIN)/python manage.py makemessages -l da -l hr --ignore=.venv --ignore=staticfiles --ignore=tests
	$(BIN)/python manage.py compilemessages --ignore=.venv

worker: venv
	$(BIN)/celery -A config worker --loglevel=INFO

beat: venv
	$(BIN)/celery -A config beat --loglevel=INFO

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
