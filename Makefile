# Encoding Triage. Two commands: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: run test lint bench tables clean

$(PY):
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"' || exit 1
	@$(PYTHON) -m venv $(VENV) || { echo "Cannot create a virtualenv: on Debian, run 'apt-get install python3-venv'"; exit 1; }

$(VENV)/.run-deps: requirements.txt | $(PY)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	@touch $@

$(VENV)/.test-deps: requirements-dev.txt $(VENV)/.run-deps
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	@touch $@

# The compiled parts (encoding_core/*/*.pyx), built in place; where no C
# compiler or Python headers are found, the pure-Python implementation is used (make goes on).
$(VENV)/.speedups: requirements-build.txt setup.py $(wildcard encoding_core/*/*.pyx encoding_core/*.pxd) | $(VENV)/.run-deps
	@$(PY) -m pip install -q --disable-pip-version-check -r requirements-build.txt \
		&& $(PY) setup.py -q build_ext --inplace \
		|| echo "The compiled parts were not built: their pure-Python references are used."
	@$(PY) -m encoding_core --version || true
	@touch $@

## run: install what the app needs and start it on http://127.0.0.1:$(PORT)
run: $(VENV)/.run-deps $(VENV)/.speedups
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

## lint: ruff over everything, mypy --strict over encoding_core and the app (app.py, app_pages, ui), the import contract
lint: $(VENV)/.test-deps
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache

## test: lint, then every test (browser tests when Chromium is present), then the core's tests
## (tests/whatwg, tests/decision) a second time with the pure-Python references forced
## (ENCODING_TRIAGE_PURE=1), always: the same tests again where no compiler built the scans
test: lint $(VENV)/.speedups
	$(PY) -m pytest
	ENCODING_TRIAGE_PURE=1 $(PY) -m pytest -q tests/whatwg tests/decision

## bench: peers side by side, as ratios (BENCH_ARGS=--quick for a short run; add --load for the load test)
bench: $(VENV)/.test-deps
	$(PY) bench/run.py $(BENCH_ARGS)

## tables: regenerate encoding_core/whatwg/_tables from conformance/ (never edit them by hand)
tables: $(VENV)/.run-deps
	$(PY) scripts/gen_tables.py
	$(PY) scripts/gen_index_tables.py
	$(PY) scripts/gen_confusables.py
	$(PY) scripts/make_samples.py

clean:
	rm -rf encoding_core/*/*.so $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache artifacts bench/out dist build
