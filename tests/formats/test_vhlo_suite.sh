#!/usr/bin/env bash
# StableHLO's own compatibility suite (../shared/real/vhlo-suite: for each release 0.9.0 ... 1.20.0 the
# bytecode that release wrote and the StableHLO text it was made from): for every release the
# bytecode loads and `hlorun inspect --ir` prints exactly the module the text prints (every op,
# attribute and type of those files: index, fp8/fp6/fp4/tf32, quantized and bounded types, futures,
# buffers, Shardy axes, function declarations). An artifact from a newer release is refused with the
# version and the byte offset. Skipped (exit 77) without ../shared.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
dir="$src/../shared/real/vhlo-suite"
if [ ! -d "$dir" ]; then
  echo "vhlo-suite not found at $dir; skipping"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
releases=0 same=0 failed=0
for version_dir in "$dir"/*/; do
  v=$(basename "$version_dir")
  base="$version_dir/stablehlo_legalize_to_vhlo.$v.mlir"
  releases=$((releases + 1))
  # The suite's modules test the serializer, not the verifier: some do not verify (inspect says so on
  # stderr) and are printed all the same.
  if ! "$bin" inspect --ir --out "$tmp/bc.mlir" "$base.bc" >/dev/null 2>"$tmp/err"; then
    echo "FAIL $v: the bytecode does not load: $(head -c 300 "$tmp/err")"
    failed=$((failed + 1))
    continue
  fi
  if ! "$bin" inspect --ir --out "$tmp/text.mlir" "$base" >/dev/null 2>"$tmp/err"; then
    echo "FAIL $v: the text does not load: $(head -c 300 "$tmp/err")"
    failed=$((failed + 1))
    continue
  fi
  if cmp -s "$tmp/text.mlir" "$tmp/bc.mlir"; then
    same=$((same + 1))
  else
    echo "FAIL $v: text and bytecode print differently:"
    diff "$tmp/text.mlir" "$tmp/bc.mlir" | head -6 | cut -c1-300
    failed=$((failed + 1))
  fi
done
echo "vhlo-suite: $same of $releases releases print the same module from bytecode and text"
# An artifact written by a release newer than the newest one known is refused, naming both.
python3 - "$dir/1_20_0/stablehlo_legalize_to_vhlo.1_20_0.mlir.bc" "$tmp/future.bc" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(data.replace(b'StableHLO_v1.20.0', b'StableHLO_v1.99.0'))
PY
if "$bin" inspect "$tmp/future.bc" >"$tmp/out" 2>&1 ||
  ! grep -qF "offset 5: the artifact was written by StableHLO 1.99.0, newer than 1.20" "$tmp/out"; then
  echo "FAIL future: $(head -c 300 "$tmp/out")"
  failed=$((failed + 1))
fi
[ "$releases" -ge 20 ] || { echo "FAIL: only $releases releases found"; failed=$((failed + 1)); }
[ "$failed" -eq 0 ]
