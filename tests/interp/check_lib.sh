# Shared by the tests/interp scripts that run `hlorun check` on a data folder and match its lines
# (test_check_ops.sh, test_interp_ops.sh, test_chlo_ops.sh,
# test_parallel.sh, test_quant.sh, test_spec_suite.sh); sourced, not run. Needs $bin; sets $tmp (removed at
# exit) and counts failures in $failures.
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# expect_line FILE PATTERN: FILE must hold a line matching the extended regex PATTERN.
expect_line() {
  grep -Eq "$2" "$1" || fail "no line matching '$2' in: $(cat "$1")"
}

# expect_all_pass FILE.mlir CASE...: `hlorun check FILE.mlir` exits 0 with a PASS line for each
# case ("name (N checks)") and the closing "N passed, 0 failed"; its output stays in $tmp/pass.out.
expect_all_pass() {
  local file=$1 case rc
  shift
  "$bin" check "$file" >"$tmp/pass.out" 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || fail "$(basename "$file") exited with $rc: $(cat "$tmp/pass.out")"
  for case in "$@"; do
    expect_line "$tmp/pass.out" "^PASS .*$(basename "$file" | sed 's/\./\\./'):${case//(/\\(}"
  done
  expect_line "$tmp/pass.out" "^$# passed, 0 failed$"
}

# expect_print_fixed_point FILE.mlir: each part of FILE (split at `// -----`), converted to text
# twice, gives the same text, which passes `hlorun check`.
expect_print_fixed_point() {
  local part p
  awk -v d="$tmp" 'BEGIN{n=0} /^\/\/ -----$/{n++; next} {print > (d "/part" n ".mlir")}' "$1"
  for part in "$tmp"/part*.mlir; do
    p=$(basename "$part" .mlir)
    if "$bin" convert "$part" "$tmp/$p.a.mlir" --to text >"$tmp/convert.out" 2>&1 &&
      "$bin" convert "$tmp/$p.a.mlir" "$tmp/$p.b.mlir" --to text >>"$tmp/convert.out" 2>&1; then
      cmp -s "$tmp/$p.a.mlir" "$tmp/$p.b.mlir" || fail "$p: printing is not a fixed point: $(diff "$tmp/$p.a.mlir" "$tmp/$p.b.mlir")"
      "$bin" check "$tmp/$p.a.mlir" >"$tmp/$p.out" 2>&1 || fail "$p: the printed module does not pass: $(cat "$tmp/$p.out")"
    else
      fail "$p: convert failed: $(cat "$tmp/convert.out")"
    fi
  done
}

# finish WHAT: exits 1 with the count of failures, else says that WHAT are all as expected.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures failures" >&2
    exit 1
  fi
  echo "$1: all cases as expected"
}
