# Benchmarks (bench/, docs/performance.md): `make bench` runs every one and writes
# bench/RESULTS.md (minutes); `make bench-smoke` runs them on tiny sets in seconds and writes
# .cache/bench-smoke.md. make test runs the smoke: it checks the benchmarks still run, never speed.
# ghz (the gRPC load generator) is built from the Go module proxy into .cache.
GHZ_VERSION := v0.121.0
GHZ := .cache/bench/ghz-$(GHZ_VERSION)

TEST_TARGETS += bench-smoke
.PHONY: bench-smoke ghz

ghz: $(GHZ)

$(GHZ):
	mkdir -p .cache/bench/gobin
	[ -f .cache/.gitignore ] || printf '*\n' > .cache/.gitignore
	GOBIN=$(CURDIR)/.cache/bench/gobin go install github.com/bojand/ghz/cmd/ghz@$(GHZ_VERSION)
	mv .cache/bench/gobin/ghz $@

# py-spy for the profile summaries (the bench extra)
.venv-test/.bench-installed: .venv-test/.installed
	.venv-test/bin/pip install --quiet --no-build-isolation -e '.[bench]'  # the hashed build tools of .venv-test
	touch $@

bench-smoke: .venv-test/.bench-installed $(GHZ)
	GHZ=$(GHZ) .venv-test/bin/python bench/run_all.py --smoke
