# Clients: buf lint/breaking, generated-code freshness, and the Go, TypeScript and Java clients
# tested live (docs/clients.md). The Python client (clients/python: tavla.client) is tested by pytest.
#
#   make regen-clients     regenerate the committed Go code from proto/ (buf.gen.yaml); the
#                          TypeScript and Java builds generate their own, uncommitted
#   make test-proto        buf lint, buf breaking against BUF_AGAINST (the 1.0 baseline), generated
#                          code is fresh
#   make proto-baseline    rebuild the buf breaking baseline from proto/ (only on purpose: a new
#                          major version; CHANGELOG.md says when it was last reset)
#   make test-client-go    go vet + go test (conformance) + the README example
#   make test-client-ts    tsc + node --test (conformance) + the README example
#   make test-client-java  mvn test (conformance, README example)
#
# Every tool is pinned here or in its client's manifest (go.mod, package-lock.json, pom.xml) and
# installed under .cache/tools (ignored by git) on first use, so a fresh clone needs only Go,
# Node.js + npm, Java + Maven and Python from the machine.

# buf: PyPI buf-bin.
BUF_VERSION := 1.75.0
# google.golang.org/protobuf/cmd/protoc-gen-go and google.golang.org/grpc/cmd/protoc-gen-go-grpc.
PROTOC_GEN_GO_VERSION := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
# protoc and protoc-gen-grpc-java (Maven Central) are pinned in clients/java/pom.xml, whose
# build runs them.
# protoc-gen-es (and the buf that runs it in the TypeScript build) are devDependencies of
# clients/typescript (package.json, locked); protoc-gen-es is the version of its runtime.

# buf breaking compares proto/ with the 1.0 baseline: an image of the tavla.v1 API as released in
# 1.0.0 (`buf build`, committed), so no change can break a 1.x client, however many commits it
# spans. BUF_AGAINST may also name a git ref (e.g. BUF_AGAINST=HEAD~1; skipped, with a message,
# when it does not exist or has no proto files: a first commit, a shallow clone).
BUF_BASELINE := proto/buf-baseline.binpb
BUF_AGAINST ?= $(BUF_BASELINE)

TOOLS := .cache/tools
TOOLS_BIN := $(TOOLS)/bin
BUF := $(TOOLS_BIN)/buf
GEN_PATH := $(CURDIR)/$(TOOLS_BIN):$(PATH)
LIVE_SERVER := .venv-test/bin/python clients/conformance/live_server.py
# What the README examples print last: the position after 24/23 13/8 from the start.
EXAMPLE_POSITION_ID := 4PPgASjgc/ABMA
# The generated code that buf.gen.yaml writes, compared by test-proto.
# Only Go's code is committed; the TypeScript build (npm run generate) and the Java build
# (protobuf-maven-plugin, generate-sources) generate theirs from proto/ every time they run.
GENERATED_DIRS := clients/go/tavlav1
TS_MODULES := clients/typescript/node_modules/.package-lock.json

MAVEN := mvn -B -ntp -Dstyle.color=never

TEST_TARGETS += test-proto test-client-go test-client-ts test-client-java

.PHONY: clients-tools regen-clients proto-baseline test-proto test-client-go test-client-ts test-client-java

$(TOOLS)/.stamp-dir:
	mkdir -p $(TOOLS_BIN) $(TOOLS)/stamps
	printf '*\n' > .cache/.gitignore
	touch $@

$(TOOLS)/stamps/buf-$(BUF_VERSION): | $(TOOLS)/.stamp-dir
	rm -rf $(TOOLS)/buf-venv
	$(PYTHON) -m venv $(TOOLS)/buf-venv
	$(TOOLS)/buf-venv/bin/pip install --quiet --disable-pip-version-check buf-bin==$(BUF_VERSION)
	ln -sf ../buf-venv/bin/buf $(BUF)
	$(BUF) --version
	touch $@

$(TOOLS)/stamps/protoc-gen-go-$(PROTOC_GEN_GO_VERSION): | $(TOOLS)/.stamp-dir
	GOBIN=$(CURDIR)/$(TOOLS_BIN) go install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	touch $@

$(TOOLS)/stamps/protoc-gen-go-grpc-$(PROTOC_GEN_GO_GRPC_VERSION): | $(TOOLS)/.stamp-dir
	GOBIN=$(CURDIR)/$(TOOLS_BIN) go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
	touch $@

$(TS_MODULES): clients/typescript/package-lock.json
	cd clients/typescript && npm ci --ignore-scripts --no-audit --no-fund
	touch $@

clients-tools: $(TOOLS)/stamps/buf-$(BUF_VERSION) \
	$(TOOLS)/stamps/protoc-gen-go-$(PROTOC_GEN_GO_VERSION) \
	$(TOOLS)/stamps/protoc-gen-go-grpc-$(PROTOC_GEN_GO_GRPC_VERSION)

# Regenerate the Go client's code from proto/; commit the result. `make regen` does Python.
regen-clients: clients-tools
	rm -rf $(GENERATED_DIRS)
	PATH="$(GEN_PATH)" $(BUF) generate
	cd clients/go && go build ./...

# Reset the buf breaking baseline to proto/ as it is: done once for 1.0.0 (CHANGELOG.md); run it
# again only for a new major version, and say so in the CHANGELOG.
proto-baseline: clients-tools
	$(BUF) build proto --exclude-source-info -o $(BUF_BASELINE)

test-proto: clients-tools
	$(BUF) lint proto
	@if [ -f '$(BUF_AGAINST)' ]; then \
		echo "buf breaking proto --against $(BUF_AGAINST)"; \
		$(BUF) breaking proto --against '$(BUF_AGAINST)'; \
	elif ! git rev-parse -q --verify '$(BUF_AGAINST)^{commit}' >/dev/null 2>&1; then \
		echo "buf breaking: skipped, no commit $(BUF_AGAINST) (first commit or shallow clone)"; \
	elif ! git ls-tree -r --name-only '$(BUF_AGAINST)' -- proto | grep -q '\.proto$$'; then \
		echo "buf breaking: skipped, $(BUF_AGAINST) has no proto files"; \
	else \
		echo "buf breaking proto --against '.git#ref=$(BUF_AGAINST),subdir=proto'"; \
		$(BUF) breaking proto --against '.git#ref=$(BUF_AGAINST),subdir=proto'; \
	fi
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
		PATH="$(GEN_PATH)" $(BUF) generate -o "$$tmp" && \
		stale=0 && for d in $(GENERATED_DIRS); do \
			diff -rq "$$tmp/$$d" "$$d" || stale=1; \
		done && \
		if [ $$stale = 1 ]; then echo "generated client code is stale: run 'make regen-clients' and commit"; exit 1; fi && \
		echo "generated client code is fresh: $(GENERATED_DIRS)"

test-client-go: .venv-test/.installed | $(TOOLS)/.stamp-dir
	@cd clients/go && unformatted="$$(gofmt -l .)" && if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	cd clients/go && go vet ./... && go test -count=1 ./...
	$(LIVE_SERVER) -- sh -c 'cd clients/go && go run ./examples/quickstart "$$TAVLA_TARGET"' | tee .cache/example-go.out
	test "$$(tail -n 1 .cache/example-go.out)" = "$(EXAMPLE_POSITION_ID)"

test-client-ts: .venv-test/.installed $(TS_MODULES)
	cd clients/typescript && npm test

test-client-java: .venv-test/.installed
	cd clients/java && $(MAVEN) test
