# Shtab — two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
UV_VERSION ?= 0.13.8
HOST ?= 127.0.0.1:8000
MUTANTS_JOBS ?= 1
MUTANTS_SAMPLE ?= 0
MUTANTS_SEED ?= 1

.PHONY: run serve test worker beat bench mutants clause-mutants lint messages schema check migrate demo clean requirements

# Production's lock (requirements.txt) for what runs the service; the tests and tools' (requirements-dev.txt,
# production's versions and the rest) for what checks it. Both pinned with hashes (`make requirements`).
$(STAMP): requirements.txt
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements.txt
	touch $(STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.txt
	touch $(DEV_STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py loaddemo

## Serve on http://127.0.0.1:8000 with the demo campaign (SQLite + eager Celery unless DATABASE_URL/REDIS_URL are set).
run: demo messages
	$(PY) manage.py runserver $(HOST)

## The production server (granian serving config.wsgi, config/serve.py) on the current settings:
## SHTAB_SERVER_HOST/PORT/WORKERS/THREADS (127.0.0.1, 8000, 2, 512), waiting live requests and a connection pool.
serve: $(STAMP)
	$(PY) -m config.serve

## The whole suite (under CI=true: PostgreSQL, Redis and a real Celery worker are required).
test: $(DEV_STAMP) messages
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest $(PYTEST_ARGS)

## A real Celery worker with an embedded beat, for a laptop (needs REDIS_URL). Production runs the
## worker and beat as separate processes (`make beat`, deploy/systemd/).
worker: $(STAMP)
	$(VENV)/bin/celery -A config worker --beat -l info -Q shtab

## Celery beat alone (the sweeps), as production runs it beside workers started without --beat.
beat: $(STAMP)
	$(VENV)/bin/celery -A config beat -l info

bench: $(DEV_STAMP)
	$(PY) bench/run.py

## Mutation testing of battles/engine/ and rosters/domain.py (mutmut; not part of `make test`; hours on
## 2 cores, see docs/mutants.md). MUTANTS_ONLY="rosters.domain*" re-runs some; MUTANTS_JOBS=2 uses 2 workers;
## MUTANTS_SAMPLE=400 MUTANTS_SEED=1 runs a seeded random sample per area and reports a 95 % interval;
## MUTANTS_RERUN=1 runs that sample's survivors again (after new tests).
mutants: $(DEV_STAMP)
	$(PY) -m pip install --quiet -r requirements-mutants.txt
	$(PY) bench/mutants.py --jobs $(MUTANTS_JOBS) --sample $(MUTANTS_SAMPLE) --seed $(MUTANTS_SEED) \
		$(if $(filter 1,$(MUTANTS_RERUN)),--rerun-survivors) $(MUTANTS_ONLY)

## Clause mutants (issue 28): hand-written bugs, one per clause, of a seeded sample of 60 engine and roster rules,
## each run against the tests that cite its rule (docs/rules-audit.md; 10-30 min on 2 shared cores).
## Not part of `make test`. CLAUSE_MUTANTS_ONLY="V-MG-5 F-DIG-8" runs some rules' mutants only; MUTANTS_JOBS=2
## uses two workers.
clause-mutants: $(DEV_STAMP)
	nice -n 10 $(PY) bench/clause_mutants.py --jobs $(MUTANTS_JOBS) $(if $(CLAUSE_MUTANTS_ONLY),--only $(CLAUSE_MUTANTS_ONLY))

## ruff, and the import contracts in .importlinter (lint-imports: the engine and the roster rules are pure).
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

## Compile translations (the compiled .mo files are committed, so gettext is optional).
messages: $(STAMP)
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --ignore=.venv -v 0; \
	else echo "msgfmt not found: using the committed .mo files"; fi

## Regenerate docs/openapi.yaml (a test fails when it is stale).
schema: $(STAMP)
	$(PY) manage.py spectacular --file docs/openapi.yaml --validate

## Regenerate both locks with hashes from requirements.in and requirements-dev.in (uv, for every platform,
## Python >= 3.11), keeping every version already locked; UPGRADE=1 moves the unpinned ones to their newest.
requirements: $(STAMP)
	$(PY) -m pip install --quiet uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile requirements.in --generate-hashes --universal --python-version 3.11 \
		--custom-compile-command "make requirements" --quiet -o requirements.txt $(if $(UPGRADE),--upgrade)
	$(VENV)/bin/uv pip compile requirements-dev.in --generate-hashes --universal --python-version 3.11 \
		--custom-compile-command "make requirements" --quiet -o requirements-dev.txt $(if $(UPGRADE),--upgrade)

clean:
	rm -rf $(VENV) db.sqlite3 test.sqlite3 .mutants
