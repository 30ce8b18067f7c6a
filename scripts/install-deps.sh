#!/usr/bin/env bash
# Installs what amp-mlir needs on Debian 12 (run as root). Idempotent: only
# missing packages are fetched.
set -euo pipefail
packages=(
  cmake ninja-build clang-14 lld-14 ccache python3 gcc libc6-dev zlib1g-dev
  libopenblas-dev libdnnl-dev ocl-icd-opencl-dev libgtest-dev libcli11-dev libxxhash-dev libzip-dev libclang-rt-14-dev
  openmpi-bin libopenmpi-dev
  python3-numpy python3-venv
  dataset-fashion-mnist
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# PyTorch 2.x, torch-mlir and model libraries for the front end (a venv).
"$(dirname "$0")/install-torch2.sh"
