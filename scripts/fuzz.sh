#!/usr/bin/env bash
# Builds the libFuzzer targets (clang) and runs each for a while on its seed corpus.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 20)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-20}
dir="$root/build/fuzz"
CC=clang cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHLORUN_FUZZ=ON >/dev/null
ninja -C "$dir" -j "$(nproc)" $(cd "$root/fuzz" && ls fuzz_*.c | sed 's/\.c$//')
status=0
for src in "$root"/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  corpus="$root/fuzz/corpus_${name#fuzz_}"
  work=$(mktemp -d)
  echo "== $name: ${seconds}s"
  if ! "$dir/$name" -max_total_time="$seconds" -max_len=65536 -print_final_stats=0 "$work" "$corpus" \
      >"$work.log" 2>&1; then
    echo "FAIL $name"; tail -n 40 "$work.log"; status=1
  else
    grep -E '^Done [0-9]+ runs' "$work.log" || true
  fi
  rm -rf "$work" "$work.log"
done
exit $status
