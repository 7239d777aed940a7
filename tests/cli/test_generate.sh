#!/usr/bin/env bash
# `hlorun generate` on the TinyTransformer's generation module (examples/tiny_transformer/
# generate.mlir): greedy text equals the float64 numpy reference byte for byte for 3 prompts x 200
# tokens, from the module with its weights and from an exported artifact; a seed gives the same
# sampled text twice and another seed other text; a stop string cuts the text before it;
# --parallel runs several sequences and reports their rates; a module without @prefill/@decode is
# refused naming the convention. Skipped (77) without numpy.
set -eu
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
src=${HLORUN_SOURCE_DIR:?}
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "numpy is not available to $py; skipping"
  exit 77
fi
tt="$py $src/tools/tiny_transformer/tiny_transformer.py"
model="$src/examples/tiny_transformer/generate.mlir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
$tt weights w.safetensors
"$bin" export "$model" --weights w.safetensors -o gen.hlo >/dev/null
fail=0

# Greedy: the reference (incremental float64 forward, checked against the full forward by the tool)
i=0
for prompt in "Hello, world" "The quick brown fox jumps over the lazy dog" "JAX exports StableHLO; hlorun runs it."; do
  i=$((i + 1))
  $tt generate w.safetensors --prompt "$prompt" --max-tokens 200 --incremental | head -c -1 >"ref$i.bin" # less its newline
  "$bin" generate "$model" --weights w.safetensors --prompt "$prompt" --max-tokens 200 >"out$i.bin" 2>"err$i.txt"
  "$bin" generate gen.hlo --prompt "$prompt" --max-tokens 200 >"art$i.bin" 2>/dev/null
  if [ "$(stat -c %s "ref$i.bin")" != 200 ] || ! cmp -s "ref$i.bin" "out$i.bin" || ! cmp -s "ref$i.bin" "art$i.bin"; then
    echo "FAIL: prompt $i: hlorun's greedy text differs from the numpy reference"
    cmp "ref$i.bin" "out$i.bin" || true
    fail=1
  fi
  grep -q "200 tokens (finish: length); time to first token" "err$i.txt" || { echo "FAIL: no rate line"; cat "err$i.txt"; fail=1; }
done

# The two functions as files of their own (jax.export writes one function per file), each @main
mkdir fns
sed -e 's/@main(/@forward(/' -e 's/@prefill(/@main(/' "$model" >fns/prefill.mlir
sed -e 's/@main(/@forward(/' -e 's/@decode(/@main(/' "$model" >fns/decode.mlir
"$bin" generate fns --weights w.safetensors --prompt "Hello, world" --max-tokens 50 >fns.bin 2>/dev/null
cmp -s fns.bin <(head -c 50 ref1.bin) || { echo "FAIL: a directory of prefill.* and decode.* files"; fail=1; }

# Seeds: sampled text is reproducible
sample() { "$bin" generate gen.hlo --prompt "Once upon a time" --max-tokens 100 --temperature 0.9 --top-k 40 --top-p 0.95 --seed "$1" 2>/dev/null; }
sample 5 >s5a.bin
sample 5 >s5b.bin
sample 6 >s6.bin
cmp -s s5a.bin s5b.bin || { echo "FAIL: seed 5 gave two different texts"; fail=1; }
if cmp -s s5a.bin s6.bin; then echo "FAIL: seeds 5 and 6 gave the same text"; fail=1; fi

# A stop string: the text ends before the first occurrence of two bytes taken from the greedy text
stop=$("$py" -c "
import sys; b = open('ref1.bin', 'rb').read()
i = next(k for k in range(1, len(b) - 1) if 32 <= b[k] < 127 and 32 <= b[k + 1] < 127)
sys.stdout.write(b[i:i + 2].decode())")
"$bin" generate gen.hlo --prompt "Hello, world" --max-tokens 200 --stop "$stop" >stop.bin 2>stop.txt
want=$("$py" -c "
b = open('ref1.bin', 'rb').read(); print(b.index('$stop'.encode()))")
[ "$(stat -c %s stop.bin)" = "$want" ] && cmp -s stop.bin <(head -c "$want" ref1.bin) && grep -q "finish: stop" stop.txt ||
  { echo "FAIL: --stop '$stop': $(stat -c %s stop.bin) bytes, want $want"; fail=1; }

# --parallel: four sequences at once, a JSON line of rates
"$bin" generate gen.hlo --prompt "Hello" --max-tokens 16 --parallel 4 2>/dev/null >par.json
"$py" -c "
import json; r = json.load(open('par.json'))
assert r['sequences'] == 4 and r['tokens'] == 64 and r['tokens_per_second'] > 0, r" ||
  { echo "FAIL: --parallel 4"; cat par.json; fail=1; }

# A module without @prefill and @decode
if "$bin" generate "$src/examples/tiny_transformer/model.mlir" --weights w.safetensors --prompt x 2>refused.txt; then
  echo "FAIL: a module without @prefill/@decode generated"; fail=1
fi
grep -q "no public @prefill and @decode" refused.txt || { echo "FAIL: refusal message"; cat refused.txt; fail=1; }
[ $fail = 0 ] && echo "generate: all checks passed"
exit $fail
