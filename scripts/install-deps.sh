#!/usr/bin/env bash
# Installs the Debian 12 packages hlorun needs to build and test. Skips apt when all are present.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev python3 python3-numpy python3-requests libjansson-dev
  libmicrohttpd-dev libgnutls28-dev openssl liblapacke-dev libblas-dev liblapack-dev libnghttp2-dev nghttp2-client python3-grpcio python3-grpc-tools libzstd-dev zlib1g-dev
  curl prometheus chromium python3-websocket)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
