#!/usr/bin/env bash
# Builds the libFuzzer targets (clang) and runs each for a while on its seed corpus.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 15, the CI value; nightly: e.g. 600)
# Environment:
#   HLORUN_FUZZ_TARGETS="fuzz_npy fuzz_predict"   run only these (default: every fuzz/fuzz_*.c)
#   HLORUN_FUZZ_BUILD=DIR      build directory (default build/fuzz)
#   HLORUN_FUZZ_FINDINGS=DIR   where crashes go (default build/fuzz-findings/<date>); kept on failure
#   HLORUN_REAL_DIR=DIR        real files to seed the file readers (default ../shared/real, if present)
#   HLORUN_FUZZ_SEEDS=N        at most N real seed files per target (default 300)
# Each target is seeded with fuzz/corpus_<name>/ and, for the file readers, real files of its kind
# (copied into a temporary directory); new inputs go to a scratch directory that is deleted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-15}
dir=${HLORUN_FUZZ_BUILD:-$root/build/fuzz}
findings=${HLORUN_FUZZ_FINDINGS:-$root/build/fuzz-findings/$(date +%Y%m%d-%H%M%S)}
real=${HLORUN_REAL_DIR:-$root/../shared/real}
max_seeds=${HLORUN_FUZZ_SEEDS:-300}
targets=${HLORUN_FUZZ_TARGETS:-$(cd "$root/fuzz" && ls fuzz_*.c | sed 's/\.c$//')}

CC=clang cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHLORUN_FUZZ=ON >/dev/null
# shellcheck disable=SC2086
if ! ninja -C "$dir" -j "$(nproc)" $targets >"$dir/fuzz-build.log" 2>&1; then
  tail -n 40 "$dir/fuzz-build.log"; exit 1
fi

# Per target: the longest input, and the real files that seed it ("find" name patterns and the
# largest seed in KiB; no patterns: committed corpus only).
max_len() {
  case $1 in
    fuzz_npy) echo 131072 ;;
    fuzz_parse | fuzz_safetensors | fuzz_artifact | fuzz_ocdbt) echo 65536 ;;
    fuzz_predict) echo 8192 ;;
    fuzz_config) echo 4096 ;;
    *) echo 65536 ;;
  esac
}
real_kind() {
  case $1 in
    fuzz_npy) echo "128 *.npy" ;;
    fuzz_parse) echo "64 *.mlir" ;;
    fuzz_safetensors) echo "64 *.safetensors" ;;
    fuzz_artifact) echo "64 *.hlo *.hlox" ;;
    fuzz_jaxexport) echo "64 exported.bin" ;;
    fuzz_mlirbc) echo "64 *.mlirbc *.bc" ;;
    fuzz_ocdbt) echo "4 manifest.ocdbt" ;; # a manifest alone (no data file after the marker)
    fuzz_bundle) echo "4 variables.index" ;; # an index alone (no data files after the marker)
    fuzz_savedmodel) echo "64 saved_model.pb graph_def.pb" ;;
  esac
}

# Copies up to max_seeds real files for target $1 into directory $2 (a fixed pseudo-random sample,
# so that runs are comparable); prints how many.
real_seeds() {
  local kind parts args=() p n=0 f
  kind=$(real_kind "$1")
  if [ -z "$kind" ] || [ ! -d "$real" ]; then echo 0; return; fi
  read -r -a parts <<<"$kind" # no globbing: "*.npy" stays a pattern
  for p in "${parts[@]:1}"; do args+=(${args[@]:+-o} -name "$p"); done
  while IFS= read -r f; do
    n=$((n + 1))
    cp "$f" "$2/$n-$(basename "$f")"
  done < <(find "$real" -type f \( "${args[@]}" \) -size -"${parts[0]}"k 2>/dev/null | sort |
           shuf -n "$max_seeds" --random-source=<(yes) || true)
  echo "$n"
}

status=0
for name in $targets; do
  corpus="$root/fuzz/corpus_${name#fuzz_}"
  work=$(mktemp -d)
  mkdir -p "$work/new" "$work/real" "$findings"
  nreal=$(real_seeds "$name" "$work/real")
  echo "== $name: ${seconds}s, $(find "$corpus" -type f | wc -l) committed + $nreal real seeds"
  touch "$work/stamp"
  rc=0
  "$dir/$name" -max_total_time="$seconds" -max_len="$(max_len "$name")" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$findings/$name-" "$work/new" "$corpus" "$work/real" \
    >"$work/log" 2>&1 || rc=$?
  # Summary: executions, coverage (edges) at start and end, inputs that added coverage, crashes.
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  added=$(sed -n 's/^stat::new_units_added: *//p' "$work/log")
  cov0=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$work/log" | head -n1)
  cov1=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' "$work/log" | tail -n1)
  crashes=$(find "$findings" -name "$name-*" -newer "$work/stamp" | wc -l)
  echo "$name: runs ${runs:-?}, cov ${cov0:-?} -> ${cov1:-?}, new inputs ${added:-?}, crashes $crashes"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    echo "FAIL $name (exit $rc)"; tail -n 60 "$work/log"
    cp "$work/log" "$findings/$name.log"; status=1
  fi
  rm -rf "$work"
done
if [ "$status" -ne 0 ]; then
  echo "fuzz findings kept in $findings"
else
  rmdir "$findings" 2>/dev/null || true
fi
exit $status
