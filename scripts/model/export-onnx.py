#!/usr/bin/env python3
"""Turn a PyTorch reranker checkpoint into a model folder the scorer runs (for Hub repos without an ONNX export).

    npm run model:pull -- <repo id> --pytorch --out models/.build/<name>-torch
    python3 scripts/model/export-onnx.py models/.build/<name>-torch models/<name> [--quantize] [--verify]

Handles the families the scorer serves:
- *ForSequenceClassification (BERT, XLM-RoBERTa, ModernBERT, ...): inputs input_ids, attention_mask, plus
  token_type_ids only when the model has more than one token type (BERT); output logits [batch, labels].
- *ForCausalLM LLM rerankers (Qwen3-Reranker, ...): inputs input_ids, attention_mask (right padded), output the
  logits of each row's last real token [batch, vocab] - the only position the yes/no score reads, so a batch does
  not allocate batch x length x vocab floats. The scorer's default prompt template is Qwen3-Reranker's; put a
  rerank_template.json in the folder for another.
BERT graphs are exported in the Hub's form (scripts/model/hub_form.py), which onnxruntime's BERT optimizer can fuse.
Graphs above 2 GB are saved with their weights in onnx/model.onnx_data (ONNX's protobuf limit). --quantize adds
onnx/model_quantized.onnx, int8 by the shipped recipe of scripts/model/int8_recipes.py (dynamic; MatMul weights
and embedding tables QInt8 per tensor: the same graph the bench measures; README "int8 quantization" says why).
--int8-arch x86-avx2 also writes onnx/model_quint8_avx2.onnx (QUInt8 weights per channel: no int16 saturation on
x86 CPUs without VNNI, ~15% slower). --verify compares the ONNX graph with PyTorch on a few
pairs (max |difference| must stay below 1e-4) and exits non-zero otherwise.
Needs: torch, transformers, onnx, onnxruntime (and sentencepiece for checkpoints with only a slow tokenizer).
"""
from __future__ import annotations

import argparse
import inspect
import json
import shutil
import sys
import tempfile
from pathlib import Path

OPSET = 17
TWO_GB = 2 * 1024**3
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json")
SAMPLE_PAIRS = [("what is the capital of france", "Paris is the capital and largest city of France."),
                ("how do plants make food", "Photosynthesis turns light, water and carbon dioxide into sugar."),
                ("python http library", "")]


def is_causal(config) -> bool:
    return any(a.endswith("ForCausalLM") for a in (config.architectures or []))


def classifier_module(model, with_types: bool):
    import torch

    class Classifier(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            extra = {"token_type_ids": token_type_ids} if with_types else {}
            return self.inner(input_ids=input_ids, attention_mask=attention_mask, **extra).logits

    return Classifier()


def causal_module(model):
    import torch

    class LastTokenLogits(torch.nn.Module):
        """Right-padded rows: the last real token of row r is at attention_mask[r].sum() - 1."""

        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, input_ids, attention_mask):
            hidden = self.inner.model(input_ids=input_ids, attention_mask=attention_mask, use_cache=False).last_hidden_state
            last = attention_mask.sum(dim=1) - 1
            picked = hidden[torch.arange(hidden.shape[0]), last]
            return self.inner.lm_head(picked)

    return LastTokenLogits()


def sample_batch(tokenizer, causal: bool, with_types: bool):
    """Two rows of different lengths, right padded, so the export traces padding and the dynamic axes."""
    if causal:
        tokenizer.padding_side = "right"
        enc = tokenizer([f"<Query>: {q}\n<Document>: {d}" for q, d in SAMPLE_PAIRS], padding=True, return_tensors="pt")
    else:
        enc = tokenizer([q for q, _ in SAMPLE_PAIRS], [d for _, d in SAMPLE_PAIRS], padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if with_types else [])
    return names, {n: enc[n] for n in names}


def quantize_int8(out: Path, large: bool, arches: list[str]) -> None:
    """model_quantized.onnx by the shipped recipe, plus the per-architecture files asked for."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("int8_recipes", Path(__file__).resolve().parent / "int8_recipes.py")
    recipes = importlib.util.module_from_spec(spec)
    sys.modules["int8_recipes"] = recipes
    spec.loader.exec_module(recipes)
    fp32 = out / "onnx" / "model.onnx"
    recipes.build_recipe(recipes.SHIPPED, fp32, out / "onnx" / "model_quantized.onnx", large=large)
    for arch in arches:
        file, recipe = recipes.ARCH_FILES[arch]
        recipes.build_recipe(recipe, fp32, out / "onnx" / file, large=large)


def graph_form(config):
    """BERT exports in the Hub's graph form (hub_form.py: transformers 4.x eager attention), which onnxruntime's
    transformer optimizer fuses into contrib Attention (transformers 5's own form fuses none; bench/quantization-recipes.md);
    every other family exports as transformers 5 writes it."""
    import contextlib
    import importlib.util

    if getattr(config, "model_type", None) != "bert":
        return contextlib.nullcontext()
    spec = importlib.util.spec_from_file_location("hub_form", Path(__file__).resolve().parent / "hub_form.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module.hub_form()


def export(checkpoint: Path, out: Path, quantize: bool, verify: bool, arches: list[str] | None = None) -> None:
    import numpy as np
    import onnx
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer

    config = AutoConfig.from_pretrained(str(checkpoint))
    causal = is_causal(config)
    loader = AutoModelForCausalLM if causal else AutoModelForSequenceClassification
    model = loader.from_pretrained(str(checkpoint), attn_implementation="eager", torch_dtype=torch.float32).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(checkpoint))
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    accepts_types = "token_type_ids" in inspect.signature(model.forward).parameters
    with_types = not causal and accepts_types and getattr(config, "type_vocab_size", 1) > 1
    module = causal_module(model) if causal else classifier_module(model, with_types)
    names, batch = sample_batch(tokenizer, causal, with_types)

    out.mkdir(parents=True, exist_ok=True)
    (out / "onnx").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "model.onnx"
        axes = {n: {0: "batch_size", 1: "sequence_length"} for n in names}
        with torch.no_grad(), graph_form(config):
            torch.onnx.export(module.eval(), tuple(batch[n] for n in names), str(raw), input_names=names,
                              output_names=["logits"], dynamic_axes={**axes, "logits": {0: "batch_size"}},
                              opset_version=OPSET, do_constant_folding=True, dynamo=False)
        graph = onnx.load(str(raw))
        for stale in (out / "onnx").glob("model.onnx*"):
            stale.unlink()
        large = sum(t.ByteSize() for t in graph.graph.initializer) > TWO_GB - 64 * 1024**2
        onnx.save_model(graph, str(out / "onnx" / "model.onnx"), save_as_external_data=large,
                        all_tensors_to_one_file=True, location="model.onnx_data")
    # config.json as the checkpoint has it (architectures, labels, activation), tokenizer as a fast tokenizer.json.
    shutil.copy(checkpoint / "config.json", out / "config.json")
    tokenizer.save_pretrained(str(out))
    for extra in out.iterdir():
        if extra.is_file() and extra.name not in ("config.json", *TOKENIZER_FILES, "rerank_template.json"):
            extra.unlink()
    if (checkpoint / "rerank_template.json").exists():
        shutil.copy(checkpoint / "rerank_template.json", out / "rerank_template.json")
    if quantize:
        quantize_int8(out, large, arches or [])
    print(f"wrote {out} ({'causal LM, last-token logits' if causal else 'classifier'}; inputs {', '.join(names)})")
    if verify:
        import onnxruntime as ort

        session = ort.InferenceSession(str(out / "onnx" / "model.onnx"), providers=["CPUExecutionProvider"])
        with torch.no_grad():
            expected = module(*(batch[n] for n in names)).numpy()
        actual = session.run(["logits"], {n: batch[n].numpy().astype(np.int64) for n in names})[0]
        diff = float(np.max(np.abs(actual - expected)))
        print(f"verify: max |ONNX - PyTorch| = {diff:.2e} over {len(SAMPLE_PAIRS)} padded pairs")
        if not diff < 1e-4:
            sys.exit("verify failed: the ONNX graph does not reproduce the PyTorch model")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint", type=Path, help="folder with config.json, tokenizer files and model.safetensors")
    ap.add_argument("out", type=Path, help="model folder to write (config.json, tokenizer.json, onnx/model.onnx)")
    ap.add_argument("--quantize", action="store_true", help="also write onnx/model_quantized.onnx (dynamic int8)")
    ap.add_argument("--int8-arch", choices=["x86-avx2"], action="append", default=[],
                    help="with --quantize, also write that architecture's int8 file (optimum's names)")
    ap.add_argument("--verify", action="store_true", help="compare ONNX with PyTorch; fail above 1e-4")
    args = ap.parse_args()
    if not (args.checkpoint / "config.json").exists():
        sys.exit(f"{args.checkpoint} has no config.json: pass a PyTorch checkpoint folder (npm run model:pull -- <repo> --pytorch)")
    json.loads((args.checkpoint / "config.json").read_text())
    arches = sorted(set(args.int8_arch))
    export(args.checkpoint, args.out, args.quantize or bool(arches), args.verify, arches)


if __name__ == "__main__":
    main()
