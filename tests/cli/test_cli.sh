#!/usr/bin/env bash
# End-to-end tests of the hlorun command: run/check/inspect on small programs, and clean one-line
# errors (file:line:col, non-zero exit, never a crash) on bad input.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect_error NAME EXPECTED_SUBSTRING -- runs hlorun with the remaining args and expects exit 1
# (not a signal) and one stderr line containing the substring.
expect_error() {
  local name=$1 want=$2
  shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 1 ]; then fail "$name: exit $rc (want 1)"; cat "$tmp/err"; return; fi
  if ! grep -qF -- "$want" "$tmp/err"; then fail "$name: stderr lacks '$want'"; cat "$tmp/err"; return; fi
  if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then fail "$name: error is not one line"; cat "$tmp/err"; return; fi
  pass
}

cat >"$tmp/add.mlir" <<'MLIR'
module @m {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<2x3xf32>
    %1 = stablehlo.multiply %0, %cst : tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
MLIR

# Inputs as .npy written by hlorun itself from a constant-only program.
cat >"$tmp/make.mlir" <<'MLIR'
func.func @main() -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<0.5> : tensor<2x3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<2x3xf32>
}
MLIR
if "$bin" run "$tmp/make.mlir" --output "$tmp/in" >/dev/null && [ -f "$tmp/in/out0.npy" ]; then pass; else fail "run --output"; fi

out=$("$bin" run "$tmp/add.mlir" --input arg0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy" --output "$tmp/res")
if echo "$out" | grep -q "result 0: tensor<2x3xf32>" && echo "$out" | grep -qF "[[3, 5, 7]," && echo "$out" | grep -qF " [9, 11, 13]]"; then
  pass
else
  fail "run prints results: $out"
fi
# The saved result reads back as the same values.
cat >"$tmp/reread.mlir" <<'MLIR'
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = stablehlo.constant dense<[[3.0, 5.0, 7.0], [9.0, 11.0, 13.0]]> : tensor<2x3xf32>
  stablehlo.custom_call @check.expect_eq(%x, %e) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
  return %x : tensor<2x3xf32>
}
MLIR
if "$bin" run "$tmp/reread.mlir" --input 0="$tmp/res/out0.npy" >/dev/null; then pass; else fail "saved result reads back"; fi

# One-byte types hlorun writes as '|V1' (f8/f6/f4, as np.save writes ml_dtypes arrays) or '|i1'
# (i4) read back where the model expects that type; elsewhere '|V1' is refused.
cat >"$tmp/make8.mlir" <<'MLIR'
func.func @main() -> (tensor<3xf8E4M3FN>, tensor<3xi4>) {
  %a = stablehlo.constant dense<[1.5, -2.0, 448.0]> : tensor<3xf8E4M3FN>
  %b = stablehlo.constant dense<[-8, 0, 7]> : tensor<3xi4>
  return %a, %b : tensor<3xf8E4M3FN>, tensor<3xi4>
}
MLIR
cat >"$tmp/read8.mlir" <<'MLIR'
func.func @main(%x: tensor<3xf8E4M3FN>, %y: tensor<3xi4>) -> tensor<3xf32> {
  %xf = stablehlo.convert %x : (tensor<3xf8E4M3FN>) -> tensor<3xf32>
  %yf = stablehlo.convert %y : (tensor<3xi4>) -> tensor<3xf32>
  %e = stablehlo.constant dense<[1.5, -2.0, 448.0]> : tensor<3xf32>
  stablehlo.custom_call @check.expect_eq(%xf, %e) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
  %f = stablehlo.constant dense<[-8.0, 0.0, 7.0]> : tensor<3xf32>
  stablehlo.custom_call @check.expect_eq(%yf, %f) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
  return %xf : tensor<3xf32>
}
MLIR
if "$bin" run "$tmp/make8.mlir" --output "$tmp/in8" >/dev/null &&
  "$bin" run "$tmp/read8.mlir" --input 0="$tmp/in8/out0.npy" --input 1="$tmp/in8/out1.npy" >/dev/null; then
  pass
else
  fail "f8E4M3FN and i4 results read back as inputs"
fi
expect_error "an f8 array where f32 is expected" "expected here: f32" run "$tmp/reread.mlir" --input 0="$tmp/in8/out0.npy"

# convert: text to a portable artifact and back; every command reads the artifact by its content.
if "$bin" convert "$tmp/add.mlir" "$tmp/add.mlirbc" >/dev/null && "$bin" convert "$tmp/add.mlirbc" "$tmp/add_again.mlir" >/dev/null &&
  out=$("$bin" run "$tmp/add.mlirbc" --input 0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy") &&
  echo "$out" | grep -qF "[[3, 5, 7]," && "$bin" inspect "$tmp/add.mlirbc" | grep -qF "producer StableHLO_v1.8.0"; then
  pass
else
  fail "convert to and from a portable artifact"
fi
expect_error convert-extension "the output's extension names no form" convert "$tmp/add.mlir" "$tmp/add.txt"
# convert to a jax.export file (by extension, or --to), for a chosen StableHLO version; read back by content.
if "$bin" convert "$tmp/add.mlir" "$tmp/add.bin" >/dev/null && "$bin" convert "$tmp/add.mlir" "$tmp/add.exp" --to jax-export --target 1.4 >/dev/null &&
   "$bin" inspect "$tmp/add.exp" | grep -q "producer StableHLO_v1.4.0" && "$bin" inspect "$tmp/add.bin" | grep -q "^fun_name: main" &&
   "$bin" run "$tmp/add.bin" --input 0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy" | grep -qF "[[3, 5, 7],"; then
  pass "convert to a jax.export file"
else
  fail "convert to a jax.export file"
fi
expect_error convert-target "written for versions 1.0 to 1.20" convert "$tmp/add.mlir" "$tmp/add.mlirbc" --target 0.9
expect_error convert-to "not a form" convert "$tmp/add.mlir" "$tmp/add.mlirbc" --to yaml

# jax.export's shape assertions: a false predicate fails with JAX's message, values substituted.
cat >"$tmp/assert.mlir" <<'MLIR'
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c = stablehlo.constant dense<2> : tensor<i32>
  %ok = stablehlo.compare GE, %d, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %d) {error_message = "Expected value >= 2 for dimension variable 'b'; got b = {0} ({1})", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %x : tensor<?x4xf32>
}
MLIR
expect_error shape-assertion "Expected value >= 2 for dimension variable 'b'; got b = 1 ({1})" run "$tmp/assert.mlir" --batch 1 --quiet
expect_error shape-assertion-interpreted "got b = 1 ({1})" run "$tmp/assert.mlir" --batch 1 --quiet --interpret
if "$bin" run "$tmp/assert.mlir" --batch 3 --quiet; then pass; else fail "a shape assertion that holds"; fi

# --device: the template backend gives the CPU's results; unknown names list the known devices.
out=$("$bin" run "$tmp/add.mlir" --input 0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy" --device template)
if echo "$out" | grep -qF "[[3, 5, 7]," && echo "$out" | grep -qF " [9, 11, 13]]"; then pass; else fail "run --device template: $out"; fi
expect_error unknown-device 'device "nosuch": no backend of that name (known: cpu, template)' run "$tmp/add.mlir" --input 0="$tmp/in/out0.npy" --input 1="$tmp/in/out1.npy" --device nosuch
expect_error device-interpret "--device and --interpret exclude each other" run "$tmp/add.mlir" --device cpu --interpret

expect_error missing-input "missing --input for 'arg1'" run "$tmp/add.mlir" --input arg0="$tmp/in/out0.npy"
cat >"$tmp/vec.mlir" <<'MLIR'
func.func @main() -> tensor<4xf32> {
  %a = stablehlo.constant dense<1.0> : tensor<4xf32>
  return %a : tensor<4xf32>
}
MLIR
"$bin" run "$tmp/vec.mlir" --output "$tmp/vec" >/dev/null
expect_error wrong-input-shape "input 0 (arg0) of @main is tensor<4xf32>, expected tensor<2x3xf32>" run "$tmp/add.mlir" --input arg0="$tmp/vec/out0.npy" --input arg1="$tmp/in/out1.npy"
expect_error unknown-param "the model has no input 'x'" run "$tmp/add.mlir" --input x="$tmp/in/out0.npy"

# check: pass and fail lines with a closing count.
cat >"$tmp/failing.mlir" <<'MLIR'
func.func @main() -> tensor<2xi32> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  return %a : tensor<2xi32>
}
MLIR
"$bin" check "$tmp/make.mlir" "$tmp/failing.mlir" >"$tmp/check.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^FAIL .*failing.mlir: CHECK_FAILED: .*failing.mlir:4:3: stablehlo.custom_call: check.expect_eq failed: 1 of 2 elements differ; first at \[1\]: actual 2, expected 3" "$tmp/check.out" &&
  grep -q "^1 passed, 1 failed$" "$tmp/check.out"; then
  pass
else
  fail "check output"; cat "$tmp/check.out"
fi

# check --summary: each file's passed/total and the total, before the closing count.
"$bin" check --quiet --summary "$tmp/make.mlir" "$tmp/failing.mlir" "$tmp/make.mlir" >"$tmp/summary.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c '/make.mlir: 1/1$' "$tmp/summary.out")" -eq 2 ] &&
  grep -q "/failing.mlir: 0/1$" "$tmp/summary.out" && grep -q "^total: 2/3$" "$tmp/summary.out" &&
  [ "$(tail -n 1 "$tmp/summary.out")" = "2 passed, 1 failed" ]; then
  pass
else
  fail "check --summary output"; cat "$tmp/summary.out"
fi

# Bad programs: one-line errors with positions.
printf 'func.func @main() -> tensor<f32> {\n  %%0 = stablehlo.constant dense<1.0> : tensor<f32>\n  %%1 = stablehlo.add %%0, %%0 tensor<f32>\n  return %%1 : tensor<f32>\n}\n' >"$tmp/syntax.mlir"
expect_error syntax "syntax.mlir:3:" run "$tmp/syntax.mlir"
printf 'func.func @main() -> tensor<f32> {\n  %%0 = stablehlo.constant dense<1.0> : tensor<f32>\n  %%1 = stablehlo.frobnicate %%0 : tensor<f32>\n  return %%1 : tensor<f32>\n}\n' >"$tmp/unknown.mlir"
expect_error unknown-op "unknown.mlir:3:" run "$tmp/unknown.mlir"
printf 'func.func @main() -> tensor<2xf32> {\n  %%0 = stablehlo.constant dense<1.0> : tensor<3xf32>\n  %%1 = stablehlo.add %%0, %%0 : tensor<2xf32>\n  return %%1 : tensor<2xf32>\n}\n' >"$tmp/mismatch.mlir"
expect_error type-mismatch "mismatch.mlir:3:" run "$tmp/mismatch.mlir"
printf 'func.func @main() -> tensor<99999999999x99999999999x99999999999xf32> {\n  %%0 = stablehlo.constant dense<1.0> : tensor<99999999999x99999999999x99999999999xf32>\n  return %%0 : tensor<99999999999x99999999999x99999999999xf32>\n}\n' >"$tmp/huge.mlir"
expect_error huge-shape "huge.mlir:" run "$tmp/huge.mlir"
expect_error no-file "nope.mlir" run "$tmp/nope.mlir"

# Truncating a valid program anywhere gives an error, never a crash.
crashes=0
size=$(wc -c <"$tmp/add.mlir")
for ((cut = 0; cut < size; cut += 7)); do
  head -c $cut "$tmp/add.mlir" >"$tmp/cut.mlir"
  "$bin" inspect "$tmp/cut.mlir" >/dev/null 2>&1
  rc=$?
  if [ $rc -gt 1 ]; then crashes=$((crashes + 1)); echo "cut at $cut: exit $rc"; fi
done
if [ $crashes -eq 0 ]; then pass; else fail "truncated inputs crashed $crashes times"; fi

# The reference interpreter gives the same results as the compiled path.
if "$bin" compare "$tmp/add.mlir" "$tmp/add.mlir" --interpret-b --input arg0="$tmp/in/out0.npy" --input arg1="$tmp/in/out1.npy" \
    --tolerance 0 | grep -qE "^0 +tensor<2x3xf32> +0 +0$"; then pass; else fail "compare compiled vs interpreted"; fi

# Artifacts and executables: export, compile, inspect, run, compare.
"$bin" export "$tmp/add.mlir" -o "$tmp/add.hlo" >/dev/null && "$bin" compile "$tmp/add.mlir" -o "$tmp/add.hlox" >/dev/null
if "$bin" inspect "$tmp/add.hlo" | grep -q "^  arg0: tensor<2x3xf32>$" && "$bin" inspect "$tmp/add.hlox" | grep -q "^executable"; then
  pass
else
  fail "export/compile/inspect"
fi
if "$bin" compare "$tmp/add.hlo" "$tmp/add.hlox" --input arg0="$tmp/in/out0.npy" --input arg1="$tmp/in/out1.npy" \
    --tolerance 0 >/dev/null; then pass; else fail "artifact and executable agree"; fi
expect_error weights-for-artifact "carries its own weights" run "$tmp/add.hlo" --weights "$tmp/none.safetensors"
head -c 100 "$tmp/add.hlo" >"$tmp/cut.hlo"
expect_error truncated-artifact "cut.hlo" run "$tmp/cut.hlo" --batch 1

# inspect: signature summary and IR text that parses back.
if "$bin" inspect "$tmp/add.mlir" | grep -qF "public @main(tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>)"; then pass; else fail "inspect summary"; fi
"$bin" inspect --ir "$tmp/add.mlir" >"$tmp/printed.mlir"
if "$bin" inspect --ir "$tmp/printed.mlir" | cmp -s - "$tmp/printed.mlir"; then pass; else fail "inspect --ir round trip"; fi

# Files named *.hlo or *.hlox, or starting with the artifact magic, go to the artifact reader:
# empty or too short ones are errors naming the file, not empty StableHLO modules.
: >"$tmp/empty.hlo"
: >"$tmp/empty.hlox"
printf 'HLORUNAF' >"$tmp/magic.mlir"
expect_error empty-artifact "empty.hlo: 0 bytes is too short for an hlorun artifact" inspect "$tmp/empty.hlo"
expect_error empty-executable "empty.hlox: 0 bytes is too short for an hlorun artifact" inspect "$tmp/empty.hlox"
expect_error empty-artifact-run "empty.hlo: 0 bytes is too short" run "$tmp/empty.hlo"
expect_error magic-only "magic.mlir: 8 bytes is too short for an hlorun artifact" inspect "$tmp/magic.mlir"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
