#!/usr/bin/env bash
# Sets up (Debian packages), builds hlorun (optimized), and runs the bundled TinyTransformer demo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
dir="$root/build/release"
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$dir" hlorun
"$root/examples/tiny_transformer/demo.sh" "$dir/hlorun" "$root/build/demo"
