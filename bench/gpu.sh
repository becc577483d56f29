#!/usr/bin/env bash
# bench/gpu.sh: the decode-step benchmark at the Qwen3-4B shape on an NVIDIA GPU, with random
# AWQ-shaped weights (4-bit MatMulNBits, group 128, float classifier), through ONNX Runtime's CUDA
# execution provider. Writes bench/results/gpu.json. Meant to finish in under 5 minutes.
#
#   bash bench/gpu.sh            # from the repository root or anywhere
#
# What it needs, and where each piece comes from:
#   - bun:            on PATH, else installed from the npm registry (npm install -g bun@1.4.5)
#   - node_modules:   bun install from the npm registry (onnxruntime-node's own download skipped)
#   - CUDA provider:  libonnxruntime_providers_{cuda,shared}.so next to onnxruntime-node's binding.
#                     They are not on the npm registry (too large for it): set RTOOL_ORT_CUDA_LIBS to
#                     a folder holding them, or the script runs onnxruntime-node's own CUDA install
#                     step, which downloads them from ONNX Runtime's package feed.
#   - CUDA 12 and cuDNN 9 runtime libraries on the machine (the GPU driver's side; not installed here).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
say() { echo "[gpu.sh $(($(date +%s) - started))s] $*"; }

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu.sh: no NVIDIA GPU visible (nvidia-smi missing or failing); run bench:quant for the CPU" >&2
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader

if ! command -v bun >/dev/null 2>&1; then
  say "installing bun from the npm registry"
  npm install -g bun@1.4.5
fi

if [ ! -d packages/core/node_modules/onnxruntime-node ]; then
  say "bun install (npm registry)"
  ONNXRUNTIME_NODE_INSTALL=skip bun install --frozen-lockfile
fi

ort_pkg=$(cd packages/core && bun -e 'console.log(require("node:path").dirname(require.resolve("onnxruntime-node/package.json")))')
ort_bin="$ort_pkg/bin/napi-v6/linux/x64"
if [ ! -f "$ort_bin/libonnxruntime_providers_cuda.so" ]; then
  if [ -n "${RTOOL_ORT_CUDA_LIBS:-}" ]; then
    say "CUDA provider libraries from $RTOOL_ORT_CUDA_LIBS"
    cp "$RTOOL_ORT_CUDA_LIBS"/libonnxruntime_providers_*.so "$ort_bin/"
  else
    say "CUDA provider libraries: onnxruntime-node's install step (ONNX Runtime's package feed)"
    (cd "$ort_pkg" && ONNXRUNTIME_NODE_INSTALL=cuda12 node script/install.js)
  fi
fi

library_path="${LD_LIBRARY_PATH:-}"
for lib in libcudart.so.12 libcublas.so.12 libcudnn.so.9; do
  # shellcheck disable=SC2086 # split the path list on purpose
  if ! ldconfig -p 2>/dev/null | grep -q "$lib" && ! ls ${library_path//:/ } 2>/dev/null | grep -q "^$lib"; then
    echo "gpu.sh: warning: $lib not found by ldconfig or in LD_LIBRARY_PATH; the CUDA provider may fail to load" >&2
  fi
done

say "benchmark: qwen3-4b, int4 AWQ-shaped, CUDA"
timeout 270 bun bench/quant.ts --provider cuda --awq --shapes qwen3-4b --dtypes int4 --out bench/results/gpu.json
say "done: bench/results/gpu.json"
