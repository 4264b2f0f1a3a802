#!/bin/sh
# Mutation testing of the rules core (docs/reliability.md, "Mutation testing").
# Mutates service/tavla/core/{legality,steps,movegen,moves,notation,scoring}.py with mutmut and
# runs only the fast core tests (no gRPC, no Hypothesis properties) against each mutant, at the
# lowest CPU priority. Works in a scratch copy (.cache/mutation) laid out as mutmut expects
# (src/), so the worktree is never touched. Usage: tests/reliability/mutation.sh [PYTHON]
set -eu
PYTHON=${1:-python3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK="$ROOT/.cache/mutation"
mkdir -p "$ROOT/.cache"
[ -f "$ROOT/.cache/.gitignore" ] || echo '*' > "$ROOT/.cache/.gitignore"
rm -rf "$WORK"
mkdir -p "$WORK/tests"
cp -r "$ROOT/service" "$WORK/src"
cp "$ROOT"/tests/boards.py "$ROOT"/tests/rules_reference.py "$ROOT"/tests/test_rules_pins.py "$ROOT"/tests/test_rules_messages.py "$ROOT"/tests/test_legality.py "$ROOT"/tests/test_steps.py \
   "$ROOT"/tests/test_notation.py "$ROOT"/tests/test_moves_agree.py "$ROOT"/tests/test_scoring.py "$WORK/tests/"
cat > "$WORK/tests/conftest.py" <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
PY
cat > "$WORK/pyproject.toml" <<'TOML'
[tool.mutmut]
source_paths = ["src"]
only_mutate = ["*core/rules/legality.py", "*core/rules/steps.py", "*core/rules/movegen.py", "*core/rules/moves.py",
               "*core/rules/notation.py", "*core/rules/scoring.py"]
pytest_add_cli_args_test_selection = ["tests/"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-k", "not rpc and not grpc and not any_path and not every_legal"]
TOML
cd "$WORK"
unset PYTHONPATH
# the mutants of movegen.py must be what runs, not the compiled generator that importing
# tavla.server installs behind movegen.generate when tavla_accel is there
export TAVLA_ACCEL=0
nice -n 19 "$PYTHON" -m mutmut run --max-children 1
"$PYTHON" -m mutmut results --all true > results.txt || true
echo "results: $WORK/results.txt"
