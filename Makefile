# Two entry points, both set up everything they need on a fresh machine (Python 3.10+):
#   make serve   install the service into .venv and run it on port 50051, HTTP on 8080 (HOST=, PORT=,
#                HTTP_PORT= to change); make serve-web also builds and serves the web board
#   make test    install the service and its test tools into .venv-test and run every test
PYTHON ?= python3
HOST ?= 0.0.0.0
PORT ?= 50051
# The HTTP port (Connect, gRPC-Web, the web board with `make serve-web`; docs/web.md).
HTTP_PORT ?= 8080
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
	.venv/bin/tavla-engine serve --host $(HOST) --port $(PORT) --http-port $(HTTP_PORT)

test: $(TEST_TARGETS)

test-python: .venv-test/.installed
	.venv-test/bin/python -m pytest

# Benchmarks print figures; none is a test.
bench: .venv-test/.installed
	.venv-test/bin/python bench/bench_movegen.py
	.venv-test/bin/python bench/bench_bearoff.py
	.venv-test/bin/python bench/bench_dice.py
	.venv-test/bin/python bench/bench_server_memory.py
	.venv-test/bin/python bench/bench_act.py
	.venv-test/bin/python bench/bench_validate.py

# Regenerate the Python stubs from proto/ (a test checks they are fresh).
regen: .venv-test/.installed
	.venv-test/bin/python -m grpc_tools.protoc -Iproto --python_out=service --pyi_out=service \
		--grpc_python_out=service proto/tavla/v1/*.proto

clean:
	rm -rf .venv .venv-test build service/*.egg-info
