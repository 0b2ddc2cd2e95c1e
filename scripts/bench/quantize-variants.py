#!/usr/bin/env python3
"""Quantization variants of the bench models, so `npm run bench` can measure speed and rank fidelity of each.

Writes bench/.models/<model>/onnx/variants/*.onnx from onnx/model.onnx:
  dyn-matmul-pertensor   quantize_dynamic, MatMul only, QInt8, per-tensor (embeddings stay fp32)
  dyn-perchannel         quantize_dynamic, MatMul + Gather, QInt8, per-channel weights
  dyn-u8-reducerange     quantize_dynamic, MatMul + Gather, QUInt8 weights, reduce_range=True
                         (7-bit weights: no u8 x s8 saturation on x86 CPUs without VNNI)
  static-qdq-perchannel  quantize_static, QDQ format, MinMax calibration on 64 bench-like pairs,
                         per-channel QInt8 weights, QUInt8 activations
The shipped onnx/model_quantized.onnx (dynamic, MatMul + Gather, QInt8, per-tensor) is the baseline.

    python3 scripts/bench/quantize-variants.py [--models bench/.models]
Needs: onnx, onnxruntime, tokenizers, numpy.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np


def calibration_reader(folder: Path, inputs: list[str], count: int = 64):
    from onnxruntime.quantization import CalibrationDataReader
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.enable_truncation(512, strategy="longest_first")
    words = [w for w in (folder / "vocab.txt").read_text().split("\n")[1996:12000] if w.isalpha() and len(w) > 1]
    rng = random.Random(7)

    def text(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n)) + "."

    feeds = []
    for i in range(count):
        enc = tok.encode(text(5), text(rng.choice([20, 50, 120, 300])))
        ids = np.array([enc.ids], dtype=np.int64)
        all_inputs = {"input_ids": ids, "attention_mask": np.ones_like(ids),
                      "token_type_ids": np.array([enc.type_ids], dtype=np.int64)}
        feeds.append({k: all_inputs[k] for k in inputs})

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter(feeds)

        def get_next(self):
            return next(self.it, None)

    return Reader()


def build(folder: Path) -> None:
    import onnx
    from onnxruntime.quantization import (CalibrationMethod, QuantFormat, QuantType, quantize_dynamic,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    src = folder / "onnx" / "model.onnx"
    out = folder / "onnx" / "variants"
    out.mkdir(parents=True, exist_ok=True)
    inputs = [i.name for i in onnx.load(str(src), load_external_data=False).graph.input]
    quantize_dynamic(str(src), str(out / "dyn-matmul-pertensor.onnx"), op_types_to_quantize=["MatMul"],
                     weight_type=QuantType.QInt8)
    quantize_dynamic(str(src), str(out / "dyn-perchannel.onnx"), op_types_to_quantize=["MatMul", "Gather"],
                     weight_type=QuantType.QInt8, per_channel=True)
    quantize_dynamic(str(src), str(out / "dyn-u8-reducerange.onnx"), op_types_to_quantize=["MatMul", "Gather"],
                     weight_type=QuantType.QUInt8, reduce_range=True)
    pre = out / "preprocessed.tmp.onnx"
    quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
    try:
        quantize_static(str(pre), str(out / "static-qdq-perchannel.onnx"), calibration_reader(folder, inputs),
                        quant_format=QuantFormat.QDQ, per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul", "Gemm"],
                        calibrate_method=CalibrationMethod.MinMax)
    finally:
        pre.unlink(missing_ok=True)
    print(f"built {sorted(p.name for p in out.glob('*.onnx'))} in {out}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", type=Path, default=Path(__file__).resolve().parents[2] / "bench" / ".models")
    args = parser.parse_args()
    for name in ("minilm-l6", "tinybert-l2"):
        build(args.models / name)


if __name__ == "__main__":
    main()
