"""Data-parallel training under mpirun, checked against one process.

Usage: AMP_MPIRUN="mpirun ..." data_parallel.py BIN_DIR WORK_DIR MODEL CONFIG...

CONFIG is a precision (f32, f16, bf16) or PRECISION:REDUCE_TYPE for
gradients reduced in 16 bits (amp-data-parallel's reduce-type).

For MODEL (mlp, transformer or bn-cnn; test/Python/export_dp_models.py)
exported at batch B and 2B, and each PRECISION (f32, f16, bf16; f16 and
bf16 with dynamic loss scaling), amp-train runs:

  1. `mpirun -np 2` at batch B per rank, --check-replicas: after every step
     both ranks hold bit-identical params, optimizer state and scale (the
     run fails otherwise), and their final digests printed at the end agree;
  2. one process at batch 2B on the same global batches: its losses match
     the 2-rank run's within TOLERANCE (below, with the reason);
  3. the 2-rank run stopped halfway with --save and resumed with --resume
     ends with the digests of the uninterrupted run (bit-exact);
  4. at f16, an overflow injected into rank 1's shard only (--poison-step
     --poison-rank=1): both ranks skip that step and halve the scale
     together (rank 0's log shows it; --check-replicas shows that rank 1
     did the same).
"""
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 16
STEPS = 12

# Step losses, 2 ranks vs one process, largest relative difference allowed
# over STEPS steps. The only difference is how the global batch's gradient
# sum is grouped: two half-batch sums (each rounded in the step's precision
# by the GEMM or reduction that produces it) averaged in f32, against one
# sum over the whole batch. In f32 that is a few ulps per step (measured
# at most 3e-7 after 12 steps); in f16 (11-bit mantissa) and bf16 (8-bit)
# each rounding of a half-batch gradient is up to 2^-11 and 2^-8 relative,
# which training then carries forward (measured at most 1.4e-4 for f16 and
# 3.7e-5 for bf16 on the MLP and the transformer). "f16:f16" also reduces
# the gradients in f16: every gradient is rounded to f16 once more each
# step (2^-11 relative), measured 8.5e-3 on the MLP after 12 steps.
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 1e-2, "f16:f16": 3e-2}

# Batch norm normalizes with each rank's own batch statistics (as PyTorch
# DDP does without SyncBatchNorm), so a 2-rank run of a batch-normalized
# model is not the single process's computation; only its running
# statistics are averaged. Such a model is checked for identical replicas,
# resume and skips, not against one process.
COMPARABLE = {"mlp", "transformer"}


def mpirun(ranks):
    """lit's %mpirun (test/lit.cfg.py), passed in $AMP_MPIRUN."""
    return os.environ["AMP_MPIRUN"].split() + ["-np", str(ranks)]


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"FAILED ({result.returncode}): {' '.join(command)}\n"
                 f"{result.stdout}\n{result.stderr}")
    return result.stdout


def losses(path):
    with open(path) as f:
        return [row for row in csv.DictReader(f)]


def digests(output):
    """{rank: (params, state)} from --print-digest lines."""
    found = {}
    for rank, params, state in re.findall(
            r"^(?:rank (\d+) )?params-digest (\w+) state-digest (\w+)$", output, re.M):
        found[int(rank or 0)] = (params, state)
    return found


def compare_with_one_process(tag, train, steps, precision, common, log2):
    """Trains the 2B-batch step in one process and compares its losses with
    the 2-rank run's log."""
    work = os.path.dirname(log2)
    log1 = os.path.join(work, f"{os.path.basename(log2).split('-2ranks')[0]}-1rank.csv")
    run([train, steps[2 * BATCH], f"--steps={STEPS}", f"--log={log1}"] + common)
    two, one = losses(log2), losses(log1)
    assert len(two) == len(one) == STEPS, (len(two), len(one))
    worst = max(abs(float(a["loss"]) - float(b["loss"])) / abs(float(b["loss"]))
                for a, b in zip(two, one))
    assert worst <= TOLERANCE[tag.split()[-1]], f"{tag}: loss differs by {worst:.3g}"
    assert [r["skipped"] for r in two] == [r["skipped"] for r in one], f"{tag}: skips"
    print(f"{tag}: replicas identical for {STEPS} steps; 2 ranks x {BATCH} vs "
          f"1 x {2 * BATCH}: loss within {worst:.2g} (bound {TOLERANCE[tag.split()[-1]]:g})")



def main():
    bin_dir, work, model = sys.argv[1], sys.argv[2], sys.argv[3]
    precisions = sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    train = os.path.join(bin_dir, "amp-train")
    steps = {}
    for batch in (BATCH, 2 * BATCH) if model in COMPARABLE else (BATCH,):
        steps[batch] = os.path.join(work, f"{model}-{batch}.mlir")
        run([sys.executable, os.path.join(HERE, "export_dp_models.py"), model,
             str(batch), steps[batch]])
    for config in precisions:
        # PRECISION or PRECISION:REDUCE_TYPE (gradients reduced in 16 bits).
        precision, _, reduce_type = config.partition(":")
        common = [f"--precision={precision}", f"--cache-dir={work}/cache",
                  "--threads=1", "--train-limit=2048", "--test-limit=256"]
        options = ["loss-scaling=dynamic"] if precision == "bf16" else []
        if reduce_type:
            options.append(f"reduce-type={reduce_type}")
        if options:
            common.append("--amp-options=" + " ".join(options))
        tag = f"{model} {config}"
        log2 = os.path.join(work, f"{config.replace(':', '-')}-2ranks.csv")
        out = run(mpirun(2) + [train, steps[BATCH], f"--steps={STEPS}", "--check-replicas",
                               "--print-digest", f"--log={log2}"] + common)
        ranks = digests(out)
        assert set(ranks) == {0, 1} and ranks[0] == ranks[1], f"{tag}: digests {ranks}"
        assert "data-parallel: 2 ranks (mpi)" in out, out

        if model not in COMPARABLE:
            print(f"{tag}: replicas identical for {STEPS} steps (batch norm: "
                  f"no single-process comparison)")
        else:
            compare_with_one_process(tag, train, steps, precision, common, log2)
        checkpoint = os.path.join(work, f"{config.replace(':', '-')}.ckpt")
        run(mpirun(2) + [train, steps[BATCH], f"--steps={STEPS // 2}",
                         f"--save={checkpoint}"] + common)
        resumed = digests(run(mpirun(2) + [
            train, steps[BATCH], f"--steps={STEPS}", f"--resume={checkpoint}",
            "--check-replicas", "--print-digest"] + common))
        assert resumed == ranks, f"{tag}: resumed {resumed} vs {ranks}"
        print(f"{tag}: resumed from step {STEPS // 2}: bit-identical to the "
              f"uninterrupted run")

        if config == "f16":
            log = os.path.join(work, "poison.csv")
            run(mpirun(2) + [train, steps[BATCH], "--steps=6", "--poison-step=3",
                             "--poison-rank=1", "--check-replicas",
                             f"--log={log}"] + common)
            rows = losses(log)
            assert [r["skipped"] for r in rows] == ["0", "0", "1", "0", "0", "0"], rows
            assert float(rows[2]["scale"]) == float(rows[1]["scale"]) / 2, rows
            print(f"{tag}: overflow on rank 1's shard at step 3: both ranks "
                  f"skipped it, scale {float(rows[1]['scale']):g} -> "
                  f"{float(rows[2]['scale']):g}")


if __name__ == "__main__":
    main()
