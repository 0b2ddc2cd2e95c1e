#!/usr/bin/env python3
"""Build random-weight cross-encoders with the exact shapes of real ms-marco rerankers, for benchmarks.

Speed does not depend on weight values, so a `BertForSequenceClassification` with the config of
`cross-encoder/ms-marco-MiniLM-L-6-v2` (or `-TinyBERT-L-2-v2`) and random weights runs exactly as fast as
the real model. Each model folder gets what all three benchmarked runtimes need:

    bench/.models/<name>/
      config.json, tokenizer.json, tokenizer_config.json, special_tokens_map.json, vocab.txt
      model.safetensors                 PyTorch weights (sentence-transformers CrossEncoder)
      onnx/model.onnx                   fp32 graph (onnxruntime-node and Python onnxruntime)
      onnx/model_quantized.onnx         int8, full dynamic quantization (MatMul + Gather), like the
                                        `model_quantized.onnx` that Xenova/optimum publish

The tokenizer is the real bert-base-uncased WordPiece (see build-fixture.py). bench/.models/ is gitignored:
the bench runs this script on demand.

`--train-steps N` writes `<name>-trained/` instead: the same shape and seed, then N steps of build-fixture.py's
synthetic lexical-overlap task (query words present in the document). Random weights give near-tied scores
(the logits differ by ~1e-3 between documents), so int8 noise of the same size reorders them; a briefly
trained copy spreads its logits by whole units like a real reranker, which is what a rank-faithfulness
check of a quantization recipe needs (scripts/bench/explore-quantization.py). A synthetic check, not a
real checkpoint: its rankings mean "query words present", nothing more.

    /tmp/mlvenv/bin/python scripts/model/build-random-shapes.py [--out bench/.models] [--only minilm-l6]
Needs: torch, transformers, onnx, onnxruntime, tokenizers.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
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


def load_fixture_builder():
    """Reuses the fixture builder's vocabulary recovery, tokenizer and ONNX export (one source of truth)."""
    spec = importlib.util.spec_from_file_location("build_fixture", HERE / "build-fixture.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def build(name: str, out: Path, seed: int, fixture, train_steps: int = 0) -> None:
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(seed)
    config = BertConfig(**{**fixture.MODEL_CONFIG, **SHAPES[name]})
    model = BertForSequenceClassification(config).eval()
    vocab = fixture.load_bert_base_uncased_vocab(fixture.VOCAB_JSON)
    folder = out / (f"{name}-trained" if train_steps > 0 else name)
    if train_steps > 0:
        fixture.train(model, fixture.build_tokenizer(vocab), vocab, train_steps, seed)
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "onnx").mkdir(parents=True)
    t0 = time.time()
    fixture.export_onnx(model, folder / "onnx" / "model.onnx")
    quantize_dynamic(str(folder / "onnx" / "model.onnx"), str(folder / "onnx" / "model_quantized.onnx"),
                     weight_type=QuantType.QInt8, per_channel=False, reduce_range=False)
    model.save_pretrained(folder, safe_serialization=True)
    fixture.build_tokenizer(vocab).save(str(folder / "tokenizer.json"), pretty=False)
    (folder / "tokenizer_config.json").write_text(json.dumps(fixture.TOKENIZER_CONFIG, indent=2) + "\n")
    (folder / "special_tokens_map.json").write_text(json.dumps(
        {"cls_token": "[CLS]", "mask_token": "[MASK]", "pad_token": "[PAD]", "sep_token": "[SEP]", "unk_token": "[UNK]"}) + "\n")
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    trained = (f"random init (seed {seed}) trained {train_steps} steps on a synthetic lexical-overlap task"
               if train_steps > 0 else "random weights")
    (folder / "README.md").write_text(
        f"# {folder.name}: {trained}, with the shapes of {REAL_NAMES[name]}\n\nFor benchmarks only; "
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
    ap.add_argument("--train-steps", type=int, default=0,
                    help="build <name>-trained/ with this many synthetic-task training steps (faithfulness checks)")
    args = ap.parse_args()
    fixture = load_fixture_builder()
    for name in args.only or sorted(SHAPES):
        folder = args.out / (f"{name}-trained" if args.train_steps > 0 else name)
        if (folder / "onnx" / "model_quantized.onnx").exists() and (folder / "model.safetensors").exists() and not args.force:
            print(f"{folder} exists (use --force to rebuild)")
            continue
        build(name, args.out, args.seed, fixture, args.train_steps)


if __name__ == "__main__":
    main()
