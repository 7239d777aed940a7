#!/usr/bin/env bash
# The conformance suite: every StableHLO test program in ../shared/conformance must pass
# `hlorun check`, except those listed (with the reason) in conformance_known_failures.txt.
# Skipped (exit 77) when ../shared is absent, as in a user's clone.
set -u
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
corpus="$src/../shared/conformance/stablehlo-testdata"
if [ ! -d "$corpus" ]; then
  echo "conformance corpus not found at $corpus; skipping"
  exit 77
fi
known="$(dirname "$0")/conformance_known_failures.txt"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd "$corpus" && "$bin" check --quiet ./*.mlir) >"$out"
summary=$(tail -n 1 "$out")
echo "conformance: $summary"
unexpected=0
while IFS= read -r line; do
  file=$(echo "$line" | sed -E 's/^FAIL \.\/([^:]*):.*/\1/')
  if ! grep -q "^$file " "$known" 2>/dev/null; then
    echo "unexpected failure: $line"
    unexpected=$((unexpected + 1))
  fi
done < <(grep '^FAIL ' "$out")
# Known failures that now pass should be removed from the list.
while read -r file _; do
  case "$file" in '' | '#'*) continue ;; esac
  if ! grep -q "^FAIL \./$file:" "$out"; then echo "known failure now passes, remove it from the list: $file"; unexpected=$((unexpected + 1)); fi
done <"$known"
[ $unexpected -eq 0 ]
