# The reference web board (clients/web) and its test in a real browser (docs/web.md).
#
#   make web         build the page into clients/web/dist (npm ci from the lock files, tsc, esbuild),
#                    and the API page into dist/api (Swagger UI from npm over /openapi.json)
#   make serve-web   build it and serve it with the engine: open http://localhost:8080 and play,
#                    http://localhost:8080/api/ to try the HTTP API
#   make test-web    headless Chromium (Debian's, driven by Playwright) plays whole games through
#                    the page against a live server; screenshots in $(WEB_ARTIFACTS).
#                    WEB_STATE_MODE=require make test-web: the same on signed states
#   make test-web-matches  all sixteen whole matches of a person against the computer (each level,
#                    Turkish 5 and international 7, phone and desktop); test-web plays four of them
#
# Chromium comes from apt (installed when missing, nothing else upgraded); Playwright is the
# `web-test` extra of pyproject.toml and never downloads a browser of its own.

WEB_ARTIFACTS ?= .ci/artifacts/web
TS_MODULES ?= clients/typescript/node_modules/.package-lock.json
CHROMIUM ?= /usr/bin/chromium
WEB_DIR := clients/web
WEB_DIST := $(WEB_DIR)/dist/index.html
WEB_MODULES := $(WEB_DIR)/node_modules/.package-lock.json
WEB_SOURCES := $(shell find $(WEB_DIR)/src $(WEB_DIR)/static clients/typescript/src -type f -not -path '*/gen/*' 2>/dev/null)

TEST_TARGETS += test-web
.PHONY: web serve-web test-web chromium

# TS_MODULES (clients/typescript's npm ci) is mk/clients.mk's, included before this file.
$(WEB_MODULES): $(WEB_DIR)/package-lock.json $(TS_MODULES)
	cd $(WEB_DIR) && npm ci --ignore-scripts --no-audit --no-fund
	touch $@

# The page imports @tavla-engine/client/web, so the TypeScript client is built first (from proto/).
$(WEB_DIST): $(WEB_MODULES) $(WEB_SOURCES) $(WEB_DIR)/package.json $(WEB_DIR)/tsconfig.json $(wildcard proto/tavla/v1/*.proto)
	cd clients/typescript && npm run build
	cd $(WEB_DIR) && npm run build

web: $(WEB_DIST)

serve-web: .venv/.installed $(WEB_DIST)
	.venv/bin/tavla-engine serve --host $(HOST) --port $(PORT) --http-port $(HTTP_PORT) --metrics-port $(METRICS_PORT) --web-dir $(WEB_DIR)/dist

chromium:
	@if [ -x "$(CHROMIUM)" ]; then "$(CHROMIUM)" --version 2>/dev/null | tail -n 1; else \
		apt-get install -y --no-install-recommends --no-upgrade chromium || \
		{ apt-get update && apt-get install -y --no-install-recommends --no-upgrade chromium; }; fi

.venv-test/.web-test: .venv-test/.installed pyproject.toml
	.venv-test/bin/pip install --quiet --no-build-isolation -e '.[web-test]'
	touch $@

test-web: chromium .venv-test/.web-test $(WEB_DIST)
	rm -rf $(WEB_ARTIFACTS)
	WEB_ARTIFACTS=$(abspath $(WEB_ARTIFACTS)) CHROMIUM=$(CHROMIUM) \
		.venv-test/bin/python -m pytest -p no:cacheprovider -q -n $(TEST_WORKERS) $(TEST_DIST) --durations=10 clients/web/test
	@echo "screenshots: $$(ls $(WEB_ARTIFACTS) | tr '\n' ' ')"

# test_matches_browser.py's full set (WEB_FULL_MATCHES=1), four pages at a time; screenshots in
# $(WEB_ARTIFACTS)/matches, each match's figures printed.
.PHONY: test-web-matches
test-web-matches: chromium .venv-test/.web-test $(WEB_DIST)
	rm -rf $(WEB_ARTIFACTS)/matches
	WEB_FULL_MATCHES=1 WEB_ARTIFACTS=$(abspath $(WEB_ARTIFACTS)) CHROMIUM=$(CHROMIUM) \
		.venv-test/bin/python -m pytest -p no:cacheprovider -q -s clients/web/test/test_matches_browser.py

# The page's JavaScript and CSS gzipped and its time to first interaction on a phone profile
# (bench/bench_web.py; figures in docs/web.md).
.PHONY: bench-web
bench-web: chromium .venv-test/.web-test $(WEB_DIST)
	CHROMIUM=$(CHROMIUM) .venv-test/bin/python bench/bench_web.py
