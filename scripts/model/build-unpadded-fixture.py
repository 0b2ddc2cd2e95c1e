#!/usr/bin/env python3
"""Build test/fixtures/unpadded-cross-encoder/: a tiny BERT cross-encoder in the padding-free form (no attention_mask input).

Random weights (seed 11, init std 0.2 so scores differ), hidden 32, 2 layers, 2 heads, the first 8,000 pieces of the real
bert-base-uncased WordPiece vocabulary; exported in the Hub form (hub_form.py), fused (int8_recipes.fuse_bert) and
rewritten by mha_rewrite.py without a mask (recipe mha-nomask-fp32): MultiHeadAttention with no key padding mask, so
the graph can only score unpadded pairs. golden.json holds PyTorch logits of three pairs of different lengths: the
scorer must reproduce them in one request (test/unit/scoring/unpadded-graph.test.ts), which it can only do by
running such a graph one pair per run.

    python3 scripts/model/build-unpadded-fixture.py [OUT]
Needs: torch, transformers, onnx, onnxruntime, tokenizers.
"""
import sys, json, importlib.util, torch, shutil
from pathlib import Path
HERE = Path(__file__).resolve().parent; ROOT = HERE.parents[1]
def load(name, p):
    spec = importlib.util.spec_from_file_location(name, p); m = importlib.util.module_from_spec(spec); sys.modules[name] = m; spec.loader.exec_module(m); return m
fx = load("build_fixture", HERE / "build-fixture.py"); rec = load("int8_recipes", HERE / "int8_recipes.py"); hub = load("hub_form", HERE / "hub_form.py")
from transformers import BertConfig, BertForSequenceClassification
torch.manual_seed(11)
cfg = BertConfig(**{**fx.MODEL_CONFIG, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 64, "initializer_range": 0.2, "vocab_size": 8000})
model = BertForSequenceClassification(cfg).eval()
out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "test" / "fixtures" / "unpadded-cross-encoder"; (out / "onnx").mkdir(parents=True, exist_ok=True)
with hub.hub_form():
    fx.export_onnx(model, out / "onnx" / "model.tmp.onnx")
cfg.save_pretrained(out)
vocab = fx.load_bert_base_uncased_vocab(fx.VOCAB_JSON)[:8000]  # the first 8,000 pieces: specials, punctuation, common words
fx.build_tokenizer(vocab).save(str(out / "tokenizer.json"), pretty=False)
(out / "tokenizer_config.json").write_text(json.dumps(fx.TOKENIZER_CONFIG, indent=2) + "\n")
counts = rec.build_recipe("mha-nomask-fp32", out / "onnx" / "model.tmp.onnx", out / "onnx" / "model.onnx")
(out / "onnx" / "model.tmp.onnx").unlink()
tok = fx.build_tokenizer(vocab); tok.enable_truncation(512)
pairs = [("python http library", "requests is a simple http library for python"),
         ("python http library", "a"), ("how do plants make food", "photosynthesis " * 40)]
golden = []
with torch.no_grad():
    for q, d in pairs:
        e = tok.encode(q, d)
        logit = model(input_ids=torch.tensor([e.ids]), attention_mask=torch.ones(1, len(e.ids), dtype=torch.long),
                      token_type_ids=torch.tensor([e.type_ids])).logits[0, 0].item()
        golden.append({"query": q, "document": d, "tokens": len(e.ids), "logit": logit})
(out / "golden.json").write_text(json.dumps(golden, indent=1) + "\n")
print(counts)
