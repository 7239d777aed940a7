#!/usr/bin/env bash
# gRPC beside REST under load: one `hlorun serve` per model (both ports, batching off), driven by
# h2load (nghttp2-client) with the same tool on both sides: gRPC Predict (PredictRequest with
# tensor_content, one HTTP/2 connection carrying N concurrent streams) and REST :predict (JSON,
# N HTTP/1.1 connections), at each concurrency for a fixed time. Prints one table
#   model | concurrency | protocol | req/s | p50 ms | p99 ms | failed | response bytes
# and, per model and concurrency, the ratios gRPC/REST of req/s and p50. Timings are printed,
# never asserted. p50/p99 come from h2load's per-request log.
#
# Usage: bench/grpc_load.sh HLORUN_BINARY [--models small,transformer] [--duration S]
#                           [--concurrency 1,8,64] [--work DIR]
#   small        the MLP of tests/server/data/mlp.mlir (64 -> 128 -> 10), one row of 64 floats
#   transformer  the TinyTransformer (examples/tiny_transformer), one row of 256 tokens; the
#                answer is 256 x 256 = 65,536 f32 logits (256 KiB as tensor_content)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hlorun=${1:?usage: grpc_load.sh HLORUN_BINARY [--models small,transformer] [--duration S] [--concurrency LIST] [--work DIR]}
hlorun=$(cd "$(dirname "$hlorun")" && pwd)/$(basename "$hlorun")
shift
models=small,transformer
duration=5
concurrency=1,8,64
work=$root/build/grpc_load
while [ $# -gt 0 ]; do
  case $1 in
    --models) models=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "grpc_load.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $duration =~ ^[0-9]+$ ]] && [ "$duration" -ge 1 ] && [ "$duration" -le 60 ] ||
  { echo "grpc_load.sh: --duration must be whole seconds in [1, 60]" >&2; exit 2; }
command -v h2load >/dev/null || { echo "grpc_load.sh: h2load (nghttp2-client) is needed" >&2; exit 2; }
py=/usr/bin/python3
"$py" -c 'import grpc_tools.protoc, numpy' 2>/dev/null ||
  { echo "grpc_load.sh: python3-grpc-tools and python3-numpy are needed" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

. "$root/bench/serve_common.sh"

# Python stubs from proto/, to build the gRPC request bodies
"$py" -m grpc_tools.protoc -I"$root/proto" --python_out="$work" \
  $(cd "$root/proto" && find tensorflow tensorflow_serving -name '*.proto' | sort)

# body_files MODEL VALUES_JSON: writes $work/MODEL.json (REST) and $work/MODEL.grpc (the
# length-prefixed PredictRequest, tensor_content) for one row of VALUES (input name, dtype)
body_files() {
  local model=$1 input=$2 dtype=$3 values=$4
  "$py" - "$work" "$model" "$input" "$dtype" "$values" <<'EOF'
import json, struct, sys
work, model, name, dtype, values = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
sys.path.insert(0, work)
from tensorflow_serving.apis import predict_pb2
from tensorflow.core.framework import types_pb2
with open(f"{work}/{model}.json", "w") as f:
    json.dump({"instances": [values]}, f)
req = predict_pb2.PredictRequest()
req.model_spec.name = model
t = req.inputs[name]
t.dtype = types_pb2.DT_FLOAT if dtype == "f32" else types_pb2.DT_INT32
t.tensor_shape.dim.add().size = 1
t.tensor_shape.dim.add().size = len(values)
t.tensor_content = struct.pack(f"<{len(values)}{'f' if dtype == 'f32' else 'i'}", *values)
msg = req.SerializeToString()
with open(f"{work}/{model}.grpc", "wb") as f:
    f.write(b"\0" + struct.pack(">I", len(msg)) + msg)
EOF
}

# prepare_MODEL: exports the artifact into $work/MODEL/1/model.hlo and writes its request bodies
prepare_small() {
  export_small
  body_files small x f32 "$("$py" -c 'import json; print(json.dumps([((j % 17) - 8) / 8.0 for j in range(64)]))')"
}
prepare_transformer() {
  export_transformer
  body_files transformer tokens i32 "$("$py" -c 'import json, random; r = random.Random(1); print(json.dumps([r.randrange(256) for _ in range(256)]))')"
}

# start_server MODEL: starts hlorun serve on both ports; sets $rest_port and $grpc_port
start_server() {
  "$hlorun" serve --port 0 --rest_api_port 0 --model_name "$1" --model_base_path "$work/$1" \
    >"$work/server.out" 2>"$work/server.log" &
  server_pid=$!
  rest_port=$(wait_port "" grpc_load.sh) || exit 1
  grpc_port=$(wait_port "grpc " grpc_load.sh) || exit 1
}


# response_bytes MODEL: the size of one answer over each protocol ("REST gRPC"), and a check
# that gRPC answers with grpc-status 0 (h2load counts HTTP 200, whatever the grpc-status)
response_bytes() {
  local rest grpc
  rest=$(curl -s --max-time 60 -H 'Content-Type: application/json' --data-binary "@$work/$1.json" \
    -o "$work/rest.out" -w '%{size_download}' "http://127.0.0.1:$rest_port/v1/models/$1:predict")
  grpc=$("$py" - "$work" "$grpc_port" "$1" <<'EOF'
import sys
work, port, model = sys.argv[1], sys.argv[2], sys.argv[3]
import grpc
with open(f"{work}/{model}.grpc", "rb") as f:
    body = f.read()[5:]
ch = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.max_receive_message_length", 64 << 20)])
call = ch.unary_unary("/tensorflow.serving.PredictionService/Predict")
print(len(call(body, timeout=60)) + 5)
EOF
)
  echo "$rest $grpc"
}

# run_cell PROTOCOL MODEL N: one h2load run of $duration seconds; prints "req/s p50 p99 failed"
run_cell() {
  local proto=$1 model=$2 n=$3 args log=$work/h2load.log
  rm -f "$log"
  if [ "$proto" = grpc ]; then
    args=(-c 1 -m "$n" -d "$work/$model.grpc" -H 'content-type: application/grpc' -H 'te: trailers'
          "http://127.0.0.1:$grpc_port/tensorflow.serving.PredictionService/Predict")
  else
    args=(--h1 -c "$n" -m 1 -d "$work/$model.json" -H 'content-type: application/json'
          "http://127.0.0.1:$rest_port/v1/models/$model:predict")
  fi
  local out
  out=$(h2load -D "$duration" --warm-up-time=1 --log-file="$log" "${args[@]}" 2>&1)
  local done failed
  done=$(sed -n 's/^requests: .* \([0-9]*\) done.*/\1/p' <<<"$out")
  failed=$(sed -n 's/^requests: .* \([0-9]*\) failed.*/\1/p' <<<"$out")
  "$py" - "$log" "$duration" "${failed:-?}" <<'EOF'
import sys
log, duration, failed = sys.argv[1], float(sys.argv[2]), sys.argv[3]
lat = sorted(int(line.split("\t")[2]) for line in open(log) if line.strip() and line.split("\t")[1] == "200")
def pct(p):
    return lat[min(len(lat) - 1, int(p * len(lat)))] / 1000 if lat else float("nan")
print(f"{len(lat) / duration:.1f} {pct(0.5):.2f} {pct(0.99):.2f} {failed}")
EOF
}

IFS=, read -r -a model_list <<<"$models"
IFS=, read -r -a conc_list <<<"$concurrency"
printf '%-12s %5s %-5s %10s %9s %9s %7s %10s\n' model conc proto "req/s" "p50 ms" "p99 ms" failed "answer B"
summary=()
for model in "${model_list[@]}"; do
  "prepare_$model"
  start_server "$model"
  read -r rest_bytes grpc_bytes <<<"$(response_bytes "$model")"
  for n in "${conc_list[@]}"; do
    read -r r_rps r_p50 r_p99 r_fail <<<"$(run_cell rest "$model" "$n")"
    read -r g_rps g_p50 g_p99 g_fail <<<"$(run_cell grpc "$model" "$n")"
    printf '%-12s %5s %-5s %10s %9s %9s %7s %10s\n' "$model" "$n" rest "$r_rps" "$r_p50" "$r_p99" "$r_fail" "$rest_bytes"
    printf '%-12s %5s %-5s %10s %9s %9s %7s %10s\n' "$model" "$n" grpc "$g_rps" "$g_p50" "$g_p99" "$g_fail" "$grpc_bytes"
    summary+=("$(awk -v m="$model" -v n="$n" -v gr="$g_rps" -v rr="$r_rps" -v gp="$g_p50" -v rp="$r_p50" \
      -v gb="$grpc_bytes" -v rb="$rest_bytes" 'BEGIN{printf "%-12s c=%-3s gRPC/REST: req/s x%.2f, p50 x%.2f, answer bytes x%.2f", m, n, (rr > 0 ? gr / rr : 0), (rp > 0 ? gp / rp : 0), (rb > 0 ? gb / rb : 0)}')")
  done
  stop_server
done
echo
printf '%s\n' "${summary[@]}"
