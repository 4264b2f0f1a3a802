# Distributions: `make dist` builds dist/tavla_engine-VERSION.tar.gz (the sdist: the Python package,
# setup.py and service/accel's crate) and, from that sdist, the abi3 wheel
# dist/tavla_engine-VERSION-cp310-abi3-linux_*.whl with the compiled accelerator inside
# (TAVLA_ACCEL_BUILD=1: no wheel without it); then the client distribution the service requires
# (clients/python): dist/tavla_engine_client-VERSION.tar.gz and its pure-Python wheel
# dist/tavla_engine_client-VERSION-py3-none-any.whl. `make test-dist` installs both wheels into a
# fresh virtual environment outside the source tree and runs the service from it
# (tests/packaging/test_wheel.py: health, one ListLegalMoves, "accelerator": "rust" logged), and
# the client's wheel alone into another (tests/clients/test_client_dist.py: none of the server's
# dependencies, calls to a live server).
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
	@echo "make dist: sdist, then the abi3 wheel from it (compiles the accelerator from clean: about a minute)"
	@TAVLA_ACCEL_BUILD=1 CARGO_TARGET_DIR=$(CURDIR)/service/accel/target $(PROGRESS) .cache/logs/dist.log -- $(BUILD_VENV)/bin/python -m build --no-isolation --outdir dist .
	$(BUILD_VENV)/bin/python -m build --no-isolation --outdir dist $(CLIENT_DIR)
	@ls -l dist

test-dist: dist .venv-test/.installed
	TAVLA_WHEEL="$$(ls $(CURDIR)/dist/tavla_engine-*-abi3-*.whl)" \
	TAVLA_CLIENT_WHEEL="$$(ls $(CURDIR)/dist/tavla_engine_client-*-py3-none-any.whl)" \
		.venv-test/bin/python -m pytest -p no:cacheprovider -q tests/packaging/test_wheel.py tests/clients/test_client_dist.py
