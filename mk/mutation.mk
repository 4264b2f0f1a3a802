# Mutation testing of the rules core (docs/reliability.md, "Mutation testing"): long, so not part
# of `make test`. `make mutation` mutates the move-legality modules with mutmut (pinned in the
# `mutation` extra) and runs the fast core tests against each mutant at nice 19, one at a time.
.PHONY: mutation

.venv-test/.mutmut: .venv-test/.installed
	.venv-test/bin/pip install --quiet --no-build-isolation -e '.[mutation]'
	touch $@

mutation: .venv-test/.mutmut
	tests/reliability/mutation.sh $(abspath .venv-test/bin/python)
