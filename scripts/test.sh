#!/usr/bin/env bash
# Runs the whole test suite twice: an optimized build, and a build with AddressSanitizer +
# UndefinedBehaviorSanitizer. Both use -Werror. The conformance suite in ../shared is included
# when present and skipped otherwise. Then runs every libFuzzer target briefly (clang build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)
status=0
for variant in release sanitize; do
  dir="$root/build/test-$variant"
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  if [ "$variant" = sanitize ]; then flags=(-DCMAKE_BUILD_TYPE=Debug -DHLORUN_SANITIZE=ON); fi
  echo "== $variant build"
  cmake -S "$root" -B "$dir" -G Ninja "${flags[@]}" >/dev/null
  ninja -C "$dir" -j "$jobs"
  echo "== $variant tests"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" || status=1
done
echo "== fuzzing (each target briefly)"
"$root/scripts/fuzz.sh" "${HLORUN_FUZZ_SECONDS:-15}" || status=1
exit $status
