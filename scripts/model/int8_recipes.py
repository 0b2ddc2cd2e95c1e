"""int8 quantization recipes for BERT-style cross-encoders: one place that says how each int8 graph is made.

Used by the converters (export-onnx.py --quantize, build-random-shapes.py), by the bench
(scripts/measure/scoring/quantize-variants.py) and by the recipe exploration (scripts/measure/scoring/explore-quantization.py),
so the graph the bench measures is the graph the converters ship.

    build_recipe(SHIPPED, Path("onnx/model.onnx"), Path("onnx/model_quantized.onnx"))

SHIPPED is the recipe `model_quantized.onnx` gets; bench/quantization-recipes.md has the measurements
behind the choice (speed vs fp32 and Spearman vs fp32 for every recipe below).
Needs onnx and onnxruntime (quantization tools); static recipes also need calibration feeds.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

# Chosen from the measurements in bench/quantization-recipes.md (README "int8 quantization"): the fastest tier
# (QInt8 dynamic, ~1.3-1.5x fp32 per CPU-second on MiniLM-L6) and, within it, the best rank agreement measured
# (per channel and 7-bit weights did not help on the MiniLM-L6 shapes). The embedding tables are int8 too: they
# are most of a large-vocabulary model's bytes (XLM-R: 250k x 768).
SHIPPED = "dyn-pt-gather"
# Per-architecture files (optimum's names) for `export-onnx.py --int8-arch`: QUInt8 weights for x86 CPUs without
# VNNI, whose u8 x s8 kernel (vpmaddubsw) can saturate int16 pair sums; u8 x u8 cannot, at ~15% less speed here.
ARCH_FILES = {
    "x86-avx2": ("model_quint8_avx2.onnx", "dyn-pc-u8u8"),
}

# Activation x activation MatMuls of self-attention (Q.K^T and softmax.V) in HF BERT exports.
ATTENTION_MATMUL = re.compile(r"/attention/self/MatMul(_1)?$")
HEAD = re.compile(r"(pooler|classifier)")
# Q, K, V and attention-output projections (weight MatMuls of the attention block).
ATTENTION_PROJECTION = re.compile(r"/attention/(self/(query|key|value)|output/dense)/MatMul$")


@dataclass(frozen=True)
class Recipe:
    name: str
    what: str
    static: bool = False
    ops: tuple[str, ...] = ("MatMul",)
    per_channel: bool = False
    reduce_range: bool = False
    # "s8" = QInt8, "u8" = QUInt8
    weights: str = "s8"
    activations: str = "u8"
    exclude: tuple[str, ...] = ()  # "head", "attention", "attention-projections", "first-last"
    calibration: str = "MinMax"  # static only: MinMax | Entropy | Percentile
    # Run onnxruntime.transformers' BERT optimizer first. What it fuses depends on the graph's form: torch 2.13's
    # export gets SkipLayerNormalization + BiasGelu only (0 Attention); the Hub's (optimum, eager) form also gets one
    # contrib Attention per layer and EmbedLayerNormalization. build_recipe returns the op counts, never assume them.
    fused: bool = False
    # After fusing: "masked" / "nomask" rewrites each Attention into MatMul + MultiHeadAttention (mha_rewrite.py);
    # "nomask" graphs are correct only for batches without padding (the scorer's one-pair runs).
    mha: str = ""
    extra: dict = field(default_factory=dict)


RECIPES: dict[str, Recipe] = {r.name: r for r in [
    Recipe("dyn-pt-gather", "dynamic, MatMul + Gather, QInt8, per-tensor",
           ops=("MatMul", "Gather")),
    Recipe("dyn-pt", "dynamic, MatMul, QInt8, per-tensor"),
    Recipe("dyn-pc", "dynamic, MatMul, QInt8, per-channel", per_channel=True),
    Recipe("dyn-pc-rr", "dynamic, MatMul, QInt8 7-bit (reduce_range), per-channel", per_channel=True, reduce_range=True),
    Recipe("dyn-pt-u8u8", "dynamic, MatMul, QUInt8 weights, per-tensor", weights="u8"),
    Recipe("dyn-pc-u8u8", "dynamic, MatMul, QUInt8 weights, per-channel", weights="u8", per_channel=True),
    Recipe("dyn-pc-mid", "dynamic, MatMul, QInt8, per-channel, first and last layer fp32", per_channel=True,
           exclude=("first-last",)),
    Recipe("dyn-pc-u8u8-gather", "dynamic, MatMul + Gather (embedding tables int8 too), QUInt8 weights, per-channel",
           ops=("MatMul", "Gather"), weights="u8", per_channel=True),
    Recipe("dyn-pc-gather", "dynamic, MatMul + Gather, QInt8, per-channel", ops=("MatMul", "Gather"), per_channel=True),
    Recipe("dyn-pc-rr-gather", "dynamic, MatMul + Gather, QInt8 7-bit (reduce_range), per-channel",
           ops=("MatMul", "Gather"), per_channel=True, reduce_range=True),
    Recipe("dyn-pc-u8u8-ffn", "dynamic, feed-forward MatMuls only (attention projections fp32), QUInt8 weights, per-channel",
           weights="u8", per_channel=True, exclude=("attention-projections",)),
    Recipe("dyn-pc-fused", "BERT optimizer then dynamic, MatMul + Attention (QAttention where fused), QInt8, per-channel",
           ops=("MatMul", "Attention"), per_channel=True, fused=True),
    Recipe("dyn-pc-u8u8-fused", "BERT optimizer then dynamic, MatMul + Attention (QAttention where fused), QUInt8 weights, per-channel",
           ops=("MatMul", "Attention"), per_channel=True, weights="u8", fused=True),
    Recipe("dyn-pt-fused", "BERT optimizer then dynamic, MatMul + Attention (QAttention where fused), QInt8, per-tensor",
           ops=("MatMul", "Attention"), fused=True),
    Recipe("fused-fp32", "BERT optimizer only, fp32 (no quantization)", ops=(), fused=True),
    Recipe("mha-fp32", "BERT optimizer, Attention -> MatMul + MultiHeadAttention (masked), fp32", ops=(), fused=True, mha="masked"),
    Recipe("mha-nomask-fp32", "BERT optimizer, Attention -> MatMul + MultiHeadAttention without mask (one pair per run), fp32",
           ops=(), fused=True, mha="nomask"),
    Recipe("dyn-pt-mha", "BERT optimizer, MultiHeadAttention (masked), then dynamic MatMul QInt8 per-tensor",
           fused=True, mha="masked"),
    Recipe("dyn-pt-mha-nomask", "BERT optimizer, MultiHeadAttention without mask (one pair per run), then dynamic MatMul QInt8 per-tensor",
           fused=True, mha="nomask"),
    Recipe("st-qdq-pc-minmax", "static QDQ, MatMul + Gemm, per-channel QInt8 weights, u8 activations, MinMax",
           static=True, ops=("MatMul", "Gemm"), per_channel=True),
    Recipe("st-qdq-pc-noattn-minmax", "static QDQ, weight MatMuls only (attention + head fp32), per-channel, MinMax",
           static=True, per_channel=True, exclude=("attention", "head")),
    Recipe("st-qdq-pc-noattn-entropy", "static QDQ, weight MatMuls only, per-channel, Entropy calibration",
           static=True, per_channel=True, exclude=("attention", "head"), calibration="Entropy"),
    Recipe("st-qdq-pc-noattn-pct", "static QDQ, weight MatMuls only, per-channel, Percentile 99.999 calibration",
           static=True, per_channel=True, exclude=("attention", "head"), calibration="Percentile"),
    Recipe("st-qdq-pc-noattn-rr", "static QDQ, weight MatMuls only, per-channel 7-bit weights, MinMax",
           static=True, per_channel=True, reduce_range=True, exclude=("attention", "head")),
    Recipe("st-qdq-pc-s8s8-noattn", "static QDQ, weight MatMuls only, per-channel, s8 activations, MinMax",
           static=True, per_channel=True, activations="s8", exclude=("attention", "head")),
]}


def _quant_type(kind: str):
    from onnxruntime.quantization import QuantType

    return QuantType.QInt8 if kind == "s8" else QuantType.QUInt8


def excluded_nodes(model_path: Path, recipe: Recipe) -> list[str]:
    """Node names a recipe keeps in fp32, found by the HF BERT export's node naming."""
    import onnx

    graph = onnx.load(str(model_path), load_external_data=False).graph
    names = [n.name for n in graph.node if n.op_type in ("MatMul", "Gemm", "Attention")]
    layers = sorted({int(m.group(1)) for n in names if (m := re.search(r"layer\.(\d+)/", n))})
    out: list[str] = []
    for n in names:
        if "attention" in recipe.exclude and ATTENTION_MATMUL.search(n):
            out.append(n)
        if "attention-projections" in recipe.exclude and ATTENTION_PROJECTION.search(n):
            out.append(n)
        if "head" in recipe.exclude and HEAD.search(n):
            out.append(n)
        if "first-last" in recipe.exclude and layers and re.search(rf"layer\.({layers[0]}|{layers[-1]})/", n):
            out.append(n)
    return out


def op_counts(path: Path) -> dict[str, int]:
    """Nodes by op type (what a fusion or a quantization really produced)."""
    import collections

    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    return dict(sorted(collections.Counter(n.op_type for n in graph.node).items()))


def fuse_bert(src: Path, dst: Path) -> dict[str, int]:
    """onnxruntime.transformers' BERT fusions (offline, opt level 0: portable contrib ops, CPU EP); returns the
    fused graph's op counts (Attention 0 means the attention pattern was not recognized)."""
    import json

    from onnxruntime.transformers.optimizer import optimize_model

    config = json.loads((src.parent.parent / "config.json").read_text())
    model = optimize_model(str(src), model_type="bert", num_heads=config["num_attention_heads"],
                           hidden_size=config["hidden_size"], opt_level=0)
    model.save_model_to_file(str(dst))
    return op_counts(dst)


def build_recipe(name: str, src: Path, dst: Path,
                 calibration: Callable[[int | None], Iterable[dict]] | None = None, large: bool = False) -> dict[str, int]:
    """Writes the int8 graph of recipe `name` for the fp32 graph `src` to `dst` (`large`: weights as external data);
    returns its op counts (Attention / QAttention / MatMulInteger / QLinearMatMul say what was fused and quantized)."""
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, quantize_dynamic,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    recipe = RECIPES[name]
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp: list[Path] = []
    try:
        source = src
        if recipe.fused:
            source = dst.with_suffix(".fused.tmp.onnx")
            tmp.append(source)
            fuse_bert(src, source)
        if recipe.mha:
            import importlib.util

            spec = importlib.util.spec_from_file_location("mha_rewrite", Path(__file__).resolve().parent / "mha_rewrite.py")
            mha = importlib.util.module_from_spec(spec)
            assert spec.loader is not None
            spec.loader.exec_module(mha)
            rewritten = dst.with_suffix(".mha.tmp.onnx")
            tmp.append(rewritten)
            mha.rewrite(source, rewritten, masked=recipe.mha == "masked")
            source = rewritten
        if not recipe.ops:
            import shutil

            shutil.copyfile(source, dst)
        elif recipe.static:
            if calibration is None:
                raise ValueError(f"recipe {name} is static: it needs calibration feeds")
            pre = dst.with_suffix(".pre.tmp.onnx")
            tmp.append(pre)
            quant_pre_process(str(source), str(pre), skip_symbolic_shape=True)
            # Histogram calibrators (Entropy, Percentile) merge every run's tensors, so they need one
            # shape: those runs use pairs cut/padded to 128 tokens (which also bounds their memory).
            feeds = iter(calibration(None if recipe.calibration == "MinMax" else 128))

            class Reader(CalibrationDataReader):
                def get_next(self):
                    return next(feeds, None)

            quantize_static(str(pre), str(dst), Reader(), quant_format=QuantFormat.QDQ, per_channel=recipe.per_channel,
                            reduce_range=recipe.reduce_range, activation_type=_quant_type(recipe.activations),
                            weight_type=_quant_type(recipe.weights), op_types_to_quantize=list(recipe.ops),
                            nodes_to_exclude=excluded_nodes(pre, recipe),
                            calibrate_method=getattr(CalibrationMethod, recipe.calibration),
                            extra_options={"ActivationSymmetric": recipe.activations == "s8",
                                           "CalibPercentile": 99.999, **recipe.extra})
        else:
            quantize_dynamic(str(source), str(dst), op_types_to_quantize=list(recipe.ops), use_external_data_format=large,
                             per_channel=recipe.per_channel, reduce_range=recipe.reduce_range,
                             weight_type=_quant_type(recipe.weights), nodes_to_exclude=excluded_nodes(source, recipe),
                             # Contrib ops of the fused graph defeat ONNX shape inference; every tensor here is float.
                             extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT, **recipe.extra})
    finally:
        for p in tmp:
            p.unlink(missing_ok=True)
            p.with_name(p.name + ".data").unlink(missing_ok=True)
    return op_counts(dst)


def prose_calibration(folder: Path, input_names: list[str], texts: list[str], count: int = 32, seed: int = 7,
                      max_length: int = 512):
    """Calibration feeds from real English prose (not the bench documents): a short query cut from one
    paragraph, paired with a run of 1-6 other paragraphs, one pair per run (no padding), like rerank inputs."""
    import numpy as np
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.enable_truncation(max_length, strategy="longest_first")
    paragraphs = [re.sub(r"\s+", " ", p).strip() for t in texts for p in re.split(r"\n\s*\n", t)]
    paragraphs = [p for p in paragraphs if len(p.split()) >= 8 and not p.startswith("|")]
    rng = random.Random(seed)

    def feeds(width: int | None = None):
        """One pair per run, unpadded; with `width`, every pair cut or right-padded to `width` tokens."""
        for _ in range(count):
            words = rng.choice(paragraphs).split()
            start = rng.randrange(0, max(1, len(words) - 8))
            query = " ".join(words[start:start + rng.randint(3, 8)])
            first = rng.randrange(len(paragraphs))
            doc = " ".join(paragraphs[first:first + rng.choice([1, 1, 2, 3, 6])])
            enc = tok.encode(query, doc)
            n = len(enc.ids) if width is None else min(width, len(enc.ids))
            size = n if width is None else width
            ids, mask, types = (np.zeros((1, size), dtype=np.int64) for _ in range(3))
            ids[0, :n], mask[0, :n], types[0, :n] = enc.ids[:n], 1, enc.type_ids[:n]
            every = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            yield {k: every[k] for k in input_names}

    return feeds


def repository_prose(root: Path) -> list[str]:
    """The repository's own Markdown (README, model cards, guides): real English, never the bench texts."""
    files = [root / "README.md", root / "SECURITY.md", *sorted((root / "models").glob("*/README.md"))]
    return [f.read_text(encoding="utf-8") for f in files if f.exists()]
