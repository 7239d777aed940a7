#!/usr/bin/env bash
# The TinyTransformer codelab, in C: the same model through every path hlorun offers.
#   0. correctness: hlorun's logits against an independent numpy reference; the baked variant
#   1. JIT: the first call (compile + run) against the mean of 100 cached calls
#   2. AOT: `hlorun compile` for fixed shapes; first execution against steady state; max |JIT - AOT|
#   3. the IR: the program text (preview), and the full specialized text written to a file
#   4. throughput over batch sizes
#   5. a portable artifact: one file with program, metadata and weights, run by another process
#   6. a StableHLO portable artifact (MLIR bytecode, as jax.export serializes it) written and run
#   7. the codelab's path 3: a jax.export file (Exported.serialize()) of the closure over the
#      parameters, inspected, run and compared with AOT
#   8. the codelab's path 4: a SavedModel as jax2tf writes it (parameters as variables) in a
#      version directory, served by `hlorun serve` as TF Serving would serve it, a prediction over
#      REST compared with AOT; the file sizes of every form
#   9. the codelab's next step: generation with a KV cache (generate.mlir: @prefill and @decode),
#      greedy text against the numpy reference, then 16 sequences at once (continuous batching)
# Usage: demo.sh HLORUN_BINARY [WORK_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hlorun=${1:?usage: demo.sh HLORUN_BINARY [WORK_DIR]}
work=${2:-$root/build/demo}
py=/usr/bin/python3
tt="$py $root/tools/tiny_transformer/tiny_transformer.py"
model=$here/model.mlir
batches=${HLORUN_DEMO_BATCHES:-1,4,16,64}
mkdir -p "$work"
cd "$work"

echo "== weights and inputs"
$tt weights weights.safetensors
$tt tokens tokens_b1.npy --batch 1
$tt tokens tokens_b2.npy --batch 2
echo "weights.safetensors: Flax-style initialisation, seed 0; tokens: random bytes, seed 1"

echo
echo "== 0. correctness against the numpy reference (float64)"
$tt reference weights.safetensors tokens_b2.npy reference_b2.npy
"$hlorun" run "$model" --weights weights.safetensors --input tokens=tokens_b2.npy --output jit_b2 --quiet
$py - <<'PY'
import numpy as np
ref, out = np.load("reference_b2.npy"), np.load("jit_b2/out0.npy")
diff = float(np.abs(ref - out).max())
print(f"logits {out.shape}: max |hlorun - numpy| = {diff:.3g}  ({'ok' if diff < 1e-4 else 'TOO LARGE'}, limit 1e-4)")
assert diff < 1e-4
PY

echo "the variant with the parameters baked in as constants (what jax.jit of a closure over the"
echo "parameters lowers to) computes the same logits:"
$py "$root/tools/tiny_transformer/gen_mlir.py" model_baked.mlir --baked weights.safetensors
"$hlorun" compare "$model" model_baked.mlir --weights weights.safetensors --input tokens=tokens_b2.npy

echo
echo "== 1. JIT"
"$hlorun" bench "$model" --weights weights.safetensors --batches 1 --jit-calls 100 --no-throughput

echo
echo "== 2. AOT"
"$hlorun" compile "$model" --weights weights.safetensors --shape tokens=1x256 -o tiny_b1.hlox
"$hlorun" bench tiny_b1.hlox --jit-calls 100
echo "max |JIT - AOT|:"
"$hlorun" compare "$model" tiny_b1.hlox --weights weights.safetensors --input tokens=tokens_b1.npy

echo
echo "== 3. IR"
"$hlorun" inspect --ir "$model" --out model_ir.mlir --preview 20
echo
echo "the program compiled for batch 1 (inlined, shapes folded, static):"
"$hlorun" inspect --ir tiny_b1.hlox --out tiny_b1_ir.mlir --preview 20

echo
echo "== 4. throughput (batch x 256 tokens)"
"$hlorun" bench "$model" --weights weights.safetensors --batches "$batches" --jit-calls 1 --no-first

echo
echo "== 5. portable artifact"
"$hlorun" export "$model" --weights weights.safetensors -o tiny.hlo
"$hlorun" inspect tiny.hlo | sed -n '/^inputs:/,$p'
"$hlorun" run tiny.hlo --input tokens=tokens_b1.npy --output artifact_b1 --quiet
echo "a new process ran tiny.hlo without model.mlir or the weights file; max |artifact - AOT|:"
"$hlorun" compare tiny.hlo tiny_b1.hlox --input tokens=tokens_b1.npy
echo "the same artifact serves any batch size (compiled per shape on first use):"
"$hlorun" run tiny.hlo --input tokens=tokens_b2.npy --output artifact_b2 --quiet
$py -c "import numpy as np; print('batch 2 from the artifact: max |artifact - JIT| =', float(np.abs(np.load('artifact_b2/out0.npy') - np.load('jit_b2/out0.npy')).max()))"

echo
echo "== 6. StableHLO portable artifact (the MLIR bytecode jax.export serializes in its files)"
"$hlorun" convert model_baked.mlir model_baked.mlirbc
"$hlorun" inspect model_baked.mlirbc | head -2
"$hlorun" run model_baked.mlirbc --input tokens=tokens_b2.npy --output bytecode_b2 --quiet
$py -c "import numpy as np; print('batch 2 from the bytecode: max |bytecode - JIT| =', float(np.abs(np.load('bytecode_b2/out0.npy') - np.load('jit_b2/out0.npy')).max()))"

echo
echo "== 7. jax.export (the codelab's path 3: exported.serialize() of the closure over the parameters)"
echo "written here by hlorun convert in the format jax.export.deserialize reads (serialization"
echo "version 10, StableHLO 1.8 inside); a file JAX wrote is read the same way (tests/formats/test_exported.sh)"
"$hlorun" convert model_baked.mlir tiny_transformer_jax_export.bin
"$hlorun" inspect tiny_transformer_jax_export.bin | grep -E '^(fun_name|in_avals|out_avals|platforms|nr_devices|calling_convention_version):'
"$hlorun" run tiny_transformer_jax_export.bin --input tokens=tokens_b1.npy --output export_b1 --quiet
echo "the deserialized call succeeded; max |jax.export - AOT|:"
"$hlorun" compare tiny_transformer_jax_export.bin tiny_b1.hlox --input tokens=tokens_b1.npy

echo
echo "== 8. SavedModel (the codelab's path 4, for TF Serving: saved_model.pb + variables/ in a version directory)"
rm -rf models
"$hlorun" convert "$model" models/tiny_transformer/1 --to savedmodel --weights weights.safetensors
"$hlorun" inspect models/tiny_transformer/1 | sed -n '/^signature/,/^XlaCallModule/p'
"$hlorun" run tiny_b1.hlox --input tokens=tokens_b1.npy --output aot_b1 --quiet
"$hlorun" serve --model_base_path "$PWD/models/tiny_transformer" --model_name tiny_transformer --rest_api_port 0 --port 0 \
  >serve.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do grep -q '^listening on' serve.log && break; sleep 0.1; done
address=$(sed -n 's/^listening on //p' serve.log)
echo "hlorun serve: http://$address/v1/models/tiny_transformer (as tensorflow_model_server --rest_api_port would)"
$py - "$address" <<'PY'
import json, sys, urllib.request
import numpy as np
base = f"http://{sys.argv[1]}/v1/models/tiny_transformer"
status = json.load(urllib.request.urlopen(base))
print("status:", status["model_version_status"][0]["state"], "version", status["model_version_status"][0]["version"])
tokens = np.load("tokens_b1.npy")
body = json.dumps({"signature_name": "serving_default", "instances": [{"tokens": tokens[0].tolist()}]}).encode()
reply = json.load(urllib.request.urlopen(urllib.request.Request(base + ":predict", body)))
logits = np.array(reply["predictions"], np.float32)
aot = np.load("aot_b1/out0.npy")
print(f"REST predict {logits.shape}: max |SavedModel served - AOT| = {float(np.abs(logits - aot).max()):.3g}")
PY
kill $server
wait $server 2>/dev/null || true
trap - EXIT

echo
printf '%-32s %12s\n' file bytes
for f in "$model" weights.safetensors model_baked.mlir model_baked.mlirbc tiny_transformer_jax_export.bin tiny.hlo tiny_b1.hlox \
    models/tiny_transformer/1/saved_model.pb models/tiny_transformer/1/variables/variables.data-00000-of-00001 \
    models/tiny_transformer/1/variables/variables.index; do
  printf '%-32s %12d\n' "$(basename "$f")" "$(stat -c %s "$f")"
done

echo
echo "== 9. text generation with a KV cache (the codelab's next step; docs/generation.md)"
gen=$here/generate.mlir
prompt="The TinyTransformer, served from C"
"$hlorun" generate "$gen" --weights weights.safetensors --prompt "$prompt" --max-tokens 64 >generated.bin
$tt generate weights.safetensors --prompt "$prompt" --max-tokens 64 --incremental | head -c -1 >generated_ref.bin
if cmp -s generated.bin generated_ref.bin; then
  echo "greedy, 64 tokens: the same bytes as the numpy reference (random weights: the text is noise)"
else
  echo "greedy text differs from the numpy reference"; exit 1
fi
echo "16 sequences at once:"
"$hlorun" generate "$gen" --weights weights.safetensors --prompt "$prompt" --max-tokens 64 --parallel 16 >/dev/null
