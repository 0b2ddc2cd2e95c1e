#!/usr/bin/env python3
"""Reference scores for the committed cross-encoder fixture, computed the Python way.

Writes test/fixtures/model/golden.json, which the TypeScript scorer must reproduce (logits within 1e-4,
identical token ids). The reference is what sentence-transformers' CrossEncoder does:
    tokenizer([query], [document], truncation=True, max_length=512)   # longest_first, HF fast tokenizer
then the ONNX graph through Python onnxruntime, one pair per run (no padding), logits[:, 0].

Run from the repository root after build-fixture.py:
    python3 scripts/model/golden.py [--model models/tinybert-l2-fixture] [--onnx onnx/model_quantized.onnx]
Needs: transformers, tokenizers, onnxruntime, numpy.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

QUERY = "what is the capital of france"
LONG_DOC = " ".join(
    f"Paragraph {i}: the history of Paris spans more than two thousand years, from the Parisii tribe to the Roman "
    f"town of Lutetia, the medieval capital of the Capetian kings, and the modern city of museums and cafés."
    for i in range(40)
)  # ~1,300 word pieces: far beyond 512
LONG_QUERY = " ".join(["which european city hosted the exposition universelle and built the eiffel tower"] * 25)
HUGE_QUERY = " ".join(["tell me everything about rivers bridges and islands of paris"] * 70)

# (name, query, document). Names are stable so tests can single out cases.
PAIRS: list[tuple[str, str, str]] = [
    ("relevant", QUERY, "Paris is the capital and largest city of France."),
    ("irrelevant", QUERY, "The mitochondria is the powerhouse of the cell."),
    ("duplicate-of-relevant", QUERY, "Paris is the capital and largest city of France."),
    ("uppercase-query", QUERY.upper(), "Paris is the capital and largest city of France."),
    ("empty-doc", QUERY, ""),
    ("whitespace-doc", QUERY, "   \n\t "),
    ("one-char-doc", QUERY, "a"),
    ("accents", "café crème brûlée recipe", "Crème brûlée: a rich custard topped with caramelised sugar. Café au lait, naïve façade, Ångström."),
    ("cjk", "東京の天気", "今日の東京は晴れです。明日は雨が降るでしょう。북한 서울 中文测试"),
    ("cyrillic-arabic-greek", "Привет мир", "Привет, мир! مرحبا بالعالم. Γειά σου Κόσμε."),
    ("punctuation-emoji", "C++ vs. C#?!", "C++ (pronounced 'see plus plus') — a language; C# is .NET's… 🙂 #1 @home $100 50% <tag> [SEP] end"),
    ("control-chars", "line breaks", "line1\nline2\r\n\tTabbed\u0000nul\u200bzero-width\u00adsoft-hyphen\ufeffbom"),
    ("long-doc", QUERY, LONG_DOC),
    ("long-query-long-doc", LONG_QUERY, LONG_DOC),
    ("huge-query-short-doc", HUGE_QUERY, "Paris has 37 bridges over the Seine."),
]

MAX_LENGTH = 512


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=ROOT / "models" / "tinybert-l2-fixture")
    ap.add_argument("--onnx", default="onnx/model_quantized.onnx")
    ap.add_argument("--out", type=Path, default=ROOT / "test" / "fixtures" / "model" / "golden.json")
    args = ap.parse_args()

    import numpy as np
    import onnxruntime as ort
    import transformers
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    hf = AutoTokenizer.from_pretrained(str(args.model))
    # Cross-check: the raw `tokenizers` pipeline with explicit longest_first truncation must agree.
    raw = Tokenizer.from_file(str(args.model / "tokenizer.json"))
    raw.enable_truncation(MAX_LENGTH, strategy="longest_first")
    session = ort.InferenceSession(str(args.model / args.onnx), providers=["CPUExecutionProvider"])

    cases = []
    for name, query, document in PAIRS:
        # Batch form (lists), as CrossEncoder calls it: a single-pair call would treat an empty document as
        # "no pair" ([CLS] q [SEP]); the batch form and the Rust tokenizer encode it as a pair ([CLS] q [SEP] [SEP]).
        enc = hf([query], [document], truncation=True, max_length=MAX_LENGTH, return_tensors="np")
        ids = enc["input_ids"][0].tolist()
        types = enc["token_type_ids"][0].tolist()
        r = raw.encode(query, document)
        assert r.ids == ids and r.type_ids == types, f"{name}: transformers and tokenizers disagree"
        full = hf([query], [document], truncation=False)["input_ids"][0]
        feeds = {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
        logit = float(session.run(["logits"], feeds)[0][0, 0])
        cases.append({
            "name": name,
            "query": query,
            "document": document,
            "tokens": len(ids),
            "untruncatedTokens": len(full),
            "queryTokens": types.count(0) - 2,
            "inputIds": ids,
            "tokenTypeIds": types,
            "logit": logit,
        })

    out = {
        "about": "Reference logits of models/tinybert-l2-fixture computed by scripts/model/golden.py "
                 "(HF tokenizer truncation=True/longest_first, max_length 512; Python onnxruntime, one pair per run).",
        "model": str(args.model.relative_to(ROOT)) if args.model.is_relative_to(ROOT) else str(args.model),
        "onnx": args.onnx,
        "maxLength": MAX_LENGTH,
        "versions": {"onnxruntime": ort.__version__, "transformers": transformers.__version__,
                     "tokenizers": __import__("tokenizers").__version__},
        "cases": cases,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for c in cases:
        print(f"{c['name']:24s} tokens {c['tokens']:4d}/{c['untruncatedTokens']:5d}  query {c['queryTokens']:3d}  logit {c['logit']:+.6f}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
