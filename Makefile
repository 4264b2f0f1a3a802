# Two entry points, both set up everything they need on a fresh machine (Python 3.10+):
#   make serve   install the service into .venv and run it on port 50051 (HOST=, PORT= to change)
#   make test    install the service and its test tools into .venv-test and run every test
PYTHON ?= python3
HOST ?= 0.0.0.0
PORT ?= 50051
SOURCES := pyproject.toml $(shell find service -name '*.py' -o -name '*.typed' 2>/dev/null)

.PHONY: serve test test-python bench regen clean

# Each mk/*.mk adds its own checks to TEST_TARGETS (clients, chart, image, ...).
TEST_TARGETS := test-python
include $(wildcard mk/*.mk)

# Reinstalled only when the sources change.
.venv/.installed: $(SOURCES)
	test -d .venv || $(PYTHON) -m venv .venv
	.venv/bin/pip install --quiet --upgrade pip
	.venv/bin/pip install --quiet .
	touch $@

.venv-test/.installed: pyproject.toml
	$(PYTHON) -m venv .venv-test
	.venv-test/bin/pip install --quiet --upgrade pip
	.venv-test/bin/pip install --quiet -e '.[test]'
	touch $@

serve: .venv/.installed
	.venv/bin/tavla-engine serve --host $(HOST) --port $(PORT)

test: $(TEST_TARGETS)

test-python: .venv-test/.installed
	.venv-test/bin/python -m pytest

# Benchmarks print figures; none is a test. run_all.py runs every bench/*.py and writes
# bench/RESULTS.md (mk/bench.mk: ghz, the smoke run).
bench: .venv-test/.bench-installed $(GHZ)
	GHZ=$(GHZ) .venv-test/bin/python bench/run_all.py

# Regenerate the Python stubs from proto/ (a test checks they are fresh).
regen: .venv-test/.installed
	.venv-test/bin/python -m grpc_tools.protoc -Iproto --python_out=service --pyi_out=service \
		--grpc_python_out=service proto/tavla/v1/*.proto

clean:
	rm -rf .venv .venv-test build service/*.egg-info
