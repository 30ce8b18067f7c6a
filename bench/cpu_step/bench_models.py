"""The models of the CPU step benchmark, built the same way for PyTorch
(torch_step.py) and for our exporter (run.py writes the wide MLP's step;
the others are the committed examples, exported from the same classes):

  mlp          examples/mlp/train_step_momentum.mlir: 784-256-10, batch 64,
               SGD momentum 0.9 lr 0.05
  wide         784-2048-2048-10, batch 256, SGD momentum 0.9 lr 0.01
  cnn          examples/cnn: TinyCNN, batch 64, AdamW lr 1e-3 wd 0.01
  transformer  examples/transformer: TinyTransformer, batch 64, AdamW
  resnet18     torchvision ResNet-18 (10 classes), batch 32, 3x32x32,
               class indices, SGD momentum 0.9 lr 0.05 (run.py exports it)
  gpt2         transformers GPT-2, 4 layers, width 128, 4 heads,
               vocabulary 96, 32 sequences of 64 tokens, its own
               next-token loss, AdamW lr 1e-3 (run.py exports it)
  epilogue     bench/cuda_step/epilogue_step.mlir: loss = w[0] * x over
               2^24 params, SGD momentum 0.9 lr 0.05: a step that is all
               gradient, overflow check and optimizer (the GPU benchmark's
               memory-bound epilogue)

The first four use softmax cross-entropy on one-hot labels
(examples/torch/models.py). build() returns (model, loss_fn, optimizer,
inputs, k): the step is loss_fn(model(*inputs[:k]), *inputs[k:]), or the
model's own loss when loss_fn is None.
"""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "torch"))
from models import TinyCNN, TinyTransformer, cross_entropy  # noqa: E402

BATCH = {"mlp": 64, "wide": 256, "cnn": 64, "transformer": 64, "resnet18": 32,
         "gpt2": 32, "epilogue": 1}
EPILOGUE_PARAMS = 1 << 24


class Epilogue(torch.nn.Module):
    """One weight of many in use: loss = w[0, 0] * x."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(1, EPILOGUE_PARAMS))

    def forward(self, x):
        return (self.w[:, :1] * x).sum()


def network(name):
    if name == "mlp":
        return torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                   torch.nn.Linear(256, 10))
    if name == "wide":
        return torch.nn.Sequential(
            torch.nn.Linear(784, 2048), torch.nn.ReLU(),
            torch.nn.Linear(2048, 2048), torch.nn.ReLU(),
            torch.nn.Linear(2048, 10))
    return {"cnn": TinyCNN, "transformer": TinyTransformer}[name]()


class CharGPT2(torch.nn.Module):
    """GPT-2 whose forward returns its own next-token loss."""

    def __init__(self):
        super().__init__()
        from transformers import GPT2Config, GPT2LMHeadModel
        config = GPT2Config(vocab_size=96, n_positions=64, n_embd=128, n_layer=4, n_head=4,
                            bos_token_id=0, eos_token_id=0, resid_pdrop=0.0,
                            embd_pdrop=0.0, attn_pdrop=0.0, attn_implementation="eager")
        self.gpt2 = GPT2LMHeadModel(config)

    def forward(self, input_ids):
        return self.gpt2(input_ids=input_ids, labels=input_ids, use_cache=False).loss


def build(name):
    """(model, loss_fn, optimizer, inputs, k) for one benchmark model."""
    batch = BATCH[name]
    if name == "resnet18":
        import torchvision
        model = torchvision.models.resnet18(num_classes=10)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        x = torch.randn(batch, 3, 32, 32)
        y = torch.arange(batch) % 10
        return model, torch.nn.functional.cross_entropy, optimizer, [x, y], 1
    if name == "epilogue":
        model = Epilogue()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        return model, None, optimizer, [torch.rand(1, 1)], 1
    if name == "gpt2":
        model = CharGPT2()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
        ids = torch.randint(0, 96, (batch, 64), generator=torch.Generator().manual_seed(0))
        return model, None, optimizer, [ids], 1
    model = network(name)
    if name in ("mlp", "wide"):
        optimizer = torch.optim.SGD(model.parameters(),
                                    lr=0.05 if name == "mlp" else 0.01,
                                    momentum=0.9)
    else:
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3,
                                      weight_decay=0.01)
    x = torch.rand(batch, 784)
    y = torch.nn.functional.one_hot(torch.arange(batch) % 10, 10).float()
    return model, cross_entropy, optimizer, [x, y], 1
