#!/usr/bin/env bash
# Prepares build/cuda-check/: everything a GPU machine needs to run the CUDA
# path with no LLVM/MLIR there (the device tool's machine has CUDA and
# Python but no MLIR): CUDA artifacts of the example steps compiled here,
# amp-train, libamprt, libamprt_cuda and OpenBLAS, the CPU runs of the same
# steps as references, run.sh (scripts/cuda-device-run.sh) and the GPU
# benchmark against PyTorch (bench/cuda_step).
#
#   scripts/cuda-device-bundle.sh            # here, after scripts/build.sh
#   then, on the GPU machine (device tool: carry ["build/cuda-check.tar.xz"],
#   which fits the tool's 64 MiB where the folder, with oneDNN and OpenBLAS,
#   does not):
#   tar -C /tmp -xJf build/cuda-check.tar.xz && bash /tmp/cuda-check/run.sh "$OUT"
#
# Each line of CONFIGS: name, example step, precision, amp-train arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=$build/cuda-check
CONFIGS="
mlp-f16 examples/mlp/train_step_momentum.mlir f16 --data=synthetic --steps=200
mlp-bf16 examples/mlp/train_step_adamw.mlir bf16 --data=synthetic --steps=200
mlp-f32 examples/mlp/train_step.mlir f32 --data=synthetic --steps=50
tokens-bf16 examples/transformer-tokens/train_step.mlir bf16 --data=tokens --steps=300
cnn-f16 examples/cnn/train_step.mlir f16 --data=synthetic --steps=60
"
[ -f "$build/lib/libamprt_cuda.so" ] ||
  { echo "no build/lib/libamprt_cuda.so: build with the CUDA toolkit first" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/artifacts" "$out/reference"
cp "$build/bin/amp-train" "$out/bin/"
cp "$build/lib/libamprt.so" "$build/lib/libamprt_cuda.so" "$out/lib/"
for lib in libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 libdnnl.so.2 libzip.so.4 libbz2.so.1.0; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$out/lib/"
done
cp "$root/scripts/cuda-device-run.sh" "$out/run.sh"
cp "$root/test/Integration/CPU/Inputs/check_train.py" "$out/"
echo "$CONFIGS" | sed '/^$/d' > "$out/configs.txt"
# The GPU benchmark (bench/cuda_step): bench_step, the CUDA steps of the
# MLP, the transformer and the epilogue benchmark, and the PyTorch models
# they were exported from.
mkdir -p "$out/bench"
cp "$root/bench/cuda_step/run.py" "$root/bench/cuda_step/torch_amp_step.py" \
  "$root/bench/cpu_step/bench_models.py" "$root/examples/torch/models.py" "$out/bench/"
cc -O2 "$root/bench/cpu_step/bench_step.c" -I "$root/runtime/include" \
  -L "$build/lib" -lamprt -o "$out/bin/bench_step"
for model in mlp:examples/mlp/train_step_momentum.mlir \
  transformer:examples/transformer/train_step.mlir epilogue:bench/cuda_step/epilogue_step.mlir; do
  for mode in fp32 fp16 bf16; do
    "$build/bin/amp-compile" "$root/${model#*:}" --target=cuda \
      --precision="${mode/fp/f}" -o "$out/bench/${model%%:*}-$mode.so"
  done
done
while read -r name source precision args; do
  [ -n "$name" ] || continue
  "$build/bin/amp-compile" "$root/$source" --precision="$precision" --target=cuda \
    -o "$out/artifacts/$name.so"
  "$build/bin/amp-compile" "$root/$source" --precision="$precision" -o "$out/reference/$name-cpu.so"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$build/bin/amp-train" "$out/reference/$name-cpu.so" $args --quiet \
    --log="$out/reference/$name.csv" > "$out/reference/$name.out"
  python3 -c "import sys, time; print(sys.argv[1], f'{time.time() - float(sys.argv[2]):.2f}')" \
    "$name" "$start" >> "$out/reference/cpu-seconds.txt"
  rm "$out/reference/$name-cpu.so"
done < "$out/configs.txt"
tar -C "$build" -cf - cuda-check | xz -T0 -6 > "$out.tar.xz.partial"
mv "$out.tar.xz.partial" "$out.tar.xz"
du -sh "$out" "$out.tar.xz"
