# Two entry points, both set up everything they need on a fresh machine (README: Prerequisites):
#   make serve   install the service into .venv and run it on port 50051, HTTP on 8080 (HOST=, PORT=,
#                HTTP_PORT=, METRICS_PORT= to change; METRICS_PORT=0 turns metrics off); make
#                serve-web also builds and serves the web board
#   make test    install the service and its test tools into .venv-test and run every part of the
#                tests (TEST_TARGETS), then a table of which passed; it fails if any part failed
# Dependencies come from the hashed locks requirements.lock (service) and requirements-test.lock
# (tests); `make lock` regenerates both from pyproject.toml, `make audit` checks them for
# known vulnerabilities (needs PyPI's JSON API or osv.dev); `make test-audit` does so offline
# against advisories `make audit-refresh` downloads into .cache, and is part of `make test`
# (mk/audit.mk; without advisories it warns that the locks were not audited).
PYTHON ?= python3
HOST ?= 0.0.0.0
PORT ?= 50051
# The HTTP port (Connect, gRPC-Web, the web board with `make serve-web`; docs/web.md).
HTTP_PORT ?= 8080
METRICS_PORT ?= 9090
# Servers that tests start serve no metrics unless the test gives them a port: another process
# holding 9090 (a `make serve` on the same machine) must not fail a test. Flags win over it.
export TAVLA_METRICS_PORT := 0
UV_VERSION := 0.13.9
PIP_AUDIT_VERSION := 2.10.1
# The rules core with the compiled accelerator (tavla-rules, service/pyproject.toml: docs/library.md)
# and the Python client with the generated stubs (tavla-engine-client, clients/python/pyproject.toml):
# distributions of their own that the service depends on; every venv installs all three.
RULES_DIR := service
CLIENT_DIR := clients/python
CLIENT_SRC := $(CLIENT_DIR)/src
SOURCES := pyproject.toml $(RULES_DIR)/pyproject.toml $(CLIENT_DIR)/pyproject.toml \
	$(shell find service $(CLIENT_SRC) -name '*.py' -o -name '*.pyi' -o -name '*.typed' 2>/dev/null)

.PHONY: serve test test-fast test-python test-reliability bench regen clean lock audit

# Each mk/*.mk adds its own checks to TEST_TARGETS (clients, chart, image, ...).
TEST_TARGETS := test-python
include $(wildcard mk/*.mk)

# `pip install ./service` (tavla-rules) builds the compiled accelerator when cargo is there
# (service/setup.py, setuptools-rust; pure Python with one warning when not): the same path in
# .venv, .venv-test, the image and the wheel of `make dist`. The client distribution
# (./clients/python) and the service (.), both pure Python, are installed beside it the same way;
# each with --no-deps, since a path cannot carry a hash (the rest comes from the locks). The build tools come hashed from build-requirements.txt and pip runs
# without build isolation; deploy/progress.py prints cargo's progress (about a minute from clean)
# and keeps the whole log in .cache/logs. Reinstalled only when the sources change.
PROGRESS := $(PYTHON) deploy/progress.py
INSTALL_INPUTS := pyproject.toml $(RULES_DIR)/pyproject.toml $(CLIENT_DIR)/pyproject.toml $(RULES_DIR)/setup.py \
	build-requirements.txt $(ACCEL_SOURCES)
.venv/.installed: $(SOURCES) $(INSTALL_INPUTS) requirements.lock
	test -d .venv || $(PYTHON) -m venv .venv
	@echo "installing the service's locked dependencies into .venv (requirements.lock; the first time a minute or two)"
	.venv/bin/pip install --quiet --require-hashes -r requirements.lock
	@echo "installing the build tools into .venv (build-requirements.txt)"
	.venv/bin/pip install --quiet --require-hashes -r build-requirements.txt
	@echo "installing tavla-rules, tavla-engine-client and tavla-engine into .venv (pip install ./$(RULES_DIR) ./$(CLIENT_DIR) .; the accelerator compiles on the first run)"
	@$(PROGRESS) .cache/logs/install-venv.log -- .venv/bin/pip install -v --no-build-isolation --no-deps --force-reinstall ./$(RULES_DIR) ./$(CLIENT_DIR) .
	touch $@

# Editable, all three distributions: the tests run this checkout's Python; the accelerator is built in
# place (service/tavla_accel.abi3.so, git-ignored) by the same service/setup.py.
.venv-test/.installed: $(INSTALL_INPUTS) requirements-test.lock
	test -d .venv-test || $(PYTHON) -m venv .venv-test
	@echo "installing the service's and the tests' locked dependencies into .venv-test (requirements-test.lock; the first time a few minutes)"
	.venv-test/bin/pip install --quiet --require-hashes -r requirements-test.lock
	.venv-test/bin/pip install --quiet --require-hashes -r build-requirements.txt
	@echo "installing tavla-rules, tavla-engine-client and tavla-engine into .venv-test (pip install -e ./$(RULES_DIR) -e ./$(CLIENT_DIR) -e .; the accelerator compiles on the first run)"
	@$(PROGRESS) .cache/logs/install-venv-test.log -- .venv-test/bin/pip install -v --no-build-isolation --no-deps -e ./$(RULES_DIR) -e ./$(CLIENT_DIR) -e .
	touch $@

serve: .venv/.installed
	@echo "tavla-engine: $(CURDIR)/.venv/bin/tavla-engine (the CLI: source .venv/bin/activate, or make shell)"
	.venv/bin/tavla-engine serve --host $(HOST) --port $(PORT) --http-port $(HTTP_PORT) --metrics-port $(METRICS_PORT)

# Every part runs, whatever the others gave; a table of which passed, and failure if any failed
# (deploy/run_parts.py; PARTS=test-python,test-mypy for some of them).
test:
	@$(PYTHON) deploy/run_parts.py $(MAKE) $(TEST_TARGETS)

# Four processes (pytest-xdist) by default, even on 2 cores: much of the suite waits on servers,
# subprocesses and timeouts (2 cores: 4 workers 285 s, 2 workers 494 s). Work stealing: an idle
# worker takes tests queued on a busy one, so a long test is not the run's tail.
# TEST_WORKERS=0 runs it in one process (a debugger, -x, print output in order).
TEST_WORKERS ?= 4
TEST_DIST = $(if $(filter 0,$(TEST_WORKERS)),,--dist worksteal)
test-python: .venv-test/.installed
	.venv-test/bin/python -m pytest -n $(TEST_WORKERS) $(TEST_DIST) --durations=15

# The quick loop while changing the rules or the referee (part of test-python too): the core,
# the match, the referee, IDs and player text; no clients, packaging, variants' differential
# suites or reliability, nor the tests marked slow in those folders (the gnubg and OpenSpiel
# oracle suites, replicas in processes of their own).
test-fast: .venv-test/.installed
	.venv-test/bin/python -m pytest -n $(TEST_WORKERS) $(TEST_DIST) -q -m "not slow" tests/rules tests/match tests/referee tests/ids tests/i18n

# The reliability suite alone (also part of test-python): fuzzing, soak, faults; short by default,
# TAVLA_RELIABILITY_LONG=1 for the long runs (docs/reliability.md).
test-reliability: .venv-test/.installed
	.venv-test/bin/python -m pytest tests/reliability

# uv and pip-audit, pinned, in a virtual environment of their own under .cache/tools.
LOCK_VENV := .cache/tools/lock-venv
$(LOCK_VENV)/.installed-$(UV_VERSION)-$(PIP_AUDIT_VERSION):
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/pip install --quiet uv==$(UV_VERSION) pip-audit==$(PIP_AUDIT_VERSION)
	touch $@

# Regenerate the hashed locks from pyproject.toml with uv. tavla-rules and tavla-engine-client are
# read from service/ and clients/python ([tool.uv.sources]) and left out of the locks: they are
# installed from the tree.
lock: $(LOCK_VENV)/.installed-$(UV_VERSION)-$(PIP_AUDIT_VERSION)
	$(LOCK_VENV)/bin/uv pip compile pyproject.toml --extra otel --universal --python-version 3.10 \
		--generate-hashes --no-header --no-emit-package tavla-rules --no-emit-package tavla-engine-client \
		-o requirements.lock
	$(LOCK_VENV)/bin/uv pip compile pyproject.toml --extra otel --extra test --universal \
		--python-version 3.11 --generate-hashes --no-header --no-emit-package tavla-rules \
		--no-emit-package tavla-engine-client -o requirements-test.lock

# Known vulnerabilities in the locked dependencies (OSV by default; VULN_SERVICE=pypi for PyPI's).
VULN_SERVICE ?= osv
audit: $(LOCK_VENV)/.installed-$(UV_VERSION)-$(PIP_AUDIT_VERSION)
	$(LOCK_VENV)/bin/pip-audit --vulnerability-service $(VULN_SERVICE) --disable-pip --require-hashes \
		-r requirements.lock
	$(LOCK_VENV)/bin/pip-audit --vulnerability-service $(VULN_SERVICE) --disable-pip --require-hashes \
		-r requirements-test.lock

# Benchmarks print figures; none is a test. run_all.py runs every bench/*.py and writes
# bench/RESULTS.md (mk/bench.mk: ghz, the smoke run).
bench: .venv-test/.bench-installed $(GHZ)
	GHZ=$(GHZ) .venv-test/bin/python bench/run_all.py

# Regenerate from proto/ the Python stubs, into the client distribution ($(CLIENT_SRC)/tavla/v1:
# their one copy; the service imports them from there), and the HTTP port's OpenAPI document
# (package data, served at /openapi.json: docs/web.md). A test checks both are fresh.
regen: .venv-test/.installed
	.venv-test/bin/python -m grpc_tools.protoc -Iproto --python_out=$(CLIENT_SRC) --pyi_out=$(CLIENT_SRC) \
		--grpc_python_out=$(CLIENT_SRC) proto/tavla/v1/*.proto
	.venv-test/bin/python -m tavla.server.http.openapi service/tavla/server/http/openapi.json proto

clean:
	rm -rf .venv .venv-test build dist service/*.egg-info service/tavla_accel*.so $(CLIENT_DIR)/build $(CLIENT_SRC)/*.egg-info
