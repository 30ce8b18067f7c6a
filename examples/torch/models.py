"""Example PyTorch models for amp_mlir, shaped for amp-train's data contract:
images come flat ([batch, 784]) or as token ids ([batch, seq]); labels
one-hot ([batch, 10]).

  MLP              784-256-10
  GatedMLP         784 -> tanh(linear) * sigmoid(linear) (128) -> 10
  TinyCNN          conv 3x3 (8) -> ReLU -> pool 2 -> conv 3x3 (16) -> ReLU
                   -> pool 2 -> linear 10; average pooling by default, max
                   pooling with TinyCNN(pool="max") ("cnn-maxpool")
  TinyTransformer  each image row is a token (28 tokens of 28 pixels):
                   linear embedding + learned positions (nn.Embedding),
                   one pre-norm block (LayerNorm, single-head attention
                   without q/k/v bias, softmax over bmm, GELU MLP), mean
                   over tokens, linear 10.
                   No dropout (it would be off for parity anyway).
  TokenTransformer the same block on token ids [batch, 16] over a
                   vocabulary of 32 (nn.Embedding with data-dependent
                   indices), for amp-train --data=tokens.
"""
import math

import torch


def cross_entropy(logits, y):
    """Softmax cross-entropy on one-hot labels, averaged over the batch."""
    return -(y * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(784, 256)
        self.fc2 = torch.nn.Linear(256, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class GatedMLP(torch.nn.Module):
    """784 -> tanh(128) * sigmoid(gate 128) -> 10 (a GLU-style unit)."""

    def __init__(self):
        super().__init__()
        self.value = torch.nn.Linear(784, 128)
        self.gate = torch.nn.Linear(784, 128)
        self.out = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.out(torch.tanh(self.value(x)) * torch.sigmoid(self.gate(x)))


class TinyCNN(torch.nn.Module):
    def __init__(self, pool="avg"):
        super().__init__()
        self.pool = (torch.nn.functional.avg_pool2d if pool == "avg"
                     else torch.nn.functional.max_pool2d)
        self.conv1 = torch.nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 16, 3, padding=1)
        self.fc = torch.nn.Linear(16 * 7 * 7, 10)

    def forward(self, x):
        h = x.view(x.shape[0], 1, 28, 28)
        h = self.pool(torch.relu(self.conv1(h)), 2)
        h = self.pool(torch.relu(self.conv2(h)), 2)
        return self.fc(h.reshape(h.shape[0], -1))


class TransformerBlock(torch.nn.Module):
    """One pre-norm block: single-head attention, then a GELU MLP."""

    def __init__(self, width):
        super().__init__()
        self.norm1 = torch.nn.LayerNorm(width)
        # No bias on q/k/v: the key bias has an exactly zero gradient (adding
        # a constant to a whole softmax row changes nothing), so it only
        # collects rounding noise, which Adam then normalizes into lr-sized
        # moves; modern attention layers leave these biases out.
        self.qkv = torch.nn.Linear(width, 3 * width, bias=False)
        self.attn_out = torch.nn.Linear(width, width)
        self.norm2 = torch.nn.LayerNorm(width)
        self.fc1 = torch.nn.Linear(width, 2 * width)
        self.fc2 = torch.nn.Linear(2 * width, width)
        self.width = width

    def forward(self, h):
        q, k, v = self.qkv(self.norm1(h)).split(self.width, dim=-1)
        weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(self.width), dim=-1)
        h = h + self.attn_out(weights @ v)
        return h + self.fc2(torch.nn.functional.gelu(self.fc1(self.norm2(h))))


class TinyTransformer(torch.nn.Module):
    """Image rows as tokens: a linear embedding of each row of 28 pixels."""

    def __init__(self, width=32):
        super().__init__()
        self.embed = torch.nn.Linear(28, width)
        self.position = torch.nn.Embedding(28, width)
        self.block = TransformerBlock(width)
        self.head = torch.nn.Linear(width, 10)
        self.register_buffer("positions", torch.arange(28), persistent=False)

    def forward(self, x):
        h = self.embed(x.view(x.shape[0], 28, 28)) + self.position(self.positions)
        return self.head(self.block(h).mean(dim=1))


class TokenTransformer(torch.nn.Module):
    """Token ids [batch, seq] in [0, vocab) -> 10 classes (amp-train
    --data=tokens)."""

    def __init__(self, vocab=32, seq=16, width=32):
        super().__init__()
        self.vocab, self.seq = vocab, seq
        self.token = torch.nn.Embedding(vocab, width)
        self.position = torch.nn.Embedding(seq, width)
        self.block = TransformerBlock(width)
        self.head = torch.nn.Linear(width, 10)
        self.register_buffer("positions", torch.arange(seq), persistent=False)

    def forward(self, x):
        h = self.token(x) + self.position(self.positions)
        return self.head(self.block(h).mean(dim=1))


def random_input(model, batch, generator):
    """A batch of inputs of the model's kind: token ids or images in [0, 1]."""
    if isinstance(model, TokenTransformer):
        return torch.randint(0, model.vocab, (batch, model.seq), generator=generator)
    return torch.rand(batch, 784, generator=generator)


MODELS = {"mlp": MLP, "gated": GatedMLP, "cnn": TinyCNN, "transformer": TinyTransformer,
          "cnn-maxpool": lambda: TinyCNN(pool="max"), "tokens": TokenTransformer}
