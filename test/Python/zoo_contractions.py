"""Every matrix product and convolution of every real model (zoo.py),
exported through the front end, reaches a library kernel on the CPU.

Each model's training step is exported once and lowered with
--amp-lower-to-cpu at f32 and under --amp-pipeline=precision=bf16; the IR
that reaches amp-contractions-to-runtime-calls is run through it again with
require-all, which names every contraction it would leave as a loop nest.
Prints per model and precision the library calls made and the loop nests
left: `NAME PRECISION gemm=N conv=N loops=N`.

Usage: zoo_contractions.py MODEL... | zoo_contractions.py all
"""
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
sys.path.insert(0, here)
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

import amp_mlir
from amp_mlir import runtime
from zoo import MODELS


def amp_opt(*args, **kwargs):
    return subprocess.run([os.path.join(runtime._build, "bin", "amp-opt"), *args],
                          capture_output=True, text=True, **kwargs)


def count(name, workdir):
    torch.manual_seed(0)
    case = MODELS[name]()
    batch = case.make_batch(torch.Generator().manual_seed(1))
    text, _ = amp_mlir.build_training_step(
        case.model, case.loss_fn, torch.optim.SGD(case.model.parameters(), lr=case.lr),
        *batch, model_inputs=case.model_inputs)
    source = os.path.join(workdir, f"{name}.mlir")
    with open(source, "w") as f:
        f.write(text)
    for precision in ("f32", "bf16"):
        step = source
        if precision != "f32":
            step = os.path.join(workdir, f"{name}.{precision}.mlir")
            amp_opt(source, f"--amp-pipeline=precision={precision}", "-o", step, check=True)
        before = amp_opt(step, "--amp-lower-to-cpu",
                         "--mlir-print-ir-before=amp-contractions-to-runtime-calls",
                         "-o", os.devnull, check=True).stderr
        calls = amp_opt("--amp-contractions-to-runtime-calls=require-all", input=before)
        loops = calls.stderr.count("contraction left as a loop nest")
        for line in calls.stderr.splitlines():
            if "error:" in line:
                print("  " + line.split("error: ", 1)[1][:160])
        gemms = sum("call @amp_rt_" in line and "matmul" in line for line in calls.stdout.splitlines())
        convs = calls.stdout.count("call @amp_rt_conv2d")
        print(f"{name} {precision} gemm={gemms} conv={convs} loops={loops}", flush=True)


if __name__ == "__main__":
    names = list(MODELS) if sys.argv[1:] == ["all"] else sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="zoo-contractions-") as workdir:
        for name in names:
            count(name, workdir)
