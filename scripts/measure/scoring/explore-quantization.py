#!/usr/bin/env python3
"""Measure every int8 recipe of scripts/model/int8_recipes.py: speed vs fp32 and rank agreement with fp32.

For each model folder (default: the bench's random-weight MiniLM-L6 and TinyBERT-L2 shapes; their `-spread`
copies from `build-random-shapes.py --init-range 0.1` and `-trained` copies from `--train-steps N` also work):
  - builds onnx/explore/<recipe>.onnx (static recipes calibrate on the repository's own Markdown prose,
    never on the bench documents);
  - scores the bench documents (bench/out/bench-documents.json, written by dump-bench-documents.ts: the
    exact texts `npm run bench` ranks) with fp32 and every recipe, batched as the scorer batches them
    (python-peers.py: sorted by length, 8 pairs, 4,096 padded tokens), and reports Spearman vs fp32,
    max |score - fp32| / fp32 score range, and top-10 overlap;
  - times each recipe at 1 thread (one session) and 2 threads (2 single-threaded sessions, costliest
    batch first: the service's plan), interleaved recipe by recipe in each repetition, and reports
    the median of the per-repetition ratio to fp32, in wall time and in process CPU time (the machine is shared:
    same-seconds ratios, not pairs/s; CPU time is what other jobs' load moves least).

    python3 scripts/measure/scoring/explore-quantization.py [--models minilm-l6,tinybert-l2] [--recipes a,b]
        [--threads 1,2] [--reps 3] [--speed-docs 48] [--no-speed] [--out bench/out/quantization-explore.json]

Writes the JSON and prints a Markdown table (bench/quantization-recipes.md is one such run, committed).
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from load_module import load_module  # a sibling file: the script's own folder is on sys.path

ROOT = Path(__file__).resolve().parents[3]
MODELS_DIR = ROOT / "bench" / ".models"
BATCH = {"batchSize": 8, "maxBatchTokens": 8 * 512}


peers = load_module("python_peers", ROOT / "scripts" / "bench" / "python-peers.py")
recipes = load_module("int8_recipes", ROOT / "scripts" / "model" / "int8_recipes.py")


def spearman(a, b) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(a, b).statistic)


def faithfulness(ref: np.ndarray, got: np.ndarray) -> dict:
    spread = float(ref.max() - ref.min())
    top = 10
    return {
        "spearman": spearman(ref, got),
        "maxAbsDiff": float(np.abs(ref - got).max()),
        "maxAbsDiffOverRange": float(np.abs(ref - got).max() / spread) if spread > 0 else float("nan"),
        "top10Overlap": len(set(np.argsort(-ref)[:top]) & set(np.argsort(-got)[:top])) / top,
    }


GRAPH_OPS = ("Attention", "QAttention", "MultiHeadAttention", "EmbedLayerNormalization", "SkipLayerNormalization", "BiasGelu",
             "MatMul", "MatMulInteger", "QLinearMatMul", "DynamicQuantizeLinear", "QuantizeLinear", "Softmax")


def graph_summary(counts: dict[str, int]) -> str:
    """The ops that say what a recipe's graph really is (fused attention, int8 GEMMs), and its node count."""
    shown = ", ".join(f"{op} {counts[op]}" for op in GRAPH_OPS if counts.get(op))
    return f"{sum(counts.values())} nodes: {shown}; Attention {counts.get('Attention', 0) + counts.get('QAttention', 0)}"


def state(folder: Path, onnx: str, threads: int) -> dict:
    return peers.load_ort({"runtime": "ortpar" if threads > 1 else "ort", "folder": str(folder), "onnx": onnx,
                           "threads": threads, "returnScores": True, **BATCH})


def explore(model: str, names: list[str], args, docs: dict) -> dict:
    folder = MODELS_DIR / model
    # The copies (and the Hub-form export, same weights) rank the bench documents of their base model.
    base = re.sub(r"(-hub)?(-(trained|spread))?$", "", model)
    fp32 = folder / "onnx" / "model.onnx"
    inputs = [i.name for i in __import__("onnx").load(str(fp32), load_external_data=False).graph.input]
    calibration = recipes.prose_calibration(folder, inputs, recipes.repository_prose(ROOT))
    files = {"fp32": "onnx/model.onnx"}
    ops = {"fp32": recipes.op_counts(fp32)}
    for name in names:
        out = folder / "onnx" / "explore" / f"{name}.onnx"
        if not out.exists() or args.rebuild:
            t0 = time.time()
            recipes.build_recipe(name, fp32, out, calibration)
            print(f"[{model}] built {name} in {time.time() - t0:.0f}s", flush=True)
        files[name] = f"onnx/explore/{name}.onnx"
        # Counted, never assumed: a "fused" recipe whose graph has 0 Attention nodes was not fused.
        ops[name] = recipes.op_counts(out)
        print(f"[{model}] {name}: {graph_summary(ops[name])}", flush=True)

    result: dict = {"model": model, "recipes": {}}
    for label, request in (("full", docs[base]["full"]), ("quick", docs[base]["quick"])):
        ref = None
        for name, file in files.items():
            scores = np.array(peers.run_ort(state(folder, file, 1), request["query"], request["documents"])["scores"])
            if ref is None:
                ref = scores
                result[f"fp32Range_{label}"] = float(ref.max() - ref.min())
                result[f"fp32Std_{label}"] = float(ref.std())
            entry = result["recipes"].setdefault(name, {
                "what": "fp32 (reference)" if name == "fp32" else recipes.RECIPES[name].what,
                "megabytes": (folder / file).stat().st_size / 2 ** 20, "ops": ops[name], "graph": graph_summary(ops[name])})
            entry[label] = faithfulness(ref, scores)
        print(f"[{model}] {label} ({len(request['documents'])} docs, fp32 range {result[f'fp32Range_{label}']:.4f}): " +
              ", ".join(f"{n} {result['recipes'][n][label]['spearman']:.4f}" for n in files), flush=True)

    if args.no_speed:
        return result
    request = docs[base]["full"]
    speed_docs = request["documents"][: args.speed_docs or (48 if base == "minilm-l6" else 128)]
    for threads in args.threads:
        states = {name: state(folder, file, threads) for name, file in files.items()}
        for s in states.values():
            peers.run_ort(s, request["query"], speed_docs[:8])
        seconds: dict[str, list[float]] = {n: [] for n in files}
        cpu: dict[str, list[float]] = {n: [] for n in files}
        order = list(files)
        for rep in range(args.reps):
            # Rotate the order each repetition so no recipe always runs right after a slow neighbour.
            for name in order[rep % len(order):] + order[: rep % len(order)]:
                c0 = time.process_time()
                seconds[name].append(peers.run_ort(states[name], request["query"], speed_docs)["seconds"])
                cpu[name].append(time.process_time() - c0)
        for name in files:
            result["recipes"][name][f"speed_{threads}"] = {
                "pairsPerSecond": len(speed_docs) / statistics.median(seconds[name]),
                "vsFp32": statistics.median([f / s for f, s in zip(seconds["fp32"], seconds[name])]),
                # CPU seconds of the process (every session thread): what a shared machine's load barely moves.
                "pairsPerCpuSecond": len(speed_docs) / statistics.median(cpu[name]),
                "cpuVsFp32": statistics.median([f / s for f, s in zip(cpu["fp32"], cpu[name])]),
            }
        print(f"[{model}] {threads} thread(s), {len(speed_docs)} docs x {args.reps}, wall / CPU-time ratio to fp32: " +
              ", ".join(f"{n} {result['recipes'][n][f'speed_{threads}']['vsFp32']:.2f}x / "
                        f"{result['recipes'][n][f'speed_{threads}']['cpuVsFp32']:.2f}x" for n in files), flush=True)
        del states
    return result


def table(results: list[dict], threads: list[int]) -> str:
    head = ["model", "recipe", "MB"] + [f"vs fp32, {t} thr (wall / CPU time)" for t in threads] + [
        "Spearman (full bench docs)", "Spearman (quick bench docs)", "max |diff| / fp32 range", "top-10 overlap"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in results:
        for name, e in r["recipes"].items():
            speed = [f"{e[f'speed_{t}']['vsFp32']:.2f}x / {e[f'speed_{t}']['cpuVsFp32']:.2f}x" if f"speed_{t}" in e else "-"
                     for t in threads]
            lines.append("| " + " | ".join([r["model"], f"`{name}`", f"{e['megabytes']:.1f}", *speed,
                                             f"{e['full']['spearman']:.4f}", f"{e['quick']['spearman']:.4f}",
                                             f"{e['full']['maxAbsDiffOverRange']:.3f}",
                                             f"{e['full']['top10Overlap']:.1f}"]) + " |")
    return "\n".join(lines)


def merged_report(paths: list[Path]) -> str:
    """One row per recipe across runs: speed on the bench models, rank agreement on every model measured."""
    runs = [r for p in paths for r in json.loads(p.read_text())["results"]]
    by_model = {r["model"]: r for r in runs}
    names = list(dict.fromkeys(n for r in runs for n in r["recipes"]))
    speed_models = [m for m in ("minilm-l6", "tinybert-l2") if m in by_model]
    # minilm-l6-trained is left out: 60 small steps did not spread its logits (fp32 range 0.009), so it checks nothing new.
    rank_models = [m for m in ("minilm-l6", "tinybert-l2", "minilm-l6-spread", "tinybert-l2-spread", "tinybert-l2-trained")
                   if m in by_model]
    head = ["recipe", "what", "MB (MiniLM)"]
    head += [f"{m} vs fp32, {t} thr (wall / CPU)" for m in speed_models for t in (1, 2)]
    head += [f"Spearman {m}" for m in rank_models]
    head += [f"max diff / range {m}" for m in rank_models if m.endswith("-spread")]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for n in names:
        what = recipes.RECIPES[n].what if n in recipes.RECIPES else next(r["recipes"][n]["what"] for r in runs if n in r["recipes"])
        row = [f"`{n}`" + (" (shipped)" if n == recipes.SHIPPED else ""), what]
        mb = by_model.get("minilm-l6", {}).get("recipes", {}).get(n, {}).get("megabytes")
        row.append("-" if mb is None else f"{mb:.0f}")
        for m in speed_models:
            for t in (1, 2):
                e = by_model[m]["recipes"].get(n, {}).get(f"speed_{t}")
                cpu = f"{e['cpuVsFp32']:.2f}x" if e is not None and "cpuVsFp32" in e else "-"
                row.append("-" if e is None else f"{e['vsFp32']:.2f}x / {cpu}")
        for m in rank_models:
            e = by_model[m]["recipes"].get(n)
            row.append("-" if e is None else f"{e['full']['spearman']:.4f}")
        for m in rank_models:
            if m.endswith("-spread"):
                e = by_model[m]["recipes"].get(n)
                row.append("-" if e is None else f"{e['full']['maxAbsDiffOverRange']:.3f}")
        lines.append("| " + " | ".join(row) + " |")
    ranges = ", ".join(f"{m} {by_model[m]['fp32Range_full']:.4f}" for m in rank_models)
    return "\n".join(lines) + f"\n\nfp32 score range over the full bench documents: {ranges}.\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="minilm-l6,tinybert-l2")
    ap.add_argument("--recipes", default=",".join(recipes.RECIPES))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--speed-docs", type=int, default=0)
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--docs", type=Path, default=ROOT / "bench" / "out" / "bench-documents.json")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "quantization-explore.json")
    ap.add_argument("--merge", default="", help="comma-separated result JSON files: print one merged table, measure nothing")
    args = ap.parse_args()
    if args.merge:
        print(merged_report([Path(p) for p in args.merge.split(",")]))
        return
    args.threads = [int(t) for t in args.threads.split(",")]
    if not args.docs.exists():
        sys.exit(f"{args.docs} missing: run `npx tsx scripts/measure/scoring/dump-bench-documents.ts` first")
    docs = json.loads(args.docs.read_text())
    names = [n for n in args.recipes.split(",") if n]
    results = [explore(m, names, args, docs) for m in args.models.split(",")]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "results": results},
                                   indent=1) + "\n")
    print(table(results, args.threads))
    for r in results:
        print(f"{r['model']}: fp32 score range over the full bench documents {r['fp32Range_full']:.4f} "
              f"(std {r['fp32Std_full']:.4f})")


if __name__ == "__main__":
    main()
