# The examples of README.md, docs/api.md and docs/match-play.md, run exactly as written
# (tests/packaging/test_readme_examples.py reads them from the pages: grpcurl, curl and
# .venv/bin/tavla-engine commands, with jq between calls, against a server it starts). grpcurl is
# pinned here and built with Go into .cache/tools, as the README's install line does.
GRPCURL_VERSION := v1.9.3
GRPCURL := .cache/tools/grpcurl-$(GRPCURL_VERSION)/grpcurl
TEST_TARGETS += test-readme
.PHONY: test-readme readme-tools grpcurl shell

$(GRPCURL):
	@mkdir -p .cache && { [ -f .cache/.gitignore ] || echo '*' > .cache/.gitignore; }
	GOBIN=$(abspath $(dir $@)) GOFLAGS=-buildvcs=false \
		go install github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)

grpcurl: $(GRPCURL)

# curl and jq come from apt when missing (nothing else upgraded), as chromium does for test-web;
# README_TOOLS_REQUIRED makes a missing tool a failure here, never a silent skip.
readme-tools:
	@for tool in curl jq; do command -v $$tool >/dev/null || \
		apt-get install -y --no-install-recommends --no-upgrade $$tool || \
		{ apt-get update && apt-get install -y --no-install-recommends --no-upgrade $$tool; }; done

test-readme: $(GRPCURL) .venv-test/.installed readme-tools
	README_TOOLS_REQUIRED=1 GRPCURL=$(abspath $(GRPCURL)) \
		.venv-test/bin/python -m pytest -p no:cacheprovider -q tests/packaging/test_readme_examples.py

# A shell with .venv/bin first on PATH: `tavla-engine ...` without its path.
shell: .venv/.installed
	@echo "tavla-engine is $(CURDIR)/.venv/bin/tavla-engine; exit the shell to leave"
	@VIRTUAL_ENV="$(CURDIR)/.venv" PATH="$(CURDIR)/.venv/bin:$$PATH" $${SHELL:-/bin/sh}
