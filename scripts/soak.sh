#!/usr/bin/env bash
# Soak test of `hlorun serve` on loopback (tests/server/soak.py): mixed valid, invalid, slow and
# oversized requests and smuggling shapes while the model is hot-reloaded, then a report of
# requests served, answers by class, and RSS, file descriptors and threads at start and end.
#   scripts/soak.sh [REQUESTS [RELOADS]]   (default 18000 and 100: 30 minutes at 10 requests/s)
# Uses build/rel/hlorun (built here when missing) unless HLORUN_BIN names another binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
requests=${1:-18000}
reloads=${2:-100}
export HLORUN_BIN=${HLORUN_BIN:-$root/build/rel/hlorun}
if [ ! -x "$HLORUN_BIN" ]; then
  "$root/scripts/install-deps.sh"
  cmake -S "$root" -B "$root/build/rel" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  ninja -C "$root/build/rel" hlorun
fi
extra=()
# AddressSanitizer's quarantine keeps freed memory, so RSS says nothing there (LeakSanitizer
# checks for leaks when the server exits). ldd's output is read whole first: piped into `grep -q`
# under pipefail, ldd could die of SIGPIPE after the match and the check would be lost at random.
libs=$(ldd "$HLORUN_BIN" 2>/dev/null || true)
if [[ $libs == *libasan* ]]; then
  extra=(--no-rss-check)
  echo "(AddressSanitizer build: no RSS check)"
fi
# Bounded: at the default size the run takes a few minutes; the hard limit is an hour.
exec bash "$root/tests/server/run_python.sh" soak.py 3600 --requests "$requests" --reloads "$reloads" "${extra[@]}"
