#!/usr/bin/env bash
# The layering of src/ (src/layers.txt, lowest layer first; the same table CMakeLists.txt builds
# from): every `#include "<layer>/..."` under src/ names its own layer or a lower one, an
# *_internal.h header is included only from its own folder, no include climbs out with "..", and
# every folder of src/ is a layer. Prints each include that breaks a rule and fails.
set -eu
src=${HLORUN_SOURCE_DIR:?HLORUN_SOURCE_DIR must name the repository}/src
layers=$(grep -E '^[a-z]' "$src/layers.txt")

status=0
for d in "$src"/*/; do
  name=$(basename "$d")
  if ! grep -qx "$name" <<<"$layers"; then
    echo "src/$name/: a folder that is not a layer in src/layers.txt"
    status=1
  fi
done

# One line per include: file, line number, included path.
violations=$(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | sed 's|^\./||' | sort |
  xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null |
  awk -v layers="$layers" '
    BEGIN { n = split(layers, l, "\n"); for (i = 1; i <= n; i++) rank[l[i]] = i }
    {
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
      inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
      dir = file; sub(/\/[^\/]*$/, "", dir)
      from = file; sub(/\/.*/, "", from)
      where = "src/" file ":" line ": #include \"" inc "\": "
      if (inc ~ /(^|\/)\.\.(\/|$)/) { print where "climbs out of its folder with .."; next }
      if (inc !~ /\//) next                 # a header of the same folder
      if (inc ~ /^hlorun\//) next           # the public API (include/hlorun)
      to = inc; sub(/\/.*/, "", to)
      if (!(to in rank)) { print where to " is not a layer"; next }
      if (rank[to] > rank[from]) { print where to " is above " from " in src/layers.txt"; next }
      idir = inc; sub(/\/[^\/]*$/, "", idir)
      if (inc ~ /_internal\.h$/ && idir != dir) print where "an internal header of src/" idir "/, included from src/" dir "/"
    }')
if [ -n "$violations" ]; then
  echo "$violations"
  status=1
fi
[ "$status" -eq 0 ] && echo "layers: every include under src/ follows src/layers.txt ($(echo $layers))"
exit $status
