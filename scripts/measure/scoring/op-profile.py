#!/usr/bin/env python3
"""Where the time goes, per operator: onnxruntime's profiler over the bench's request, summed by op type.

Runs each graph with `enable_profiling` (1 intra-op thread, the scorer's batching: python-peers.py) on the bench's
MiniLM-L6 documents after a warm-up, and sums the profiler's per-node kernel times by op type (and, for the GEMM
kinds, by the node's provider kernel). Prints one Markdown table per graph: op type, ms, share of the kernels' total.

    taskset -c 0 python3 scripts/measure/scoring/op-profile.py [--docs 32] [--max-batch-scores 16384] FOLDER:ONNX [FOLDER:ONNX ...]
e.g. bench/.models/minilm-l6:onnx/model.onnx bench/.models/minilm-l6-hub:onnx/variants/fused-fp32.onnx
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path

from load_module import load_module  # a sibling file: the script's own folder is on sys.path

ROOT = Path(__file__).resolve().parents[3]


def profile(peers, folder: str, onnx: str, query: str, documents: list[str], max_scores: int) -> tuple[dict[str, float], float]:
    import onnxruntime as ort

    state = peers.load_ort({"runtime": "ort", "folder": folder, "onnx": onnx, "threads": 1, "batchSize": 8,
                            "maxBatchTokens": 8 * 512, **({"maxBatchScores": max_scores} if max_scores > 0 else {})})
    peers.run_ort(state, query, documents[:8])  # warm-up outside the profile
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.enable_mem_pattern = False
    opts.enable_profiling = True
    with tempfile.TemporaryDirectory() as tmp:
        opts.profile_file_prefix = str(Path(tmp) / "ort")
        session = ort.InferenceSession(f"{folder}/{onnx}", opts, providers=["CPUExecutionProvider"])
        state["sessions"] = [session]
        peers.run_ort(state, query, documents[:8])
        wall = peers.run_ort(state, query, documents)["seconds"]
        events = json.loads(Path(session.end_profiling()).read_text())
    by_op: dict[str, float] = collections.defaultdict(float)
    for e in events:
        if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time"):
            by_op[e["args"].get("op_name", "?")] += e["dur"] / 1000.0
    return dict(by_op), wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graphs", nargs="+", help="FOLDER:ONNX (model folder and the .onnx inside it)")
    ap.add_argument("--docs", type=int, default=32)
    ap.add_argument("--model", default="minilm-l6")
    # The scorer's default (onnx-cross-encoder.ts DEFAULT_MAX_BATCH_SCORES): pairs of 128+ tokens run alone. 0 = no limit
    # (the 8-pair batches the first profiles in bench/cpu-forms.md were taken with).
    ap.add_argument("--max-batch-scores", type=int, default=128 * 128)
    args = ap.parse_args()
    peers = load_module("python_peers", ROOT / "scripts" / "bench" / "python-peers.py")
    docs = json.loads((ROOT / "bench" / "out" / "bench-documents.json").read_text())[args.model]["full"]
    documents = docs["documents"][: args.docs]
    for spec in args.graphs:
        folder, onnx = spec.split(":", 1)
        by_op, wall = profile(peers, folder, onnx, docs["query"], documents, args.max_batch_scores)
        total = sum(by_op.values())
        limit = f"rows x width^2 <= {args.max_batch_scores}" if args.max_batch_scores > 0 else "8-pair batches, no score limit"
        print(f"\n### {Path(folder).name}/{onnx} ({limit}): kernels {total:.0f} ms over the whole profile "
              f"(warm-up batch + {len(documents)} pairs; last run {wall * 1000:.0f} ms wall)\n")
        print("| op | ms | share |\n| --- | --- | --- |")
        for op, ms in sorted(by_op.items(), key=lambda kv: -kv[1]):
            if ms / total >= 0.005:
                print(f"| {op} | {ms:.0f} | {100 * ms / total:.1f}% |")


if __name__ == "__main__":
    main()
