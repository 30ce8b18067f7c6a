# Sourced by mock_counts.sh and lowered_counts.sh: the build they read, the
# precisions asked for (arguments; all three by default), a scratch folder
# removed on exit, and the example steps they count.
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/bin
precisions=${*:-f32 f16 bf16}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
examples="mlp/train_step.mlir mlp/train_step_momentum.mlir mlp/train_step_adamw.mlir
  cnn/train_step.mlir transformer/train_step.mlir transformer-tokens/train_step.mlir"
