# The compiled accelerator (service/accel: Rust, PyO3, built with maturin; docs/performance.md).
# `make test` builds it into .venv-test and tests/test_accel.py compares it with the pure-Python
# path; `make serve` builds it into .venv when a Rust toolchain is there (else serves pure Python,
# saying so). Needs rustc/cargo >= 1.85 (rustup's ~/.cargo/bin is searched too) and crates.io.
# maturin is pinned in service/accel/pyproject.toml (pip's build isolation fetches it); cargo's
# target directory is service/accel/target (gitignored), so rebuilds are incremental. The venvs are
# order-only prerequisites: reinstalling the service (its .py files changed) keeps the extension.
ACCEL_SOURCES := $(wildcard service/accel/src/*.rs) service/accel/Cargo.toml service/accel/Cargo.lock \
	service/accel/pyproject.toml service/accel/tavla_accel.pyi
ACCEL_ENV := PATH="$$HOME/.cargo/bin:$$PATH" CARGO_TARGET_DIR="$(CURDIR)/service/accel/target"
.PHONY: accel accel-test

accel: .venv/.accel-installed
accel-test: .venv-test/.accel-installed

.venv-test/.accel-installed: $(ACCEL_SOURCES) | .venv-test/.installed
	@start=$$(date +%s); $(ACCEL_ENV) .venv-test/bin/pip install --quiet --no-deps --force-reinstall ./service/accel \
		&& echo "tavla_accel built into .venv-test in $$(( $$(date +%s) - start ))s"
	.venv-test/bin/python -c "import tavla_accel"
	touch $@

# For `make serve`: optional. Without cargo, or when the build fails (an older Rust, no crates.io),
# the server runs pure Python (its startup log says so) and the next `make serve` tries again.
.venv/.accel-installed: $(ACCEL_SOURCES) | .venv/.installed
	@export PATH="$$HOME/.cargo/bin:$$PATH"; if ! command -v cargo >/dev/null; then \
		echo "make serve: no Rust toolchain (cargo): serving without the accelerator (pure Python)"; \
	elif $(ACCEL_ENV) .venv/bin/pip install --quiet --no-deps --force-reinstall ./service/accel; then \
		touch $@; \
	else \
		echo "make serve: the accelerator did not build (above; Rust >= 1.85 and crates.io needed):" \
			"serving without it (pure Python)"; \
	fi

test-python: .venv-test/.accel-installed
serve: .venv/.accel-installed
bench bench-smoke: .venv-test/.accel-installed
