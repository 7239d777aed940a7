#!/usr/bin/env bash
# StableHLO portable artifacts run exactly like their text: every program of
# ../shared/real/vhlo-testdata-0_9_0 (JAX-generated self-checking programs, each with its StableHLO
# 0.9.0 bytecode, MLIR bytecode version 0) whose text passes `hlorun check` passes from its bytecode,
# and no bytecode fails where its text passes. Skipped (exit 77) when ../shared is absent.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
dir="$src/../shared/real/vhlo-testdata-0_9_0"
if [ ! -d "$dir" ]; then
  echo "vhlo testdata not found at $dir; skipping"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir"
# `hlorun check` names each file PASS or FAIL; keep the names of the passing ones, .bc suffix removed.
ls ./*.mlir | xargs "$bin" check 2>/dev/null | sed -nE 's/^PASS \.\/([^ ]*) .*/\1/p' | sort >"$tmp/text"
ls ./*.mlir.0_9_0.bc | xargs "$bin" check 2>/dev/null >"$tmp/bc.out"
sed -nE 's/^PASS \.\/([^ ]*)\.0_9_0\.bc .*/\1/p' "$tmp/bc.out" | sort >"$tmp/bc"
n_text=$(wc -l <"$tmp/text")
n_bc=$(wc -l <"$tmp/bc")
echo "vhlo-testdata-0_9_0: $n_text programs pass from text, $n_bc from bytecode"
missing=$(comm -23 "$tmp/text" "$tmp/bc")
if [ -n "$missing" ]; then
  echo "pass from text but not from bytecode ($(echo "$missing" | wc -l)):"
  for f in $(echo "$missing" | head -20); do grep -F "./$f.0_9_0.bc" "$tmp/bc.out" | head -1; done
  exit 1
fi
[ "$n_text" -gt 2000 ]
