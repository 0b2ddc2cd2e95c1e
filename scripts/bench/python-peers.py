#!/usr/bin/env python3
"""Python peers of the rerank bench, driven by scripts/bench/run-bench.ts over stdin/stdout (JSON lines).

Runtimes, each given the same (query, documents) and the same model folder as the TypeScript scorer:
  ort  Python onnxruntime on the same .onnx graph with the same session options, HF `tokenizers` (Rust)
       with truncation=longest_first at max_length, and the same length-aware batching (sort by length,
       pad per batch, cap rows and padded tokens). Same work, other language: measures binding overhead.
  st   sentence-transformers CrossEncoder(folder).predict(pairs, batch_size) on PyTorch CPU (fp32
       safetensors weights of the same random model): what most Python rerank services run.

Commands (one JSON object per line): {"cmd":"hello"} -> versions; {"cmd":"load", "runtime", "folder",
"onnx", "threads", "batchSize", "maxBatchTokens"}; {"cmd":"run", "runtime", "query", "documents"} ->
{"seconds", "tokenizeSeconds"}; {"cmd":"quit"}. Errors come back as {"error": "..."}.
"""
from __future__ import annotations

import json
import sys
import time
import traceback

loaded: dict[str, dict] = {}


def versions() -> dict:
    out = {"python": sys.version.split()[0]}
    for name in ("onnxruntime", "tokenizers", "torch", "transformers", "sentence_transformers", "numpy"):
        try:
            out[name] = __import__(name).__version__
        except Exception as error:  # noqa: BLE001 - a missing peer is reported, not fatal
            out[name] = None
            out[f"{name}_error"] = str(error).splitlines()[0] if str(error) else type(error).__name__
    return out


def load_ort(req: dict) -> dict:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = req["threads"]
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.enable_mem_pattern = False
    session = ort.InferenceSession(f"{req['folder']}/{req['onnx']}", opts, providers=["CPUExecutionProvider"])
    tok = Tokenizer.from_file(f"{req['folder']}/tokenizer.json")
    tok.enable_truncation(req.get("maxLength", 512), strategy="longest_first")
    tok.no_padding()
    return {"session": session, "tokenizer": tok, "inputs": [i.name for i in session.get_inputs()], **req}


def length_batches(lengths: list[int], batch_size: int, max_tokens: int) -> list[list[int]]:
    """Same rule as shared/scoring/length-batches.ts."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    batches, current = [], []
    for i in order:
        if current and (len(current) >= batch_size or (len(current) + 1) * lengths[i] > max_tokens):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def run_ort(state: dict, query: str, documents: list[str]) -> dict:
    import numpy as np

    t0 = time.perf_counter()
    encodings = state["tokenizer"].encode_batch([(query, d) for d in documents])
    t1 = time.perf_counter()
    lengths = [len(e.ids) for e in encodings]
    scores = np.empty(len(documents), dtype=np.float32)
    for batch in length_batches(lengths, state["batchSize"], state["maxBatchTokens"]):
        width = max(lengths[i] for i in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, i in enumerate(batch):
            e = encodings[i]
            n = len(e.ids)
            ids[row, :n] = e.ids
            mask[row, :n] = 1
            types[row, :n] = e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        logits = state["session"].run(None, {k: feeds[k] for k in state["inputs"]})[0]
        scores[batch] = logits[:, 0]
    t2 = time.perf_counter()
    return {"seconds": t2 - t0, "tokenizeSeconds": t1 - t0, "checksum": float(scores.sum())}


def load_st(req: dict) -> dict:
    import torch
    from sentence_transformers import CrossEncoder

    torch.set_num_threads(req["threads"])
    model = CrossEncoder(req["folder"], device="cpu", max_length=req.get("maxLength", 512))
    return {"model": model, **req}


def run_st(state: dict, query: str, documents: list[str]) -> dict:
    import torch

    t0 = time.perf_counter()
    with torch.inference_mode():
        scores = state["model"].predict([(query, d) for d in documents], batch_size=state["batchSize"],
                                        show_progress_bar=False)
    return {"seconds": time.perf_counter() - t0, "tokenizeSeconds": None, "checksum": float(scores.sum())}


def handle(req: dict) -> dict:
    cmd = req["cmd"]
    if cmd == "hello":
        return {"versions": versions()}
    if cmd == "load":
        t0 = time.perf_counter()
        loaded[req["runtime"]] = (load_ort if req["runtime"] == "ort" else load_st)(req)
        return {"loadSeconds": time.perf_counter() - t0}
    if cmd == "run":
        state = loaded[req["runtime"]]
        return (run_ort if req["runtime"] == "ort" else run_st)(state, req["query"], req["documents"])
    raise ValueError(f"unknown command {cmd}")


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("cmd") == "quit":
            break
        try:
            out = handle(req)
        except Exception as error:  # noqa: BLE001 - reported to the driver
            out = {"error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc(limit=3)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
