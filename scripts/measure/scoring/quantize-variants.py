#!/usr/bin/env python3
"""Quantization variants of the bench models, so `npm run bench` can measure speed and rank fidelity of each.

Writes <model>/onnx/variants/<recipe>.onnx from onnx/model.onnx for the recipes below (defined in
scripts/model/int8_recipes.py, the same module the converters use), plus variants.json ({"shipped": what model_quantized.onnx
is, "variants": {recipe: what}}) that the bench report reads. onnx/model_quantized.onnx, the shipped int8 (int8_recipes.SHIPPED), is built by
build-random-shapes.py and measured as the "int8" row. Existing files are kept (delete the folder to rebuild).
Static recipes calibrate on the repository's own Markdown prose, never on the bench documents.

    python3 scripts/measure/scoring/quantize-variants.py [--models bench/.models] [--only minilm-l6,tinybert-l2-trained]
Needs: onnx, onnxruntime, tokenizers, numpy.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# Per channel (8- and 7-bit), the QUInt8 file for x86 without VNNI, the most faithful recipe measured (feed-forward
# MatMuls only) and the best static one: the rows the bench reports beside the shipped int8
# (bench/quantization-recipes.md has every recipe).
BENCH_RECIPES = ["dyn-pc-rr-gather", "dyn-pc-gather", "dyn-pc-u8u8", "dyn-pc-u8u8-ffn", "st-qdq-pc-noattn-minmax"]


def load_recipes():
    spec = importlib.util.spec_from_file_location("int8_recipes", ROOT / "scripts" / "model" / "int8_recipes.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["int8_recipes"] = module
    spec.loader.exec_module(module)
    return module


def build(folder: Path, recipes) -> None:
    import onnx

    src = folder / "onnx" / "model.onnx"
    out = folder / "onnx" / "variants"
    inputs = [i.name for i in onnx.load(str(src), load_external_data=False).graph.input]
    calibration = recipes.prose_calibration(folder, inputs, recipes.repository_prose(ROOT))
    names = [n for n in BENCH_RECIPES if n != recipes.SHIPPED]
    for name in names:
        if not (out / f"{name}.onnx").exists():
            recipes.build_recipe(name, src, out / f"{name}.onnx", calibration)
    manifest = {"shipped": f"{recipes.SHIPPED}: {recipes.RECIPES[recipes.SHIPPED].what}",
                "variants": {n: recipes.RECIPES[n].what for n in names}}
    (out / "variants.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"variants {names} in {out}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", type=Path, default=ROOT / "bench" / ".models")
    parser.add_argument("--only", default="", help="comma-separated model folder names (default: the bench models and their -spread copies)")
    args = parser.parse_args()
    recipes = load_recipes()
    names = [n for n in args.only.split(",") if n] or sorted(
        p.name for p in args.models.iterdir()
        if (p / "onnx" / "model.onnx").exists() and not p.name.endswith("-trained"))
    for name in names:
        build(args.models / name, recipes)


if __name__ == "__main__":
    main()
