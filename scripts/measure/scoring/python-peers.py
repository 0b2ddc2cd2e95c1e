#!/usr/bin/env python3
"""Python peers of the rerank bench, driven by scripts/measure/scoring/run-bench.ts over stdin/stdout (JSON lines).

Runtimes, each given the same (query, documents) and the same model folder as the TypeScript scorer:
  ort  Python onnxruntime on the same .onnx graph, one session with `threads` intra-op threads, HF
       `tokenizers` (Rust) with truncation=longest_first at max_length, and the same length-aware batching
       (sort by length, pad per batch, cap rows and padded tokens).
  ortpar  The same, but `threads` single-threaded sessions on a thread pool working through the batches
       costliest first (the same schedule as shared/scoring/length-batches.ts scheduleBatches): the plan our
       scorer runs, in Python. Same work, other language: measures binding overhead.
  st   sentence-transformers CrossEncoder(folder).predict(pairs, batch_size) on PyTorch CPU (fp32
       safetensors weights of the same random model): what most Python rerank services run.
  stbf16  The same CrossEncoder loaded with model_kwargs={"torch_dtype": torch.bfloat16}: on a CPU with AMX /
       AVX-512 BF16 (Sapphire Rapids and later: AWS c7i/m7i/r7i) PyTorch's oneDNN runs bf16 GEMMs on AMX tiles.

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


def ort_session(path: str, threads: int):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.enable_mem_pattern = False
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def load_ort(req: dict) -> dict:
    from tokenizers import Tokenizer

    path = f"{req['folder']}/{req['onnx']}"
    if req["runtime"] == "ortpar":
        sessions = [ort_session(path, 1) for _ in range(req["threads"])]
    else:
        sessions = [ort_session(path, req["threads"])]
    tok = Tokenizer.from_file(f"{req['folder']}/tokenizer.json")
    tok.enable_truncation(req.get("maxLength", 512), strategy="longest_first")
    tok.no_padding()
    hidden = json.load(open(f"{req['folder']}/config.json")).get("hidden_size", 384)
    # Same test as shared/scoring/onnx-runtime/execution-plan.ts quantizesActivationsPerRun.
    batch_invariant = b"DynamicQuantizeLinear" not in open(path, "rb").read()
    return {"sessions": sessions, "tokenizer": tok, "inputs": [i.name for i in sessions[0].get_inputs()], "hidden": hidden,
            "batchInvariant": batch_invariant, **req}


def batch_cost(rows: int, width: int, hidden: int) -> float:
    """Same estimate as shared/scoring/length-batches.ts batchCost."""
    return rows * width * (1 + width / (6 * hidden))


def length_batches(lengths: list[int], batch_size: int, max_tokens: int, max_cost: float = float("inf"),
                   hidden: int = 384, max_scores: float = float("inf")) -> list[list[int]]:
    """Same rule as shared/scoring/length-batches.ts lengthBatches (max_scores: its maxBatchScores, rows x width^2)."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    batches, current = [], []
    for i in order:
        rows = len(current) + 1
        full = (len(current) >= batch_size or rows * lengths[i] > max_tokens or rows * lengths[i] ** 2 > max_scores
                or batch_cost(rows, lengths[i], hidden) > max_cost)
        if current and full:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def schedule_batches(lengths: list[int], batch_size: int, max_tokens: int, parallelism: int, hidden: int,
                     batch_invariant: bool, max_scores: float = float("inf")) -> list[list[int]]:
    """Same rule as shared/scoring/length-batches.ts scheduleBatches: cost-capped, costliest first."""
    max_cost = float("inf")
    if parallelism > 1 and batch_invariant and len(lengths) > 1:
        max_cost = sum(batch_cost(1, n, hidden) for n in lengths) / (2 * parallelism)
    batches = length_batches(lengths, batch_size, max_tokens, max_cost, hidden, max_scores)
    return sorted(batches, key=lambda b: -batch_cost(len(b), lengths[b[-1]], hidden))


def run_ort(state: dict, query: str, documents: list[str]) -> dict:
    import numpy as np

    t0 = time.perf_counter()
    encodings = state["tokenizer"].encode_batch([(query, d) for d in documents])
    t1 = time.perf_counter()
    lengths = [len(e.ids) for e in encodings]
    scores = np.empty(len(documents), dtype=np.float32)
    sessions = state["sessions"]
    batches = schedule_batches(lengths, state["batchSize"], state["maxBatchTokens"], len(sessions), state["hidden"],
                               state["batchInvariant"], state.get("maxBatchScores") or float("inf"))

    def run_batch(session, batch: list[int]) -> None:
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
        logits = session.run(None, {k: feeds[k] for k in state["inputs"]})[0]
        scores[batch] = logits[:, 0]

    if len(sessions) == 1:
        for batch in batches:
            run_batch(sessions[0], batch)
    else:
        # One Python thread per session pulling the next costliest batch (session.run releases the GIL).
        import threading

        lock = threading.Lock()
        queue = list(reversed(batches))

        def drain(session) -> None:
            while True:
                with lock:
                    if not queue:
                        return
                    batch = queue.pop()
                run_batch(session, batch)

        workers = [threading.Thread(target=drain, args=(s,)) for s in sessions]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    t2 = time.perf_counter()
    return {"seconds": t2 - t0, "tokenizeSeconds": t1 - t0, "checksum": float(scores.sum()),
            **({"scores": scores.tolist()} if state.get("returnScores") else {})}


def cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo") as f:
            return next((set(line.split(":", 1)[1].split()) for line in f if line.startswith("flags")), set())
    except OSError:
        return set()


def has_bf16_hardware() -> bool:
    """AMX bf16 tiles or AVX-512 BF16 dot products: where PyTorch bf16 is a fair peer (elsewhere it is emulated and slow)."""
    return bool(cpu_flags() & {"amx_bf16", "avx512_bf16"})


def load_st(req: dict) -> dict:
    import torch
    from sentence_transformers import CrossEncoder

    torch.set_num_threads(req["threads"])
    kwargs = {"model_kwargs": {"torch_dtype": torch.bfloat16}} if req["runtime"] == "stbf16" else {}
    model = CrossEncoder(req["folder"], device="cpu", max_length=req.get("maxLength", 512), **kwargs)
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
        return {"versions": versions(), "bf16Hardware": has_bf16_hardware()}
    if cmd == "load":
        t0 = time.perf_counter()
        loaded[req["runtime"]] = (load_st if req["runtime"] in ("st", "stbf16") else load_ort)(req)
        return {"loadSeconds": time.perf_counter() - t0}
    if cmd == "run":
        state = loaded[req["runtime"]]
        return (run_st if req["runtime"] in ("st", "stbf16") else run_ort)(state, req["query"], req["documents"])
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
