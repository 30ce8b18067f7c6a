"""Two real models trained for real through the PyTorch front end, FP32 vs
FP16-AMP vs BF16-AMP, next to PyTorch's eager FP32 on the same batches:

  resnet18  torchvision ResNet-18 (one input channel) on Fashion-MNIST
            (Debian's dataset-fashion-mnist, padded to 32x32), batch 64,
            SGD momentum 0.9, lr 0.05, weight decay 5e-4; test accuracy
            of the eval-mode forward (batch-norm statistics) at the end
  gpt2      transformers GPT-2 (4 layers, width 128, 4 heads) as a
            character model of the GNU GPL v3 text Debian ships
            (/usr/share/common-licenses/GPL-3), 64-character windows,
            batch 32, AdamW lr 1e-3; its own next-token loss

Writes one CSV per model (step, loss per run) and, with matplotlib
(Debian's python3-matplotlib, run by /usr/bin/python3), a PNG of the loss
curves: `bench/real_models/plot.py`.

  /opt/amp-mlir/torch2/bin/python bench/real_models/train.py [--steps 300]
      [--models resnet18,gpt2] [--out bench/real_models/results]
"""
import argparse
import copy
import csv
import gzip
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "python"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import torch

import amp_mlir

PRECISIONS = ["f32", "f16", "bf16"]


def fashion_mnist(split):
    base = "/usr/share/datasets/fashion-mnist"
    prefix = "train" if split == "train" else "t10k"
    with gzip.open(f"{base}/{prefix}-images-idx3-ubyte.gz") as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 1, 28, 28)
    with gzip.open(f"{base}/{prefix}-labels-idx1-ubyte.gz") as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    images = torch.from_numpy(images.astype(np.float32) / 255.0)
    images = torch.nn.functional.pad((images - 0.2860) / 0.3530, (2, 2, 2, 2))
    return images, torch.from_numpy(labels.astype(np.int64))


def resnet18_case(steps):
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18(num_classes=10)
    model.conv1 = torch.nn.Conv2d(1, 64, 7, 2, 3, bias=False)
    images, labels = fashion_mnist("train")
    order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(0))
    batches = [(images[order[i * 64:(i + 1) * 64]], labels[order[i * 64:(i + 1) * 64]])
               for i in range(steps)]

    def optimizer(params):
        return torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-4)
    return model, torch.nn.functional.cross_entropy, optimizer, batches, 1


def gpt2_case(steps):
    from transformers import GPT2Config, GPT2LMHeadModel
    text = open("/usr/share/common-licenses/GPL-3", encoding="utf-8").read()
    chars = sorted(set(text))
    ids = torch.tensor([chars.index(c) for c in text], dtype=torch.int64)
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(chars), n_positions=64, n_embd=128, n_layer=4,
                        bos_token_id=0, eos_token_id=0,
                        n_head=4, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                        attn_implementation="eager")

    class CharModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.gpt2 = GPT2LMHeadModel(config)

        def forward(self, window):
            return self.gpt2(input_ids=window, labels=window, use_cache=False).loss

    generator = torch.Generator().manual_seed(0)
    batches = []
    for _ in range(steps):
        starts = torch.randint(0, len(ids) - 64, (32,), generator=generator)
        batches.append((torch.stack([ids[s:s + 64] for s in starts]),))

    def optimizer(params):
        return torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01)
    return CharModel(), None, optimizer, batches, 1


CASES = {"resnet18": resnet18_case, "gpt2": gpt2_case}


def eager(model, loss_fn, make_optimizer, batches, k):
    model = copy.deepcopy(model)
    optimizer = make_optimizer(model.parameters())
    losses = []
    for batch in batches:
        optimizer.zero_grad()
        out = model(*batch[:k])
        loss = loss_fn(out, *batch[k:]) if loss_fn else out
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, model


def test_accuracy(model):
    """Fashion-MNIST test accuracy (%) of `model`'s eval-mode forward."""
    model.eval()
    images, labels = fashion_mnist("test")
    with torch.no_grad():
        correct = sum(int((model(images[i:i + 500]).argmax(1) == labels[i:i + 500]).sum())
                      for i in range(0, 10000, 500))
    return correct / 100


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--models", default="resnet18,gpt2")
    parser.add_argument("--out", default=os.path.join(here, "results"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        model, loss_fn, make_optimizer, batches, k = CASES[name](args.steps)
        runs, notes = {}, []
        start = time.time()
        runs["pytorch-f32"], reference = eager(model, loss_fn, make_optimizer, batches, k)
        note = f"pytorch eager f32: {time.time() - start:.0f} s"
        if name == "resnet18":
            note += f", test accuracy {test_accuracy(reference):.2f}%"
        notes.append(note)
        for precision in PRECISIONS:
            start = time.time()
            trainer = amp_mlir.compile(copy.deepcopy(model), loss_fn,
                                       make_optimizer(model.parameters()), *batches[0],
                                       model_inputs=k, precision=precision)
            compiled = time.time() - start
            losses, skipped = [], 0
            start = time.time()
            for batch in batches:
                losses.append(trainer.step(*batch))
                skipped += trainer.found_inf
            runs[f"ours-{precision}"] = losses
            note = (f"ours {precision}: compile {compiled:.0f} s, train {time.time() - start:.0f} s, "
                    f"skipped {skipped}, final scale {trainer.scale:g}")
            if name == "resnet18":
                # The eval-mode forward with our trained weights and statistics.
                trained = copy.deepcopy(model)
                names = [n for n, _ in trained.named_parameters()]
                buffers = [n for n, b in trained.named_buffers() if b.is_floating_point()]
                state = dict(zip(names, map(torch.from_numpy, trainer.parameters())))
                state.update(zip(buffers, map(torch.from_numpy,
                                              trainer.state()[-len(buffers):])))
                trained.load_state_dict(state, strict=False)
                note += f", test accuracy {test_accuracy(trained):.2f}%"
            notes.append(note)
            print(f"{name}: {note}", flush=True)
        path = os.path.join(args.out, f"{name}.csv")
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["step"] + list(runs))
            for step in range(len(batches)):
                writer.writerow([step + 1] + [f"{runs[r][step]:.6f}" for r in runs])
        with open(os.path.join(args.out, f"{name}.txt"), "w") as f:
            f.write("\n".join(notes) + "\n")
        print(f"wrote {path}", flush=True)


if __name__ == "__main__":
    main()
