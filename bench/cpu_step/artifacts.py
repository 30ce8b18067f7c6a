"""What run.py and memory.py share: the benchmark models' step sources (the
committed examples, or exported here from bench_models.py), amp-compile on
them, and bench_step.c built against libamprt."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
# Exported from bench_models.py; the others are committed examples.
EXPORTED = ("wide", "resnet18", "gpt2")
STEPS_FILE = {"mlp": "examples/mlp/train_step_momentum.mlir",
              "cnn": "examples/cnn/train_step.mlir",
              "transformer": "examples/transformer/train_step.mlir"}


def build_bench_step(tmp, build):
    bench = os.path.join(tmp, "bench_step")
    subprocess.run(["cc", "-O2", os.path.join(here, "bench_step.c"),
                    "-I", os.path.join(root, "runtime", "include"),
                    "-L", os.path.join(build, "lib"), "-lamprt",
                    f"-Wl,-rpath,{os.path.join(build, 'lib')}", "-o", bench],
                   check=True)
    return bench


def step_source(model, tmp, python):
    """The step's MLIR: a committed example, or exported with `python`."""
    if model not in EXPORTED:
        return os.path.join(root, STEPS_FILE[model])
    path = os.path.join(tmp, f"{model}.mlir")
    code = f"""
import sys
sys.path.insert(0, {os.path.join(root, 'python')!r}); sys.path.insert(0, {here!r})
import torch, amp_mlir
from bench_models import build
torch.manual_seed(0)
model, loss, opt, inputs, k = build({model!r})
open({path!r}, "w").write(amp_mlir.export_training_step(model, loss, opt, *inputs,
                                                         model_inputs=k))
"""
    subprocess.run([python, "-c", code], check=True,
                   env=dict(os.environ, HF_HUB_OFFLINE="1"))
    return path


def compile_step(build, source, precision, path, *options):
    compiled = subprocess.run([os.path.join(build, "bin", "amp-compile"), source,
                               f"--precision={precision}", *options, "-o", path],
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        sys.exit(f"amp-compile failed on {source} at {precision}:\n{compiled.stderr}")
    return path
