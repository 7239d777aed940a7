#!/usr/bin/env bash
# The playground page (GET /, src/server/playground.html) in a headless Chromium: serves the
# TinyTransformer's generation module (examples/tiny_transformer/generate.mlir) as model "tiny",
# opens the page and drives it over the Chrome DevTools Protocol (tests/server/playground_cdp.py:
# the models panel, a greedy generation streamed into the page and compared with the
# non-streaming answer, Stop, the predict form). PLAYGROUND_SCREENSHOT=FILE.png also writes a
# screenshot of the page after the generation (docs/playground.png is made this way).
# Skipped (77) when chromium, python3-websocket, numpy or the module is missing.
set -euo pipefail
bin=${HLORUN_BIN:?HLORUN_BIN must point to the hlorun binary}
here=$(cd "$(dirname "$0")" && pwd)
root=${HLORUN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
py=/usr/bin/python3
module=$root/examples/tiny_transformer/generate.mlir

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$py" ] || skip "no $py"
"$py" -c 'import numpy' 2>/dev/null || skip "python3-numpy is not installed"
"$py" -c 'import websocket' 2>/dev/null || skip "python3-websocket is not installed"
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip "chromium is not installed"
command -v setsid >/dev/null || skip "no setsid"
"$bin" serve --help >/dev/null 2>&1 || skip "this hlorun has no serve command"
[ -f "$module" ] || skip "no $module"

tmp=$(mktemp -d)
server_pid=
chrome_pid=
cleanup() {
  # Chromium runs in a process group of its own (setsid): the browser and all its children
  if [ -n "$chrome_pid" ]; then
    kill -TERM -- "-$chrome_pid" 2>/dev/null || true
    for _ in $(seq 20); do kill -0 -- "-$chrome_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$chrome_pid" 2>/dev/null || true
    wait "$chrome_pid" 2>/dev/null || true
  fi
  if [ -n "$server_pid" ]; then kill -KILL "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  [ -f "$tmp/server.log" ] && tail -20 "$tmp/server.log"
  [ -f "$tmp/chrome.log" ] && grep -v 'dbus/' "$tmp/chrome.log" | tail -20
  exit 1
}

# the model: TinyTransformer weights and the prefill/decode module, as docs/generation.md exports it
mkdir -p "$tmp/models/tiny/1"
"$py" "$root/tools/tiny_transformer/tiny_transformer.py" weights "$tmp/W.safetensors" >/dev/null
"$bin" export "$module" --weights "$tmp/W.safetensors" -o "$tmp/models/tiny/1/model.hlo" >/dev/null ||
  fail "hlorun export $module"

"$bin" serve --port -1 --rest_api_port 0 --model_name tiny --model_base_path "$tmp/models/tiny" \
  >"$tmp/server.out" 2>"$tmp/server.log" &
server_pid=$!
port=
for _ in $(seq 600); do
  port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$tmp/server.out" | head -1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited at start"
  sleep 0.1
done
[ -n "$port" ] || fail "the server did not print 'listening on 127.0.0.1:PORT'"

# the browser: --remote-debugging-port=0 picks a free port and writes it to DevToolsActivePort in
# the profile directory, where playground_cdp.py reads it
setsid "$chromium" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --no-default-browser-check --remote-debugging-port=0 --user-data-dir="$tmp/chrome" about:blank \
  >"$tmp/chrome.log" 2>&1 &
chrome_pid=$!

shot=()
if [ -n "${PLAYGROUND_SCREENSHOT:-}" ]; then shot=(--screenshot "$PLAYGROUND_SCREENSHOT"); fi
timeout --kill-after=10 180 "$py" -B "$here/playground_cdp.py" --devtools "$tmp/chrome" \
  --url "http://127.0.0.1:$port" --model tiny --max-tokens 150 --timeout 60 "${shot[@]}" ||
  fail "playground_cdp.py"
echo "PASS"
