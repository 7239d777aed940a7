# Shared by bench/serve_load.sh and bench/grpc_load.sh (sourced; they set $root, $work, $py,
# $hlorun and $server_pid): the two benchmark models exported into $work/MODEL/1/model.hlo, the
# wait for the port a server prints, and stopping it.

server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill -KILL "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# export_small / export_transformer: the MLP (64 inputs) and the TinyTransformer as artifacts
export_small() {
  "$py" "$root/tests/server/mlp_weights.py" "$work/mlp.safetensors"
  mkdir -p "$work/small/1"
  "$hlorun" export "$root/tests/server/data/mlp.mlir" --weights "$work/mlp.safetensors" -o "$work/small/1/model.hlo" >/dev/null
}
export_transformer() {
  "$py" "$root/tools/tiny_transformer/tiny_transformer.py" weights "$work/tt.safetensors" >/dev/null
  mkdir -p "$work/transformer/1"
  "$hlorun" export "$root/examples/tiny_transformer/model.mlir" --weights "$work/tt.safetensors" \
    -o "$work/transformer/1/model.hlo" >/dev/null
}

# wait_port PREFIX NAME: the port on the "PREFIXlistening on 127.0.0.1:PORT" line the server
# writes to $work/server.out (printed on stdout); exits naming NAME when it does not come
wait_port() {
  local found=
  for _ in $(seq 600); do
    found=$(sed -n "s/^$1listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p" "$work/server.out" | head -1)
    [ -n "$found" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "$2: the server exited" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$found" ] || { echo "$2: the server did not start" >&2; exit 1; }
  echo "$found"
}

stop_server() {
  kill -TERM "$server_pid"
  for _ in $(seq 300); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}
