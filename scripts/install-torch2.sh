#!/usr/bin/env bash
# Installs PyTorch 2.x from PyPI into its own virtual environment for the
# front end (python/amp_mlir), with torch-mlir (its importer) and the model
# libraries of the real-model tests (torchvision, timm, transformers; no
# weights are downloaded). Idempotent.
#
# PyPI's x86_64 torch wheel is built for CUDA and links its libraries at
# import. Most of them come from the CUDA toolkit this machine kind has in
# /usr/local/cuda (on the loader path); the four that toolkit lacks or has
# too old (cuFile, cuSPARSELt, NVSHMEM, NCCL) come as pinned wheels, so the
# download is ~1.2 GB instead of the several GB of PyPI's full CUDA set.
# Nothing here uses a GPU: the front end traces and runs torch on the CPU.
#
# Usage: scripts/install-torch2.sh [VENV]   (default /opt/amp-mlir/torch2;
# lit finds it there, or through AMP_TORCH2_PYTHON)
set -euo pipefail
venv=${1:-/opt/amp-mlir/torch2}
check='import torch, torch_mlir.fx, torchvision, timm, transformers; assert torch.__version__.startswith("2.")'
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null; then
  exit 0
fi
echo "installing torch 2.x into $venv"
/usr/bin/python3 -m venv "$venv"
pip=("$venv/bin/pip" install -q --disable-pip-version-check --no-deps)
# torch's own requirements, less its CUDA metapackages and triton.
"${pip[@]}" \
  torch==2.15.0 \
  nvidia-cufile==1.20.0.107 nvidia-cusparselt-cu13==0.10.0 \
  nvidia-nvshmem-cu13==3.8.0 nvidia-nccl-cu13==2.32.3 \
  filelock==4.3.1 fsspec==2026.9.0 Jinja2==3.1.6 MarkupSafe==3.0.4 \
  mpmath==1.3.0 networkx==3.6.1 sympy==1.14.0 typing_extensions==4.16.0 \
  setuptools numpy==2.4.6
# The importer, and the model libraries with what they import (their own
# requirements less the hub clients' optional extras).
"${pip[@]}" \
  torch-mlir==20261001 packaging==26.4 \
  torchvision==0.29.2 pillow==13.0.0 timm==1.0.31 \
  transformers==5.23.0 huggingface_hub==2.4.0 safetensors==0.8.0 tokenizers==0.23.3 \
  PyYAML==6.0.4 regex==2026.11.19 tqdm==4.70.1 \
  httpx2==2.16.2 httpcore2==2.16.2 h11==0.16.0 idna==3.20 truststore==0.10.5
"$venv/bin/python" -c "$check; print('torch', torch.__version__, 'ok')"
