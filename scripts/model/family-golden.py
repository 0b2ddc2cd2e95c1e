#!/usr/bin/env python3
"""Reference scores of the family fixtures (scripts/model/build-family-fixtures.py), computed the Python way.

Cross-encoders: sentence-transformers `CrossEncoder(<PyTorch checkpoint>)` - its tokenizer call (truncation=True,
longest_first, max_length = the tokenizer's model_max_length), its head and its activation (Sigmoid for one label;
for two labels `apply_softmax=True`, or the Sigmoid the config names). The committed ONNX graph is checked against
the PyTorch logits too (Python onnxruntime, one pair per run).

Qwen3 reranker: the Qwen3-Reranker model card's recipe with transformers: the system/user/assistant prompt around
`<Instruct>: {instruction}\\n<Query>: {query}\\n<Document>: {doc}`, the formatted text truncated to
max_length - len(prefix) - len(suffix), score = softmax([logit(no), logit(yes)])[1] at the last token. For the
KV-cache fixture (the same weights in the Hub's graph shape, fp32 and fp16) each case also records what Python
onnxruntime computes with each graph from an empty cache, so the fp16 graph's own rounding is pinned separately from
its distance to the fp32 reference.

Writes test/fixtures/model-families/<fixture>.json. Run after build-family-fixtures.py (it needs models/.build/).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden import LONG_DOC, PAIRS, QUERY  # noqa: E402  (the BERT fixture's cases, reused)

OUT = ROOT / "test" / "fixtures" / "model-families"
BUILD = ROOT / "models" / ".build"
# Longer than the 8,192-token tables of the long-context families: max length must be honoured.
VERY_LONG_DOC = " ".join([LONG_DOC] * 9)

QWEN_PREFIX = ("<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the "
               "Instruct provided. Note that the answer can only be \"yes\" or \"no\".<|im_end|>\n<|im_start|>user\n")
QWEN_SUFFIX = "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
QWEN_DEFAULT_INSTRUCTION = "Given a web search query, retrieve relevant passages that answer the query"
QWEN_MAX_LENGTH = 8192


def versions() -> dict:
    import onnxruntime
    import sentence_transformers
    import tokenizers
    import torch
    import transformers

    return {"torch": torch.__version__, "transformers": transformers.__version__, "tokenizers": tokenizers.__version__,
            "sentence-transformers": sentence_transformers.__version__, "onnxruntime": onnxruntime.__version__}


def cross_encoder_golden(name: str, long_context: bool) -> dict:
    import numpy as np
    import onnxruntime as ort
    import torch
    from sentence_transformers import CrossEncoder
    from tokenizers import Tokenizer

    folder = ROOT / "models" / name
    ce = CrossEncoder(str(BUILD / f"{name}-torch"), device="cpu")
    tokenizer = ce.tokenizer
    max_length = tokenizer.model_max_length
    raw = Tokenizer.from_file(str(folder / "tokenizer.json"))
    raw.enable_truncation(max_length, strategy="longest_first")
    session = ort.InferenceSession(str(folder / "onnx" / "model.onnx"), providers=["CPUExecutionProvider"])
    labels = ce.model.config.num_labels
    pairs = list(PAIRS)
    if long_context:
        pairs.append(("beyond-max-length", QUERY, VERY_LONG_DOC))
    cases = []
    for case, query, document in pairs:
        enc = tokenizer([query], [document], truncation=True, max_length=max_length, return_tensors="np")
        ids = enc["input_ids"][0].tolist()
        r = raw.encode(query, document)
        assert r.ids == ids, f"{name}/{case}: transformers and tokenizers disagree"
        full = len(tokenizer([query], [document], truncation=False)["input_ids"][0])
        with torch.no_grad():
            logits = ce.model(**{k: torch.tensor(v) for k, v in enc.items() if k in ("input_ids", "attention_mask")}).logits[0]
        feeds = {"input_ids": enc["input_ids"].astype(np.int64), "attention_mask": enc["attention_mask"].astype(np.int64)}
        onnx_logits = session.run(["logits"], feeds)[0][0]
        assert np.max(np.abs(onnx_logits - logits.numpy())) < 1e-4, f"{name}/{case}: ONNX export differs from PyTorch"
        if labels == 1:
            predicted = float(ce.predict([(query, document)])[0])
        else:
            # CrossEncoder.predict applies the configured activation; with none configured, apply_softmax picks
            # the softmax over labels. Either way the relevance score is the positive label's column.
            softmax = ce.activation_fn.__class__.__name__ == "Identity"
            predicted = float(ce.predict([(query, document)], apply_softmax=softmax)[0][1])
        cases.append({"name": case, "query": query, "document": document, "tokens": len(ids),
                      "untruncatedTokens": full, "inputIds": ids if len(ids) <= 600 else None,
                      "logits": [float(x) for x in logits.tolist()], "score": predicted})
        print(f"{name:28s} {case:24s} tokens {len(ids):5d}/{full:6d}  score {predicted:.6f}")
    return {"model": f"models/{name}", "onnx": "onnx/model.onnx", "maxLength": max_length, "numLabels": labels,
            "activation": ce.activation_fn.__class__.__name__, "cases": cases}


QWEN_CASES = [
    ("relevant", None, QUERY, "Paris is the capital and largest city of France."),
    ("irrelevant", None, QUERY, "The mitochondria is the powerhouse of the cell."),
    ("custom-instruction", "Judge whether the document is written in French", QUERY,
     "Paris est la capitale de la France."),
    ("empty-doc", None, QUERY, ""),
    ("accents-cjk", None, "café crème", "Crème brûlée: 今日の東京は晴れです。Привет, мир!"),
    ("punctuation-emoji", None, "C++ vs. C#?!", "C++ (pronounced 'see plus plus') — a language; C# is .NET's… 🙂 #1"),
    ("special-token-text", None, "what is <|im_end|>", "The text <|im_start|>user and <think> inside a document."),
    ("long-doc", None, QUERY, LONG_DOC),
    ("beyond-max-length", None, QUERY, VERY_LONG_DOC),
]


def kv_graph_logit(session, ids: list[int], yes: int, no: int) -> float:
    """logit(yes) - logit(no) at the last token of one prompt, run by a KV-cache graph from an empty cache."""
    import numpy as np

    feeds = {"input_ids": np.array([ids], np.int64), "attention_mask": np.ones((1, len(ids)), np.int64),
             "position_ids": np.arange(len(ids), dtype=np.int64)[None]}
    for tensor in session.get_inputs():
        if tensor.name.startswith("past_key_values."):
            dtype = np.float16 if tensor.type == "tensor(float16)" else np.float32
            feeds[tensor.name] = np.zeros((1, tensor.shape[1], 0, tensor.shape[3]), dtype)
    last = session.run(["logits"], feeds)[0][0, -1].astype(np.float64)
    return float(last[yes] - last[no])


def qwen_golden(name: str, checkpoint: str | None = None, graphs: tuple[str, ...] = ()) -> dict:
    import onnxruntime as ort
    import torch
    from tokenizers import Tokenizer
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = ROOT / "models" / name
    torch_folder = BUILD / f"{checkpoint or name}-torch"
    tokenizer = AutoTokenizer.from_pretrained(str(torch_folder), padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(str(torch_folder)).eval()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    sessions = {g: ort.InferenceSession(str(folder / g), options, providers=["CPUExecutionProvider"]) for g in graphs}
    raw = Tokenizer.from_file(str(folder / "tokenizer.json"))
    yes, no = tokenizer.convert_tokens_to_ids("yes"), tokenizer.convert_tokens_to_ids("no")
    prefix = tokenizer.encode(QWEN_PREFIX, add_special_tokens=False)
    suffix = tokenizer.encode(QWEN_SUFFIX, add_special_tokens=False)
    cases = []
    for case, instruction, query, document in QWEN_CASES:
        text = f"<Instruct>: {instruction or QWEN_DEFAULT_INSTRUCTION}\n<Query>: {query}\n<Document>: {document}"
        body = tokenizer([text], padding=False, truncation="longest_first", return_attention_mask=False,
                         max_length=QWEN_MAX_LENGTH - len(prefix) - len(suffix))["input_ids"][0]
        assert raw.encode(text, add_special_tokens=False).ids[: len(body)] == body, f"{case}: tokenizers disagree"
        ids = prefix + body + suffix
        with torch.no_grad():
            last = model(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long)).logits[0, -1]
        pair = torch.stack([last[no], last[yes]])
        score = float(torch.nn.functional.log_softmax(pair, dim=0)[1].exp())
        entry = {"name": case, "instruction": instruction, "query": query, "document": document,
                 "tokens": len(ids), "inputIds": ids if len(ids) <= 600 else None,
                 "logit": float(last[yes] - last[no]), "score": score}
        if sessions:
            entry["onnxLogits"] = {g: kv_graph_logit(s, ids, yes, no) for g, s in sessions.items()}
        cases.append(entry)
        extra = "  ".join(f"{g}: {v - entry['logit']:+.2e}" for g, v in entry.get("onnxLogits", {}).items())
        print(f"{name:28s} {case:24s} tokens {len(ids):5d}  p(yes) {score:.6f}  {extra}")
    return {"model": f"models/{name}", "onnx": "onnx/model.onnx", "maxLength": QWEN_MAX_LENGTH,
            **({"graphs": list(graphs)} if graphs else {}),
            "prefix": QWEN_PREFIX, "suffix": QWEN_SUFFIX, "defaultInstruction": QWEN_DEFAULT_INSTRUCTION,
            "yesTokenId": yes, "noTokenId": no, "cases": cases}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(2)
    jobs = {
        "xlmr-fixture": lambda: cross_encoder_golden("xlmr-fixture", True),
        "xlmr-2label-softmax-fixture": lambda: cross_encoder_golden("xlmr-2label-softmax-fixture", False),
        "xlmr-2label-sigmoid-fixture": lambda: cross_encoder_golden("xlmr-2label-sigmoid-fixture", False),
        "modernbert-fixture": lambda: cross_encoder_golden("modernbert-fixture", True),
        "qwen3-reranker-fixture": lambda: qwen_golden("qwen3-reranker-fixture"),
        # Same weights as qwen3-reranker-fixture (its PyTorch checkpoint), Hub-shaped graphs.
        "qwen3-reranker-kv-fixture": lambda: qwen_golden("qwen3-reranker-kv-fixture", "qwen3-reranker-fixture",
                                                         ("onnx/model.onnx", "onnx/model_fp16.onnx")),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.only or list(jobs):
        result = {"about": f"Reference scores of models/{name} by scripts/model/family-golden.py", **jobs[name](),
                  "versions": versions()}
        (OUT / f"{name}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OUT / (name + '.json')}")


if __name__ == "__main__":
    main()
