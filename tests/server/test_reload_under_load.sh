#!/usr/bin/env bash
# Hot-swapping versions under load. While loadgen keeps 4 keep-alive connections of predictions
# going, 20 new versions of a model (y = x + VERSION) are installed the way a deployment does it
# (the version directory is written under a temporary name, then renamed into the base path), and
# one corrupt version (a flipped byte: CRC mismatch) arrives between them. Asserts:
#   - every swap is picked up: the new version becomes AVAILABLE and answers;
#   - the corrupt version is rejected while the previous version keeps serving;
#   - 0 failed requests over the whole run (any non-2xx answer, transport error, or 2xx without
#     "predictions");
#   - the final version is the latest good one, and it is the only one AVAILABLE;
#   - the server exits 0 on SIGTERM.
# The server batches requests (max_batch_size 8, batch_timeout_micros 1000), so that swaps also
# meet batches queued for the old version; RELOAD_BATCHING=0 serves without batching.
# loadgen paces its 4 connections to 400 requests/s in all, so that the swaps and their checks
# get CPU time on a small machine. Bounded to about a minute (hard limits: 40 s per swap, 150 s
# in all).
set -euo pipefail
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
here=$(cd "$(dirname "$0")" && pwd)
root=${HLORUN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
py=/usr/bin/python3

skip() { echo "SKIP: $*"; exit 77; }
command -v curl >/dev/null || skip "curl is not installed"
[ -x "$py" ] || skip "no $py"
"$bin" serve --help >/dev/null 2>&1 || skip "this hlorun has no serve command"

tmp=$(mktemp -d)
server_pid=
loadgen_pid=
cleanup() {
  if [ -n "$loadgen_pid" ]; then kill -KILL "$loadgen_pid" 2>/dev/null || true; fi
  if [ -n "$server_pid" ]; then kill -KILL "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/server.log" ] && tail -20 "$tmp/server.log"; exit 1; }
start=$SECONDS
check_budget() { [ $((SECONDS - start)) -lt 150 ] || fail "over the 150 s budget"; }

# loadgen: next to hlorun when CMake built it, else compiled here from tools/loadgen/loadgen.c
loadgen=${LOADGEN_BIN:-$(dirname "$bin")/loadgen}
if [ ! -x "$loadgen" ]; then
  command -v cc >/dev/null || skip "no loadgen binary and no C compiler"
  cc -std=c17 -O2 -pthread -D_GNU_SOURCE -o "$tmp/loadgen" "$root/tools/loadgen/loadgen.c"
  loadgen=$tmp/loadgen
fi

# artifacts: good versions 1..11 and 13..22, a corrupt 12
good_versions="$(seq 1 11) $(seq 13 22)"
for v in $good_versions; do
  sed "s/@VERSION@/$v.0/" "$here/data/plus_version.mlir.in" >"$tmp/plus$v.mlir"
  "$bin" export "$tmp/plus$v.mlir" -o "$tmp/plus$v.hlo" >/dev/null
done
"$py" - "$tmp/plus22.hlo" "$tmp/corrupt12.hlo" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 0x5A
open(sys.argv[2], "wb").write(bytes(data))
PY

base=$tmp/models/m
mkdir -p "$base"
# install VERSION FILE: write the version directory under a temporary name, then rename it in
install() {
  local stage=$tmp/models/.staging-$1
  rm -rf "$stage"
  mkdir "$stage"
  cp "$2" "$stage/model.hlo"
  mv -T "$stage" "$base/$1"
}
install 1 "$tmp/plus1.hlo"

serve_args=(--rest_api_port 0 --port -1 --model_name m --model_base_path "$base" --file_system_poll_wait_seconds 1)
if [ "${RELOAD_BATCHING:-1}" != 0 ]; then
  printf 'max_batch_size { value: 8 }\nbatch_timeout_micros { value: 1000 }\nmax_enqueued_batches { value: 1000 }\nnum_batch_threads { value: 2 }\n' \
    >"$tmp/batching.config"
  serve_args+=(--enable_batching --batching_parameters_file "$tmp/batching.config")
fi
"$bin" serve "${serve_args[@]}" >"$tmp/server.out" 2>"$tmp/server.log" &
server_pid=$!
port=
for _ in $(seq 300); do
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$tmp/server.out" | head -1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited at start"
  sleep 0.1
done
[ -n "$port" ] || fail "the server did not print 'listening on 127.0.0.1:PORT'"
url=http://127.0.0.1:$port
body='{"instances": [[1.0, 2.0]]}'

# states: "VERSION:STATE ..." of model m (entries as TF Serving writes them: version, then state);
# served: the version that answers a prediction (y - x), "error" when none does
states() {
  curl -s --max-time 5 "$url/v1/models/m" | tr -d ' \n' |
    grep -o '"version":"[0-9]*","state":"[A-Z]*"' | sed 's/"version":"\([0-9]*\)","state":"\([A-Z]*\)"/\1:\2/' |
    tr '\n' ' ' || true
}
served() {
  local p
  p=$(curl -s --max-time 5 -H 'Content-Type: application/json' -d "$body" "$url/v1/models/m:predict" | tr -d ' \n' |
    sed -n 's/^{"predictions":\[\[\([0-9]*\)\.0,\([0-9]*\)\.0\]\]}$/\1 \2/p')
  if [ -n "$p" ] && [ $((${p#* } - ${p% *})) = 1 ]; then echo $((${p% *} - 1)); else echo error; fi
}
# wait_version V: V becomes AVAILABLE and answers, within 40 s
wait_version() {
  local deadline=$((SECONDS + 40)) s
  until [[ " $(states) " == *" $1:AVAILABLE "* ]]; do
    [ $SECONDS -lt $deadline ] || fail "version $1 did not become AVAILABLE (states: $(states))"
    sleep 0.1
  done
  until [ "$(served)" = "$1" ]; do
    s=$(served)
    [ $SECONDS -lt $deadline ] || fail "version $1 is AVAILABLE but version $s answers"
    sleep 0.05
  done
}
wait_version 1

"$loadgen" --port "$port" --path /v1/models/m:predict --body "$body" --connections 4 --duration 120 \
  --rate 400 --timeout-ms 10000 --expect predictions --quiet >"$tmp/loadgen.out" 2>&1 &
loadgen_pid=$!
sleep 1

swaps=0
for v in $(seq 2 22); do
  check_budget
  if [ "$v" = 12 ]; then
    install 12 "$tmp/corrupt12.hlo"
    # three poll intervals: the server tries version 12 and must keep serving 11
    until_s=$((SECONDS + 3))
    while [ $SECONDS -lt $until_s ]; do
      s=$(served)
      [ "$s" = 11 ] || fail "while the corrupt version 12 is tried, version $s answers (want 11)"
      sleep 0.1
    done
    st=$(states)
    [[ " $st " == *" 11:AVAILABLE "* ]] || fail "version 11 is not AVAILABLE after the corrupt 12: $st"
    [[ " $st " != *" 12:AVAILABLE "* ]] || fail "the corrupt version 12 is AVAILABLE: $st"
    echo "corrupt version 12 rejected, 11 serving ($st)"
    continue
  fi
  install "$v" "$tmp/plus$v.hlo"
  wait_version "$v"
  swaps=$((swaps + 1))
  echo "swap $swaps: version $v serving after $((SECONDS - start)) s"
done
[ "$swaps" = 20 ] || fail "$swaps swaps, want 20"
sleep 1
kill -INT "$loadgen_pid"
wait "$loadgen_pid" || fail "loadgen failed: $(cat "$tmp/loadgen.out")"
loadgen_pid=
result=$(grep '^result ' "$tmp/loadgen.out") || fail "no loadgen result: $(cat "$tmp/loadgen.out")"
echo "$result"
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$result"; }
[ "$(field errors)" = 0 ] || fail "failed requests under reload: $result"
[ "$(field ok)" -ge 1000 ] || fail "too few requests to mean anything: $result"

final=$(states)
echo "final states: $final"
[ "$(tr ' ' '\n' <<<"$final" | grep -c ':AVAILABLE$')" = 1 ] || fail "not exactly one AVAILABLE version: $final"
[[ " $final " == *" 22:AVAILABLE "* ]] || fail "the final version is not 22: $final"
[ "$(served)" = 22 ] || fail "version $(served) answers at the end, want 22"

kill -TERM "$server_pid"
code=0
for _ in $(seq 300); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server_pid" 2>/dev/null && fail "the server did not exit within 30 s of SIGTERM"
wait "$server_pid" || code=$?
server_pid=
[ "$code" = 0 ] || fail "server exit code $code after SIGTERM"
echo "PASS: 20 swaps and a corrupt version under load, 0 failed requests, $((SECONDS - start)) s"
