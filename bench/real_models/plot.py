"""Loss curves of bench/real_models/train.py's CSVs on one figure (one
panel per model, a moving average over 10 steps).

  /usr/bin/python3 bench/real_models/plot.py [--results DIR] [--out PNG]
(needs matplotlib: Debian's python3-matplotlib)"""
import argparse
import csv
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--results", default=os.path.join(here, "results"))
parser.add_argument("--out", default=os.path.join(here, "..", "..", "docs", "images",
                                                   "real-models-loss.png"))
args = parser.parse_args()
models = [m for m in ("resnet18", "gpt2") if os.path.exists(os.path.join(args.results, f"{m}.csv"))]
titles = {"resnet18": "ResNet-18, Fashion-MNIST (SGD momentum)",
          "gpt2": "GPT-2 (4 layers), GPL-3 text, characters (AdamW)"}
figure, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4), squeeze=False)
for axis, model in zip(axes[0], models):
    with open(os.path.join(args.results, f"{model}.csv")) as f:
        rows = list(csv.DictReader(f))
    steps = [int(r["step"]) for r in rows]
    for run in [k for k in rows[0] if k != "step"]:
        values = [float(r[run]) for r in rows]
        smooth = [sum(values[max(0, i - 9):i + 1]) / len(values[max(0, i - 9):i + 1])
                  for i in range(len(values))]
        axis.plot(steps, smooth, label=run, linestyle="--" if run.startswith("pytorch") else "-")
    axis.set_title(titles[model])
    axis.set_xlabel("step")
    axis.set_ylabel("training loss (10-step mean)")
    axis.legend()
figure.tight_layout()
os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
figure.savefig(args.out, dpi=80)
print(f"wrote {args.out}")
