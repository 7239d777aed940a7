#!/usr/bin/env bash
# Generation allocates nothing per token: `hlorun generate --parallel 4` makes as many heap
# allocations (malloc, calloc, realloc, aligned_alloc, posix_memalign, counted by an LD_PRELOAD
# shim, tests/generate/count_alloc.c) for 24 tokens as for 160: the cache, the runs' buffers and the
# executables' arenas are made once, each decode step runs in them. Skipped (77) without a C
# compiler or numpy, and for a sanitizer build (its runtime replaces the allocator).
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
py=/usr/bin/python3
skip() { echo "SKIP: $*"; exit 77; }
command -v cc >/dev/null || skip "no C compiler for the counting shim"
"$py" -c 'import numpy' 2>/dev/null || skip "numpy is not installed"
libs=$(ldd "$bin" 2>/dev/null || true)
case $libs in *libasan* | *libubsan* | *libtsan*) skip "a sanitizer build: its runtime owns malloc" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -shared -fPIC -o "$tmp/count.so" "$src/tests/generate/count_alloc.c" -ldl
"$py" "$src/tools/tiny_transformer/tiny_transformer.py" weights "$tmp/w.safetensors" >/dev/null
count() {
  LD_PRELOAD="$tmp/count.so" "$bin" generate "$src/examples/tiny_transformer/generate.mlir" --weights "$tmp/w.safetensors" \
    --prompt "Hello, world" --max-tokens "$1" --parallel 4 2>&1 >/dev/null | sed -n 's/^allocations: //p'
}
short=$(count 24)
long=$(count 160)
echo "allocations: $short for 4 x 24 tokens, $long for 4 x 160 tokens"
[ -n "$short" ] && [ -n "$long" ] || { echo "FAIL: the shim reported nothing"; exit 1; }
# a few allocations may differ run to run (thread start-up), none may come per token
if [ $((long - short)) -gt 16 ] || [ $((short - long)) -gt 16 ]; then
  echo "FAIL: $((long - short)) more allocations for 544 more tokens"
  exit 1
fi
echo "no allocation per token"
