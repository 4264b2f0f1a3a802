# Static types: `make test-mypy` runs mypy --strict over service/ (configuration in
# pyproject.toml: the generated stubs and the modules listed there as not yet strict are skipped).
TEST_TARGETS += test-mypy
.PHONY: test-mypy

test-mypy: .venv-test/.installed
	.venv-test/bin/python -m mypy
