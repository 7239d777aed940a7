#!/usr/bin/env bash
# interpreter.run_parallel and the collectives in a process grid (src/interp/grid.c,
# kernels_reduce_collective.c, kernels_reduce_transfer.c, run_parallel.c): every case of
# data_parallel/pass.mlir passes with its count of checks (each group mode, each collective,
# send/recv, infeed, ids, rounds in a loop); every part of data_parallel/fail.mlir fails with the
# error named here, by file:line:col and op (mismatched shapes, a failing process, deadlocks, an
# empty infeed queue, bad groups, malformed run_parallel ops) and within a time limit, never
# hanging; the printed form of pass.mlir is a fixed point that still passes.
set -u

bin="${HLORUN_BIN:?HLORUN_BIN must name the hlorun binary}"
dir="${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/tests/interp/data_parallel"
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

# A grid that deadlocks must fail, not hang: every run here gets 60 seconds.
run() { timeout 60 "$@"; }
bin_real=$bin
bin="$tmp/hlorun"
printf '#!/bin/sh\nexec timeout 60 "%s" "$@"\n' "$bin_real" >"$bin"
chmod +x "$bin"
expect_all_pass "$dir/pass.mlir" "grid_ids (8 checks)" "all_reduce_modes (8 checks)" "all_reduce_rounds (2 checks)" \
  "gather_scatter (6 checks)" "broadcast_permute (6 checks)" "all_to_all_and_reduce (4 checks)" \
  "send_recv_infeed (3 checks)"

run "$bin_real" check "$dir/fail.mlir" >"$tmp/fail.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "fail.mlir exited with $rc, not 1"
f='fail\.mlir'
expect_line "$tmp/fail.out" "^FAIL .*$f:mismatched_shapes: INVALID_ARGUMENT: process \([01], 0\): .*$f:(5|13):3: stablehlo\.all_reduce: process \([01], 0\) gave operand 0 as f32 [23], this process as f32 [23]$"
expect_line "$tmp/fail.out" "^FAIL .*$f:process_fails: CHECK_FAILED: process \(1, 0\): .*$f:38:3: check\.expect_eq_const: check failed"
expect_line "$tmp/fail.out" "^FAIL .*$f:member_finished: INVALID_ARGUMENT: .*$f:50:3: stablehlo\.all_gather: process \(0, 0\) waits here for processes that never join .*deadlock$"
expect_line "$tmp/fail.out" "^FAIL .*$f:waits_elsewhere: INVALID_ARGUMENT: .*$f:(65|70):3: stablehlo\.(all_gather|recv): process \([01], 0\) waits here .*deadlock$"
expect_line "$tmp/fail.out" "^FAIL .*$f:empty_infeed: OUT_OF_RANGE: process \(0, 0\): .*$f:83:3: stablehlo\.infeed: the infeed queue is empty"
expect_line "$tmp/fail.out" "^FAIL .*$f:split_count_mismatch: INVALID_ARGUMENT: .*$f:94:3: stablehlo\.all_to_all: split_count is 2 but the process group has 1 members$"
expect_line "$tmp/fail.out" "^FAIL .*$f:group_out_of_range: OUT_OF_RANGE: process \([01], 0\): .*$f:106:3: stablehlo\.all_reduce: process group id 5 is outside \[0, 2\)$"
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:126:3: interpreter\.run_parallel: the programs take more operands"
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:133:3: interpreter\.run_parallel: \`programs\` names @nowhere, which is not a function with a body$"
expect_line "$tmp/fail.out" "^FAIL .*$f: VERIFY_ERROR: .*$f:140:3: interpreter\.run_parallel: every replica of \`programs\` must list 2 functions"
expect_line "$tmp/fail.out" "^0 passed, 10 failed$"

# Printing: each part of pass.mlir is a fixed point of printing and still passes.
expect_print_fixed_point "$dir/pass.mlir"

finish "process grids"
