#!/usr/bin/env python3
"""Build random-weight XLM-R base (bge-reranker-base shape) model folders, to measure what a model too big for a
Lambda zip costs (README "Big models"): an fp32 folder (onnx/model.onnx, ~1.1 GB) and an int8 one
(onnx/model_quantized.onnx, ~280 MB), each with the XLM-R fixture's tokenizer.

    python3 scripts/model/build-xlmr-base-shape.py /tmp/xlmr-base
    npx tsx scripts/model/cold-start-paths.ts /tmp/xlmr-base/fp32 5

Speed does not depend on weight values, so these load and run as the real checkpoint does. The export is
scripts/model/export-onnx.py (one source of truth). Write them outside the repository: they are too big to commit.
Needs: torch, transformers, onnx, onnxruntime.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "models" / "xlmr-fixture"
# XLM-RoBERTa base, as BAAI/bge-reranker-base publishes it.
BASE_SHAPE = dict(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
                  vocab_size=250002, max_position_embeddings=514, initializer_range=0.02)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    from transformers import XLMRobertaConfig, XLMRobertaForSequenceClassification

    config = json.loads((FIXTURE / "config.json").read_text())
    config.update(BASE_SHAPE)
    torch.manual_seed(args.seed)
    model = XLMRobertaForSequenceClassification(XLMRobertaConfig(**config)).eval()
    with tempfile.TemporaryDirectory() as scratch:
        checkpoint = Path(scratch) / "torch"
        model.save_pretrained(checkpoint)
        for name in ("tokenizer.json", "tokenizer_config.json"):
            shutil.copy(FIXTURE / name, checkpoint / name)
        both = Path(scratch) / "both"
        subprocess.run([sys.executable, str(ROOT / "scripts/model/export-onnx.py"), str(checkpoint), str(both), "--quantize"], check=True)
        # One variant per folder: the scorer would otherwise pick one of the two.
        for variant, onnx in (("fp32", "model.onnx"), ("int8", "model_quantized.onnx")):
            target = args.out / variant
            shutil.rmtree(target, ignore_errors=True)
            (target / "onnx").mkdir(parents=True)
            for item in both.iterdir():
                if item.is_file():
                    shutil.copy(item, target / item.name)
            shutil.move(str(both / "onnx" / onnx), target / "onnx" / onnx)
            size = os.path.getsize(target / "onnx" / onnx)
            print(f"wrote {target} ({onnx}, {size / 2**20:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
