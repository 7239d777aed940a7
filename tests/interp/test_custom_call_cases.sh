#!/usr/bin/env bash
# JAX's CPU custom calls (src/interp/custom_call*.c) on the real back-compat cases of
# ../shared/real/vhlo: every CPU case calling a target hlorun has reproduces JAX's outputs, from
# its bytecode and its text (tests/interp/custom_call_cases.py says what is compared and how);
# so do the GPU cases whose targets run here; the cases whose target hlorun lacks are listed with
# the target. Skipped (77) without ../shared
# or numpy.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}
cases=$src/../shared/real/vhlo
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)
[ -d "$cases" ] || { echo "$cases not found; skipping"; exit 77; }
"$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
# Every CPU case (84: 168 runs, bytecode and text) reproduces JAX; of the 52 cuda and rocm cases,
# run on the CPU, the 48 whose targets map onto CPU kernels do (92 runs: three text twins of 2023
# hold raw NUL bytes and are passed over; the other 4 cases call Triton or Mosaic); of the tpu cases with custom calls, the 11 whose targets are
# XLA's own (Eigh, LuDecomposition, ApproxTopK, AllocateBuffer, stablehlo.dynamic_reduce_window),
# Shardy's round trip or annotate_device_placement do (22 runs; the rest call Mosaic or GSPMD's
# @Sharding). A target that stops working lowers a count below its floor.
"$py" "$src/tests/interp/custom_call_cases.py" --bin "$bin" --cases "$cases" --min-passed 168 || exit 1
"$py" "$src/tests/interp/custom_call_cases.py" --bin "$bin" --cases "$cases" --min-passed 22 --tpu || exit 1
exec "$py" "$src/tests/interp/custom_call_cases.py" --bin "$bin" --cases "$cases" --min-passed 92 --gpu
