# Static types: `make test-mypy` runs mypy --strict over service/ and the Python client in
# clients/python/src (configuration in pyproject.toml: every module is strict; only the generated
# stubs are skipped).
TEST_TARGETS += test-mypy
.PHONY: test-mypy

test-mypy: .venv-test/.installed
	.venv-test/bin/python -m mypy
