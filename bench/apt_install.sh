#!/usr/bin/env bash
# Installs Debian packages for the benchmarks (bench/run.sh, bench/generate.sh): apt-get, as root or
# through sudo, without recommended packages, waiting up to 10 minutes for apt's lock.
#   bench/apt_install.sh PACKAGE...      (nothing to do without packages)
set -euo pipefail
[ $# -gt 0 ] || exit 0
echo "== installing $* (apt)"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || { echo "apt-get update failed" >&2; exit 1; }
$sudo apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 "$@" ||
  { echo "apt-get install $* failed" >&2; exit 1; }
