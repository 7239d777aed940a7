# The preamble test scripts share (sourced, not run: `. "$(dirname "$0")/../lib.sh"`): a temporary
# directory $tmp removed at exit, failures counted by fail() in $failures and reported by finish,
# skipping (exit 77) when ../shared material or numpy is missing, and .npy comparison.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
py=/usr/bin/python3 # Debian's, with python3-numpy (scripts/install-deps.sh)

# fail MESSAGE: records one failure.
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# need_dir DIR: skips the test (exit 77) when DIR (material of ../shared) is absent.
need_dir() {
  [ -d "$1" ] || { echo "$1 not found; skipping"; exit 77; }
}

# need_numpy: skips the test (exit 77) when Debian's python3 has no numpy.
need_numpy() {
  "$py" -c "import numpy" 2>/dev/null || { echo "python3-numpy is not installed; skipping"; exit 77; }
}

# npy_equal GOT WANT: whether two .npy files hold the same dtype and values (exit status).
npy_equal() {
  "$py" -c 'import sys, numpy as np
got, want = np.load(sys.argv[1]), np.load(sys.argv[2])
sys.exit(0 if got.dtype == want.dtype and np.array_equal(got, want) else 1)' "$1" "$2"
}

# finish SUMMARY: exits 1 naming the failure count, or prints SUMMARY (and the script goes on to
# exit 0).
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures failures" >&2
    exit 1
  fi
  echo "$1"
}
