#!/usr/bin/env bash
# The StableHLO interpreter's own spec tests (../shared/conformance/stablehlo-interpret: 77 lit
# files, split at `// -----`; collectives under interpreter.run_parallel, check ops, quantized and
# narrow types) all pass: `hlorun check --summary` reports every file whole and 0 failed. The
# per-file lines are printed so a failing run shows which file regressed. Skips (77) without
# ../shared.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
src="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}"
suite="$src/../shared/conformance/stablehlo-interpret"
if [ ! -d "$suite" ]; then
  echo "skip: $suite is absent"
  exit 77
fi
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

"$bin" check --summary "$suite"/*.mlir >"$tmp/suite.out" 2>&1
rc=$?
grep -E '^(FAIL|.*: [0-9]+/[0-9]+$)' "$tmp/suite.out"
[ "$rc" -eq 0 ] || fail "hlorun check exited with $rc"
# Every file's line reads n/n, and the files are all there.
files=$(ls "$suite"/*.mlir | wc -l)
whole=$(grep -cE '\.mlir: ([0-9]+)/\1$' "$tmp/suite.out")
[ "$whole" -eq "$files" ] || fail "$whole of $files files pass whole"
expect_line "$tmp/suite.out" '^[0-9]+ passed, 0 failed$'
finish "the StableHLO interpreter's spec suite"
