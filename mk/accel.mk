# The compiled accelerator (service/accel: Rust, PyO3, abi3; docs/performance.md), part of the rules
# distribution (tavla-rules, service/pyproject.toml). `pip install ./service` builds it:
# service/setup.py hands it to setuptools-rust when cargo is found (PATH or rustup's
# ~/.cargo/bin) and installs pure Python with one warning when not, or when the build fails (an
# older Rust than 1.85, no crates.io). So .venv (`make serve`) and .venv-test (`make test`, where
# tests/accel/test_accel.py compares it with the pure-Python path) get it from their install (Makefile);
# cargo's target directory is service/accel/target (git-ignored), so rebuilds are incremental.
ACCEL_SOURCES := $(wildcard service/accel/src/*.rs) service/accel/Cargo.toml service/accel/Cargo.lock \
	service/accel/tavla_accel.pyi
.PHONY: accel accel-test

# Aliases kept for habit: the install builds it.
accel: .venv/.installed
accel-test: .venv-test/.installed
