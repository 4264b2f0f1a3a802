# Distributions: `make dist` builds, into dist/, three sdists and their wheels: the rules
# (service/: tavla_rules-VERSION.tar.gz and, from it, the abi3 wheel
# tavla_rules-VERSION-cp310-abi3-linux_*.whl with the compiled accelerator inside;
# TAVLA_ACCEL_BUILD=1: no wheel without it), the service that requires it
# (tavla_engine-VERSION.tar.gz, tavla_engine-VERSION-py3-none-any.whl) and the client distribution
# the service requires (clients/python: tavla_engine_client-VERSION.tar.gz and its pure-Python
# wheel). `make test-dist` installs the three wheels into a fresh virtual environment outside the
# source tree and runs the service from it (tests/packaging/test_wheel.py: health, one
# ListLegalMoves, "accelerator": "rust" logged), the rules wheel alone into another, offline, and
# runs docs/library.md's example there (tests/packaging/test_rules_dist.py: no grpc, protobuf or
# numpy), and the client's wheel alone into a third (tests/clients/test_client_dist.py: none of
# the server's dependencies, calls to a live server).
BUILD_VENV := .cache/tools/build-venv
TEST_TARGETS += test-dist
.PHONY: dist test-dist

$(BUILD_VENV)/.installed: build-requirements.txt
	rm -rf $(BUILD_VENV)
	$(PYTHON) -m venv $(BUILD_VENV)
	$(BUILD_VENV)/bin/pip install --quiet --require-hashes -r build-requirements.txt
	touch $@

dist: $(BUILD_VENV)/.installed
	rm -rf dist
	@echo "make dist: the rules' sdist, then the abi3 wheel from it (compiles the accelerator from clean: about a minute)"
	@TAVLA_ACCEL_BUILD=1 CARGO_TARGET_DIR=$(CURDIR)/service/accel/target $(PROGRESS) .cache/logs/dist.log -- $(BUILD_VENV)/bin/python -m build --no-isolation --outdir dist $(RULES_DIR)
	$(BUILD_VENV)/bin/python -m build --no-isolation --outdir dist .
	$(BUILD_VENV)/bin/python -m build --no-isolation --outdir dist $(CLIENT_DIR)
	@ls -l dist

test-dist: dist .venv-test/.installed
	TAVLA_RULES_WHEEL="$$(ls $(CURDIR)/dist/tavla_rules-*-abi3-*.whl)" \
	TAVLA_WHEEL="$$(ls $(CURDIR)/dist/tavla_engine-*-py3-none-any.whl)" \
	TAVLA_CLIENT_WHEEL="$$(ls $(CURDIR)/dist/tavla_engine_client-*-py3-none-any.whl)" \
		.venv-test/bin/python -m pytest -p no:cacheprovider -q tests/packaging/test_wheel.py \
		tests/packaging/test_rules_dist.py tests/clients/test_client_dist.py
