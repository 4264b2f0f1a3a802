# Distributions: `make dist` builds dist/tavla_engine-VERSION.tar.gz (the sdist: the Python package,
# setup.py and service/accel's crate) and, from that sdist, the abi3 wheel
# dist/tavla_engine-VERSION-cp310-abi3-linux_*.whl with the compiled accelerator inside
# (TAVLA_ACCEL_BUILD=1: no wheel without it). `make test-dist` installs that wheel into a fresh
# virtual environment outside the source tree and runs the service from it
# (tests/packaging/test_wheel.py: health, one ListLegalMoves, "accelerator": "rust" logged).
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
	@ls -l dist

test-dist: dist .venv-test/.installed
	TAVLA_WHEEL="$$(ls $(CURDIR)/dist/*-abi3-*.whl)" .venv-test/bin/python -m pytest -p no:cacheprovider -q tests/packaging/test_wheel.py
