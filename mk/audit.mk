# Known vulnerabilities in the locked Python dependencies, with osv-scanner offline, in `make test`
# (docs/reliability.md, "Vulnerability audit"). No advisory data is kept in git: the advisories
# live in $(OSV_ADVISORIES) (git-ignored), filled by `make audit-refresh`.
#   make test-audit     builds osv-scanner (from source with Go, pinned); self-test: a fixture lock
#                       scanned against our synthetic advisory (tests/data/audit) must be reported;
#                       then, when no advisories are present, tries `audit-refresh` once. With
#                       advisories: scans requirements.lock and requirements-test.lock, fails on any
#                       advisory affecting a locked version and on a locked package never looked up.
#                       Without: prints "LOCKS NOT AUDITED" and passes, shown as skipped in
#                       `make test`'s table (deploy/run_parts.py), unless AUDIT_REQUIRED=1.
#   make audit-refresh  (network) the advisories of the locked packages from osv.dev's PyPI
#                       database (PYSEC, GHSA and the rest); OSV_ZIP=path uses a downloaded all.zip
#                       instead (air-gapped CI), PYPA_ADVISORY_DB=dir a clone of
#                       github.com/pypa/advisory-database
#   make audit          (network) pip-audit against osv.dev or PyPI's JSON API (Makefile)
OSV_SCANNER_VERSION := v2.6.0
OSV_SCANNER := .cache/tools/osv-scanner-$(OSV_SCANNER_VERSION)/osv-scanner
OSV_ADVISORIES := .cache/osv-advisories
OSV_DB := .cache/osv-db
OSV_SELFTEST_DB := .cache/osv-selftest-db
OSV_LOCKS := requirements.lock requirements-test.lock
OSV_ZIP_URL := https://osv-vulnerabilities.storage.googleapis.com/PyPI/all.zip
# seconds for the whole download (the zip is tens of MB); test-audit's own try uses less
OSV_DOWNLOAD_TIMEOUT ?= 600
OSV_COMMA := ,
TEST_TARGETS += test-audit
.PHONY: test-audit audit-refresh

OSV_CACHE_DIR = mkdir -p .cache && { [ -f .cache/.gitignore ] || echo '*' > .cache/.gitignore; }

# osv-scanner 2.6 needs Go 1.27: GOTOOLCHAIN=auto fetches that toolchain from the Go proxy.
$(OSV_SCANNER):
	$(OSV_CACHE_DIR)
	GOBIN=$(abspath $(dir $@)) GOTOOLCHAIN=auto GOFLAGS=-buildvcs=false \
		go install github.com/google/osv-scanner/v2/cmd/osv-scanner@$(OSV_SCANNER_VERSION)

test-audit: $(OSV_SCANNER)
	$(PYTHON) deploy/osv_audit.py selftest --scanner $(OSV_SCANNER) --db $(OSV_SELFTEST_DB) \
		--advisory tests/data/audit/TAVLA-TEST-0001.json --fixture tests/data/audit/vulnerable.lock
	$(PYTHON) deploy/osv_audit.py present --advisories $(OSV_ADVISORIES) \
		|| $(MAKE) --no-print-directory audit-refresh OSV_DOWNLOAD_TIMEOUT=180 \
		|| echo "osv: audit-refresh failed (above); going on without advisories"
	$(PYTHON) deploy/osv_audit.py scan --scanner $(OSV_SCANNER) --db $(OSV_DB) \
		--advisories $(OSV_ADVISORIES) $(if $(filter 1,$(AUDIT_REQUIRED)),--required) $(OSV_LOCKS)

audit-refresh: $(if $(PYPA_ADVISORY_DB),.venv-test/.installed)
	$(OSV_CACHE_DIR)
ifdef PYPA_ADVISORY_DB
	.venv-test/bin/python deploy/osv_audit.py vendor --advisories $(OSV_ADVISORIES) \
		--git $(PYPA_ADVISORY_DB) $(OSV_LOCKS)
else
ifndef OSV_ZIP
	mkdir -p .cache/osv-download
	curl -fsSL --connect-timeout 10 --max-time $(OSV_DOWNLOAD_TIMEOUT) \
		-o .cache/osv-download/PyPI-all.zip.part $(OSV_ZIP_URL)
	mv .cache/osv-download/PyPI-all.zip.part .cache/osv-download/PyPI-all.zip
endif
	$(PYTHON) deploy/osv_audit.py vendor --advisories $(OSV_ADVISORIES) \
		--zip $(or $(OSV_ZIP),.cache/osv-download/PyPI-all.zip) \
		--source-note "osv.dev PyPI database ($(if $(OSV_ZIP),$(OSV_ZIP) carried in$(OSV_COMMA) file dated $$(date -u -r $(OSV_ZIP) +%Y-%m-%dT%H:%MZ),$(OSV_ZIP_URL) downloaded $$(date -u +%Y-%m-%dT%H:%MZ))); PYSEC advisories CC-BY 4.0 (PyPA), GHSA CC-BY 4.0 (GitHub)" \
		$(OSV_LOCKS)
endif
