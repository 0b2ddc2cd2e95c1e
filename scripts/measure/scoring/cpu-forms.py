#!/usr/bin/env python3
"""Graph forms and int8 recipes against PyTorch on this CPU: one run, pinned, interleaved, ratios per repetition.

For each thread count the script re-runs itself under `taskset -c 0-(N-1)` (where taskset exists), loads every row
below, warms each up, then runs the same request (the bench's MiniLM-L6 documents, bench/out/bench-documents.json)
`--reps` times, rotating the order every repetition so no row always follows a slow neighbour. It reports the median
pairs/s and the median of the per-repetition ratio to sentence-transformers CrossEncoder fp32 (the same seconds:
on a shared machine the ratio is what means something), in wall time and in process CPU time (all the runtime's
threads; what other jobs' load moves least), plus the load average before and after.

Rows (Python onnxruntime with the scorer's batching: python-peers.py; 2 threads = 2 single-threaded sessions,
costliest batch first, the service's plan):
  torch-form: bench/.models/<model>/ (torch 2.13's export, SDPA attention), fp32 and the shipped int8;
  hub-form:   bench/.models/<model>-hub/ (the Hub's optimum form, scripts/model/hub_form.py), fp32, the shipped
              int8, and onnx/variants/<recipe>.onnx for each --recipes entry (built here if missing);
  CrossEncoder fp32 and, where the CPU has AMX / AVX-512 BF16, bf16.

    python3 scripts/measure/scoring/cpu-forms.py [--model minilm-l6] [--threads 1,2] [--reps 5]
        [--recipes fused-fp32,dyn-pt-fused] [--out bench/out/cpu-forms.json]
Needs the bench models (npm run bench builds them; the -hub folder: build-random-shapes.py --form hub).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from load_module import load_module  # a sibling file: the script's own folder is on sys.path

ROOT = Path(__file__).resolve().parents[3]
MODELS_DIR = ROOT / "bench" / ".models"
BATCH = {"batchSize": 8, "maxBatchTokens": 8 * 512}


def cpu_name() -> str:
    with open("/proc/cpuinfo") as f:
        return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")


def rows(model: str, recipes: list[str], bf16: bool) -> list[dict]:
    torch_form, hub = MODELS_DIR / model, MODELS_DIR / f"{model}-hub"
    out = [
        {"label": "CrossEncoder fp32", "runtime": "st", "folder": torch_form},
        *([{"label": "CrossEncoder bf16", "runtime": "stbf16", "folder": torch_form}] if bf16 else []),
        {"label": "torch-form fp32", "runtime": "ort", "folder": torch_form, "onnx": "onnx/model.onnx"},
        {"label": "torch-form int8 (shipped)", "runtime": "ort", "folder": torch_form, "onnx": "onnx/model_quantized.onnx"},
        {"label": "hub-form fp32", "runtime": "ort", "folder": hub, "onnx": "onnx/model.onnx"},
        {"label": "hub-form int8 (shipped)", "runtime": "ort", "folder": hub, "onnx": "onnx/model_quantized.onnx"},
    ]
    # A graph without an attention mask is run one pair per run (no padding: the padding-free plan it needs);
    # "<recipe>@1" runs any recipe that way (to separate the effect of unpadded runs from the attention kernel's);
    # "<recipe>@sW" with a rows x width^2 <= W^2 limit (the scorer's maxBatchScores: long pairs alone, short ones batched).
    for spec in recipes:
        name, _, how = spec.partition("@")
        one = how == "1" or "nomask" in name
        scores = int(how[1:]) ** 2 if how.startswith("s") else None
        out.append({"label": f"hub-form {name}" + (" (1 pair/run)" if one else f" (rows x width^2 <= {how[1:]}^2)" if scores else ""),
                    "runtime": "ort", "folder": hub, "onnx": "onnx/model.onnx" if name == "model" else f"onnx/variants/{name}.onnx",
                    **({"batchSize": 1} if one else {}), **({"maxBatchScores": scores} if scores else {})})
    return out


def measure(args) -> dict:
    peers = load_module("python_peers", ROOT / "scripts" / "bench" / "python-peers.py")
    docs = json.loads((ROOT / "bench" / "out" / "bench-documents.json").read_text())[args.model]["full"]
    query, documents = docs["query"], docs["documents"][: args.docs]
    bf16 = peers.has_bf16_hardware()
    load_start = os.getloadavg()
    states = {}
    for row in rows(args.model, args.recipes, bf16):
        runtime = row["runtime"] if row["runtime"] != "ort" or args.threads_one == 1 else "ortpar"
        req = {"runtime": runtime, "folder": str(row["folder"]), "threads": args.threads_one, **BATCH,
               **({"onnx": row["onnx"]} if "onnx" in row else {}),
               **{k: row[k] for k in ("batchSize", "maxBatchScores") if k in row}}
        state = (peers.load_st if runtime in ("st", "stbf16") else peers.load_ort)(req)
        run = peers.run_st if runtime in ("st", "stbf16") else peers.run_ort
        run(state, query, documents[:8])  # warm-up: first-run allocations and kernel selection
        states[row["label"]] = (state, run)
    labels = list(states)
    seconds: dict[str, list[float]] = {label: [] for label in labels}
    cpu: dict[str, list[float]] = {label: [] for label in labels}
    for rep in range(args.reps):
        for label in labels[rep % len(labels):] + labels[: rep % len(labels)]:
            state, run = states[label]
            c0 = time.process_time()
            seconds[label].append(run(state, query, documents)["seconds"])
            cpu[label].append(time.process_time() - c0)
    base, base_cpu = seconds["CrossEncoder fp32"], cpu["CrossEncoder fp32"]
    return {
        "threads": args.threads_one, "documents": len(documents), "reps": args.reps, "cpu": cpu_name(), "bf16Hardware": bf16,
        "loadAverageStart": load_start, "loadAverageEnd": os.getloadavg(),
        "rows": {label: {"pairsPerSecond": len(documents) / statistics.median(s),
                         "vsCrossEncoderFp32": statistics.median([b / x for b, x in zip(base, s)]),
                         # Process CPU seconds (every thread of the runtime): what other jobs' load moves least.
                         "pairsPerCpuSecond": len(documents) / statistics.median(cpu[label]),
                         "cpuVsCrossEncoderFp32": statistics.median([b / x for b, x in zip(base_cpu, cpu[label])]),
                         "seconds": s, "cpuSeconds": cpu[label]} for label, s in seconds.items()},
    }


def ensure_variants(model: str, recipes: list[str]) -> None:
    int8 = load_module("int8_recipes", ROOT / "scripts" / "model" / "int8_recipes.py")
    folder = MODELS_DIR / f"{model}-hub"
    for name in dict.fromkeys(r.partition("@")[0] for r in recipes if r.partition("@")[0] != "model"):
        out = folder / "onnx" / "variants" / f"{name}.onnx"
        if not out.exists():
            counts = int8.build_recipe(name, folder / "onnx" / "model.onnx", out)
            print(f"built {out.relative_to(ROOT)}: Attention {counts.get('Attention', 0)}, QAttention {counts.get('QAttention', 0)}",
                  flush=True)


def table(runs: list[dict]) -> str:
    labels = list(dict.fromkeys(label for r in runs for label in r["rows"]))
    head = ["row"] + [f"{r['threads']} thr: pairs/s wall (x CrossEncoder fp32) / per CPU-s (x)" for r in runs]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for label in labels:
        cells = []
        for r in runs:
            e = r["rows"].get(label)
            cells.append("-" if e is None else f"{e['pairsPerSecond']:.1f} ({e['vsCrossEncoderFp32']:.2f}x) / "
                                               f"{e['pairsPerCpuSecond']:.1f} ({e['cpuVsCrossEncoderFp32']:.2f}x)")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    loads = "; ".join(f"{r['threads']} thr: load {r['loadAverageStart'][0]:.1f} -> {r['loadAverageEnd'][0]:.1f}" for r in runs)
    return "\n".join(lines) + f"\n\n{runs[0]['cpu']}, {runs[0]['documents']} pairs x {runs[0]['reps']} reps, median; {loads}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="minilm-l6", choices=["minilm-l6", "tinybert-l2"])
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--docs", type=int, default=96)
    ap.add_argument("--recipes", default="fused-fp32,dyn-pt-fused")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "cpu-forms.json")
    ap.add_argument("--build-only", action="store_true", help="build the -hub folder's --recipes variants and exit")
    ap.add_argument("--one", type=int, default=0, help=argparse.SUPPRESS)  # internal: measure one thread count, print JSON
    args = ap.parse_args()
    args.recipes = [r for r in args.recipes.split(",") if r]
    if args.one:
        args.threads_one = args.one
        print("RESULT " + json.dumps(measure(args)), flush=True)
        return
    ensure_variants(args.model, args.recipes)
    if args.build_only:
        return
    runs = []
    for n in [int(t) for t in args.threads.split(",")]:
        cmd = [sys.executable, __file__, "--one", str(n), "--model", args.model, "--reps", str(args.reps),
               "--docs", str(args.docs), "--recipes", ",".join(args.recipes)]
        if shutil.which("taskset") and n <= (os.cpu_count() or 1):
            cmd = ["taskset", "-c", f"0-{n - 1}", *cmd]
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        line = next((l for l in out.stdout.splitlines() if l.startswith("RESULT ")), None)
        if line is None:
            sys.exit(f"{n} thread(s) failed:\n{out.stderr[-3000:]}")
        runs.append(json.loads(line[len("RESULT "):]))
        print(f"{n} thread(s) measured in {time.time() - t0:.0f}s", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "runs": runs}, indent=1) + "\n")
    print(table(runs))


if __name__ == "__main__":
    main()
