"""Real model configurations from torchvision, timm and Hugging Face
transformers (random init, no downloads), small enough to compile and
train on a CPU in seconds, with the layers that make each family what it
is. Each entry builds a Case: the model, its loss (None: the model
returns its loss), how many inputs go to the model, make_batch(generator)
returning the step's inputs (the model's, then the loss's), and an SGD
learning rate.

The batch sizes and learning rates keep every model well conditioned in
f32: PyTorch's own f32 training stays within 3e-5 relative of the same
training in f64 over ten steps (checked with a float64 copy of each
model). Batch-normalized conv nets are chaotic otherwise: a max-pool or
ReLU decision within a rounding of a tie goes the other way (in PyTorch's
own f32 run as much as in ours; ResNet-18 at batch 16 has ~6e5 pooling
windows a step, some within 1e-6 of a tie), batch normalization over few
values amplifies it, and PyTorch f32 and f64 losses separate by 10-50%
within ten steps (ResNet-18, batch 4, lr 0.01). A small rate keeps the
effect of such a flip small: ResNet-18 at lr 1e-4 was within 2.3e-5 on an
AVX-512 host but 8.9e-5 on an AVX2-only one (and ours 3.9e-4 from
PyTorch's f32 there); at lr 3e-5 PyTorch f32 vs f64 is 1.8e-6 and ours vs
PyTorch f32 4.5e-6 on the AVX2 host.

  resnet18       torchvision: batch norm, strided conv, max pool (padded)
  mobilenet_v3   torchvision mobilenet_v3_small: depthwise conv, hardswish,
                 squeeze-excite (hardsigmoid), batch norm
  efficientnet   timm efficientnet_b0 narrowed: SiLU, depthwise conv, SE
  convnext       timm convnext_atto: layer norm on channels, depthwise 7x7,
                 patchify stride 4, GELU
  resnext        torchvision resnext: grouped 3x3 convs
  vit            timm vit (patch 8 on 32x32): attention, layer norm, GELU,
                 class token, positions
  mixer          timm MLP-Mixer (patch 8 on 32x32): token/channel MLPs
  mobilevit      timm MobileViT-XXS: convolutions and attention blocks whose
                 feature maps are resized bilinearly (upsample_bilinear2d
                 and its backward, as matmuls)
  swin           timm Swin (patch 4 on 32x32, window 4, four stages of one
                 block): shifted windows (roll), relative position bias (a
                 gather whose backward is an index_put), patch merging
  gpt2           transformers GPT2LMHeadModel, 2 layers: causal attention
                 mask, position ids, tied embeddings, its own LM loss
  llama          transformers LlamaForCausalLM, 2 layers: RMSNorm, rotary
                 embeddings, grouped-query attention, SiLU-gated MLP
  t5             transformers T5ForConditionalGeneration, 2+2 layers:
                 encoder-decoder, relative position buckets, cross attention
  bert           transformers BertForSequenceClassification, 2 layers:
                 attention mask input, token type ids, pooler
  gru, lstm      nn.GRU / nn.LSTM (2 layers) over a sequence + linear head
  encoder_layer  nn.TransformerEncoderLayer (batch_first) + mean + linear
  whisper        transformers WhisperForAudioClassification, 2 layers: a
                 Conv1d stem (stride 2) over mel features, GELU, attention
  wav2vec2       transformers Wav2Vec2ForSequenceClassification, 2 layers:
                 a strided Conv1d feature encoder over raw audio (group
                 norm), a grouped Conv1d positional embedding (weight norm)
"""
import dataclasses
from typing import Callable, Optional

import torch
import torch.nn.functional as F

IMAGE = (3, 32, 32)
CLASSES = 10


@dataclasses.dataclass
class Case:
    model: torch.nn.Module
    loss_fn: Optional[Callable]
    model_inputs: int
    make_batch: Callable
    lr: float = 0.01


def _images(batch):
    def make(generator):
        return (torch.randn(batch, *IMAGE, generator=generator),
                torch.randint(0, CLASSES, (batch,), generator=generator))
    return make


def _vision(build, batch=4, lr=0.01):
    def entry():
        return Case(build(), F.cross_entropy, 1, _images(batch), lr)
    return entry


def resnet18():
    import torchvision
    return torchvision.models.resnet18(num_classes=CLASSES)


def mobilenet_v3():
    import torchvision
    return torchvision.models.mobilenet_v3_small(num_classes=CLASSES, dropout=0.0)


def efficientnet():
    import timm
    from timm.models.efficientnet import _gen_efficientnet
    return _gen_efficientnet("efficientnet_b0", channel_multiplier=0.25, depth_multiplier=0.34,
                             num_classes=CLASSES, drop_rate=0.0, drop_path_rate=0.0)


def convnext():
    import timm
    return timm.create_model("convnext_atto", num_classes=CLASSES, drop_path_rate=0.0)


def resnext():
    import torchvision
    from torchvision.models.resnet import Bottleneck, ResNet
    return ResNet(Bottleneck, [1, 1, 1, 1], num_classes=CLASSES, groups=8, width_per_group=4)


def vit():
    import timm
    return timm.create_model("vit_tiny_patch16_224", img_size=32, patch_size=8,
                             num_classes=CLASSES, depth=2)


def mixer():
    import timm
    from timm.models.mlp_mixer import MlpMixer
    return MlpMixer(img_size=32, patch_size=8, num_classes=CLASSES, num_blocks=2, embed_dim=64)


def mobilevit():
    import timm
    return timm.create_model("mobilevit_xxs", num_classes=CLASSES)


def swin():
    import timm
    return timm.create_model("swin_tiny_patch4_window7_224", img_size=32, window_size=4,
                             depths=(1, 1, 1, 1), embed_dim=32, num_heads=(1, 2, 4, 8),
                             num_classes=CLASSES, drop_path_rate=0.0)


SEQ, VOCAB = 16, 64


def _language_model(config_class, model_class, **config):
    """A transformers LM as ids -> its own next-token loss (labels = ids)."""
    def entry():
        import transformers
        model = getattr(transformers, model_class)(
            getattr(transformers, config_class)(vocab_size=VOCAB, **config))

        class LanguageModel(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, ids):
                return self.model(input_ids=ids, labels=ids, use_cache=False).loss

        def make(generator):
            return (torch.randint(0, VOCAB, (4, SEQ), generator=generator),)
        return Case(LanguageModel(), None, 1, make)
    return entry


gpt2 = _language_model("GPT2Config", "GPT2LMHeadModel", n_positions=SEQ, n_embd=64, n_layer=2,
                       n_head=4, bos_token_id=0, eos_token_id=0, resid_pdrop=0.0,
                       embd_pdrop=0.0, attn_pdrop=0.0, attn_implementation="eager")
llama = _language_model("LlamaConfig", "LlamaForCausalLM", hidden_size=64,
                        intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                        num_key_value_heads=2, max_position_embeddings=SEQ,
                        attn_implementation="eager")
t5 = _language_model("T5Config", "T5ForConditionalGeneration", d_model=64, d_ff=128,
                     num_layers=2, num_heads=4, d_kv=16, dropout_rate=0.0,
                     decoder_start_token_id=0, pad_token_id=0)


def bert():
    from transformers import BertConfig, BertForSequenceClassification
    config = BertConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=128,
                        max_position_embeddings=SEQ, num_labels=CLASSES,
                        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                        attn_implementation="eager")
    model = BertForSequenceClassification(config)

    class Classifier(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = model

        def forward(self, ids, mask):
            return self.bert(input_ids=ids, attention_mask=mask).logits

    def make(generator):
        ids = torch.randint(0, VOCAB, (4, SEQ), generator=generator)
        lengths = torch.randint(SEQ // 2, SEQ + 1, (4, 1), generator=generator)
        mask = (torch.arange(SEQ).unsqueeze(0) < lengths).long()
        return ids, mask, torch.randint(0, CLASSES, (4,), generator=generator)
    return Case(Classifier(), F.cross_entropy, 2, make)


class _Recurrent(torch.nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.rnn = cell(16, 32, num_layers=2, batch_first=True)
        self.head = torch.nn.Linear(32, CLASSES)

    def forward(self, x):
        out = self.rnn(x)[0]
        return self.head(out[:, -1])


def _sequences(generator):
    return (torch.randn(4, 12, 16, generator=generator),
            torch.randint(0, CLASSES, (4,), generator=generator))


def gru():
    return Case(_Recurrent(torch.nn.GRU), F.cross_entropy, 1, _sequences)


def lstm():
    return Case(_Recurrent(torch.nn.LSTM), F.cross_entropy, 1, _sequences)


def encoder_layer():
    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = torch.nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0,
                                                          batch_first=True)
            self.head = torch.nn.Linear(16, CLASSES)

        def forward(self, x):
            return self.head(self.layer(x).mean(1))
    return Case(Encoder(), F.cross_entropy, 1, _sequences)


class _Logits(torch.nn.Module):
    """A transformers classifier taking its input as `keyword`, as logits."""

    def __init__(self, model, keyword):
        super().__init__()
        self.model, self.keyword = model, keyword

    def forward(self, x):
        return self.model(**{self.keyword: x}).logits


def _audio(model, shape):
    """A classifier over `shape` audio inputs (the model's `forward(x)`
    gives logits), with labels."""
    def make(generator):
        return (torch.randn(4, *shape, generator=generator),
                torch.randint(0, CLASSES, (4,), generator=generator))
    return Case(model, F.cross_entropy, 1, make)


def whisper():
    from transformers import WhisperConfig, WhisperForAudioClassification
    config = WhisperConfig(num_mel_bins=16, d_model=64, encoder_layers=2,
                           encoder_attention_heads=4, encoder_ffn_dim=128,
                           max_source_positions=16, num_labels=CLASSES,
                           dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
                           attn_implementation="eager")
    model = WhisperForAudioClassification(config)
    # 32 frames: the stem's stride 2 gives max_source_positions.
    return _audio(_Logits(model, "input_features"), (16, 32))


def wav2vec2():
    from transformers import Wav2Vec2Config, Wav2Vec2ForSequenceClassification
    config = Wav2Vec2Config(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                            intermediate_size=128, conv_dim=(32, 32, 32),
                            conv_stride=(5, 2, 2), conv_kernel=(10, 3, 3),
                            num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
                            num_labels=CLASSES, classifier_proj_size=32,
                            hidden_dropout=0.0, activation_dropout=0.0,
                            attention_dropout=0.0, feat_proj_dropout=0.0,
                            final_dropout=0.0, layerdrop=0.0, mask_time_prob=0.0,
                            attn_implementation="eager")
    model = Wav2Vec2ForSequenceClassification(config)
    return _audio(_Logits(model, "input_values"), (400,))


MODELS = {
    "resnet18": _vision(resnet18, batch=16, lr=3e-5),
    "mobilenet_v3": _vision(mobilenet_v3, batch=16, lr=1e-3),
    "efficientnet": _vision(efficientnet, batch=16, lr=1e-3),
    "convnext": _vision(convnext),
    "resnext": _vision(resnext, batch=8, lr=1e-4),
    "vit": _vision(vit),
    "mixer": _vision(mixer),
    "mobilevit": _vision(mobilevit, lr=1e-3),
    "swin": _vision(swin),
    "gpt2": gpt2,
    "llama": llama,
    "t5": t5,
    "bert": bert,
    "gru": gru,
    "lstm": lstm,
    "encoder_layer": encoder_layer,
    "whisper": whisper,
    "wav2vec2": wav2vec2,
}
