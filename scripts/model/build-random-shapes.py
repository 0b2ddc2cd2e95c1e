#!/usr/bin/env python3
"""Build random-weight cross-encoders with the exact shapes of real ms-marco rerankers, for benchmarks.

Speed does not depend on weight values, so a `BertForSequenceClassification` with the config of
`cross-encoder/ms-marco-MiniLM-L-6-v2` (or `-TinyBERT-L-2-v2`) and random weights runs exactly as fast as
the real model. Each model folder gets what all three benchmarked runtimes need:

    bench/.models/<name>/
      config.json, tokenizer.json, tokenizer_config.json, special_tokens_map.json, vocab.txt
      model.safetensors                 PyTorch weights (sentence-transformers CrossEncoder)
      onnx/model.onnx                   fp32 graph (onnxruntime-node and Python onnxruntime)
      onnx/model_quantized.onnx         int8 by the converters' shipped recipe (int8_recipes.SHIPPED, the
                                        same graph export-onnx.py --quantize writes)

The tokenizer is the real bert-base-uncased WordPiece (see build-fixture.py). bench/.models/ is gitignored:
the bench runs this script on demand.

`--form hub` writes `<name>-hub/`: the same weights exported in the graph form of the Hub's `onnx/` folders
(optimum, transformers 4.x eager attention: scripts/model/hub_form.py), the form users serve; onnxruntime's
BERT optimizer fuses it into one contrib Attention node per layer, which it cannot do with torch 2.13's export.

`--train-steps N` writes `<name>-trained/` instead: the same shape and seed, then N steps of build-fixture.py's
synthetic lexical-overlap task (query words present in the document). Random weights give near-tied scores
(the logits differ by ~1e-3 between documents), so int8 noise of the same size reorders them; a briefly
trained copy spreads its logits by whole units like a real reranker, which is what a rank-faithfulness
check of a quantization recipe needs (scripts/measure/scoring/explore-quantization.py). A synthetic check, not a
real checkpoint: its rankings mean "query words present", nothing more.

    /tmp/mlvenv/bin/python scripts/model/build-random-shapes.py [--out bench/.models] [--only minilm-l6]
Needs: torch, transformers, onnx, onnxruntime, tokenizers.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# Shape-relevant config of the real checkpoints (everything else is BERT's default).
SHAPES = {
    "minilm-l6": dict(hidden_size=384, num_hidden_layers=6, num_attention_heads=12, intermediate_size=1536),
    "tinybert-l2": dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512),
}
REAL_NAMES = {
    "minilm-l6": "cross-encoder/ms-marco-MiniLM-L-6-v2",
    "tinybert-l2": "cross-encoder/ms-marco-TinyBERT-L-2-v2",
}


def load_module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[name] = module  # dataclasses resolve their module's annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def load_fixture_builder():
    """Reuses the fixture builder's vocabulary recovery, tokenizer, training task and ONNX export (one source of truth)."""
    return load_module("build_fixture", HERE / "build-fixture.py")


def quantize(folder: Path) -> bool:
    """(Re)builds onnx/model_quantized.onnx by the converters' shipped recipe unless it already is that recipe's
    (onnx/model_quantized.recipe names the recipe that built it); True when it built."""
    recipes = load_module("int8_recipes", HERE / "int8_recipes.py")
    stamp = folder / "onnx" / "model_quantized.recipe"
    if (folder / "onnx" / "model_quantized.onnx").exists() and stamp.exists() and stamp.read_text().strip() == recipes.SHIPPED:
        return False
    recipes.build_recipe(recipes.SHIPPED, folder / "onnx" / "model.onnx", folder / "onnx" / "model_quantized.onnx")
    stamp.write_text(recipes.SHIPPED + "\n")
    return True


def copy_name(name: str, train_steps: int, init_range: float, form: str = "torch") -> str:
    base = f"{name}-hub" if form == "hub" else name
    return f"{base}-trained" if train_steps > 0 else f"{base}-spread" if init_range > 0 else base


def train(model, fixture, vocab: list[str], steps: int, seed: int, batch: int = 16) -> None:
    """build-fixture.py's synthetic lexical-overlap task (BCE on "share of query words in the document"), in
    small batches: a MiniLM-L6 step of 64 pairs takes most of a minute on a shared 2-core machine."""
    import random

    import torch

    rng = random.Random(seed)
    words = [t for t in vocab[1996:8000] if t.isalpha() and t.isascii() and len(t) >= 3]
    tok = fixture.build_tokenizer(vocab)
    tok.enable_truncation(64)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    model.train()
    t0 = time.time()
    for step in range(steps):
        pairs = fixture.synthetic_pairs(rng, words, batch)
        enc = tok.encode_batch([(q, d) for q, d, _ in pairs])
        logits = model(input_ids=torch.tensor([e.ids for e in enc]), attention_mask=torch.tensor([e.attention_mask for e in enc]),
                       token_type_ids=torch.tensor([e.type_ids for e in enc])).logits.squeeze(-1)
        loss = loss_fn(logits, torch.tensor([y for _, _, y in pairs], dtype=torch.float32))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0 or step == steps - 1:
            print(f"  step {step:4d} loss {loss.item():.4f} ({time.time() - t0:.0f}s)", flush=True)
    model.eval()


def build(name: str, out: Path, seed: int, fixture, train_steps: int = 0, init_range: float = 0.0, form: str = "torch") -> None:
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(seed)
    config = BertConfig(**{**fixture.MODEL_CONFIG, **SHAPES[name],
                           **({"initializer_range": init_range} if init_range > 0 else {})})
    model = BertForSequenceClassification(config).eval()
    vocab = fixture.load_bert_base_uncased_vocab(fixture.VOCAB_JSON)
    folder = out / copy_name(name, train_steps, init_range, form)
    if train_steps > 0:
        train(model, fixture, vocab, train_steps, seed)
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "onnx").mkdir(parents=True)
    t0 = time.time()
    if form == "hub":
        with load_module("hub_form", HERE / "hub_form.py").hub_form():
            fixture.export_onnx(model, folder / "onnx" / "model.onnx")
    else:
        fixture.export_onnx(model, folder / "onnx" / "model.onnx")
    quantize(folder)
    model.save_pretrained(folder, safe_serialization=True)
    fixture.build_tokenizer(vocab).save(str(folder / "tokenizer.json"), pretty=False)
    (folder / "tokenizer_config.json").write_text(json.dumps(fixture.TOKENIZER_CONFIG, indent=2) + "\n")
    (folder / "special_tokens_map.json").write_text(json.dumps(
        {"cls_token": "[CLS]", "mask_token": "[MASK]", "pad_token": "[PAD]", "sep_token": "[SEP]", "unk_token": "[UNK]"}) + "\n")
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    trained = (f"random init (seed {seed}) trained {train_steps} steps on a synthetic lexical-overlap task"
               if train_steps > 0 else f"random weights, init std {init_range} (BERT's is 0.02)" if init_range > 0
               else "random weights")
    graph = ("the graph form of the Hub's optimum exports (transformers 4.x eager attention, scripts/model/hub_form.py)"
             if form == "hub" else "torch's own export of transformers' default (SDPA) attention")
    (folder / "README.md").write_text(
        f"# {folder.name}: {trained}, with the shapes of {REAL_NAMES[name]}\n\nONNX graph: {graph}. For benchmarks only; "
        f"scores are not relevance. Built by scripts/model/build-random-shapes.py (seed {seed}).\n")
    sizes = {p.name: p.stat().st_size / 1e6 for p in (folder / "onnx").glob("*.onnx")}
    print(f"built {folder} in {time.time() - t0:.0f}s: " + ", ".join(f"{k} {v:.1f} MB" for k, v in sorted(sizes.items())),
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / ".models")
    ap.add_argument("--only", choices=sorted(SHAPES), action="append")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--force", action="store_true", help="rebuild folders that already exist")
    ap.add_argument("--requantize", action="store_true",
                    help="only rebuild model_quantized.onnx in every folder under --out whose recipe is not the shipped one")
    ap.add_argument("--init-range", type=float, default=0.0,
                    help="build <name>-spread/: random weights with this init std instead of 0.02 (logits that spread)")
    ap.add_argument("--form", choices=["torch", "hub"], default="torch",
                    help="hub: build <name>-hub/ exported in the Hub's graph form (optimum, eager attention; fuses to contrib Attention)")
    ap.add_argument("--train-steps", type=int, default=0,
                    help="build <name>-trained/ with this many synthetic-task training steps (faithfulness checks)")
    args = ap.parse_args()
    if args.requantize:
        for folder in sorted(p for p in args.out.iterdir() if (p / "onnx" / "model.onnx").exists()):
            if quantize(folder):
                print(f"re-quantized {folder / 'onnx' / 'model_quantized.onnx'}")
        return
    fixture = load_fixture_builder()
    for name in args.only or sorted(SHAPES):
        folder = args.out / copy_name(name, args.train_steps, args.init_range, args.form)
        if (folder / "onnx" / "model_quantized.onnx").exists() and (folder / "model.safetensors").exists() and not args.force:
            print(f"{folder} exists (use --force to rebuild)")
            continue
        build(name, args.out, args.seed, fixture, args.train_steps, args.init_range, args.form)


if __name__ == "__main__":
    main()
