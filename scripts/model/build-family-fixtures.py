#!/usr/bin/env python3
"""Build the committed random-weight fixtures of the reranker families the scorer serves.

Why: no pretrained reranker can be downloaded on the build machines, yet the scorer must be proven on each
family's real graph inputs, tokenizer type, pair template, truncation and head. So each fixture is the real
transformers architecture with a tiny config (2 layers, hidden 32) and random weights, and a tokenizer of the
family's type trained here on local text (Debian license texts and package descriptions) with the family's
real special tokens and post-processor:

  xlmr-fixture                XLMRobertaForSequenceClassification (bge-reranker-base/large, bge-reranker-v2-m3):
                              a real SentencePiece Unigram model converted by transformers (Precompiled
                              charsmap, Metaspace), `<s> A </s></s> B </s>`, no token_type_ids,
                              8,194 positions / model_max_length 8,192, 1 label.
  xlmr-2label-softmax-fixture 2-label head, no activation in the config: softmax, p(label 1), as CrossEncoder's
                              apply_softmax does.
  xlmr-2label-sigmoid-fixture 2-label head whose config names the Sigmoid activation (sentence-transformers
                              `activation_fn`): sigmoid(logit of the positive label).
  modernbert-fixture          ModernBertForSequenceClassification (gte-reranker-modernbert-base): byte-level BPE,
                              `[CLS] A [SEP] B [SEP]`, inputs input_ids + attention_mask, RoPE, 8,192 tokens.
  qwen3-reranker-fixture      Qwen3ForCausalLM scored like Qwen3-Reranker: byte-level BPE with the Qwen chat special
                              tokens, score = p("yes") at the last token of the instruction prompt.
  qwen3-reranker-kv-fixture   The same weights exported the way the Hub's Qwen3-Reranker ONNX repos are (optimum /
                              transformers.js): input_ids, attention_mask, position_ids, past_key_values.{i}.key/value
                              [batch, kv_heads, past, head_dim] -> logits [batch, seq, vocab] + present.{i}.key/value;
                              onnx/model.onnx (fp32) and onnx/model_fp16.onnx (every float tensor, past and logits
                              included, in float16, as transformers.js' fp16 exports have them).

Run from the repository root (deterministic for one torch/tokenizers version):
    python3 scripts/model/build-family-fixtures.py
    python3 scripts/model/family-golden.py          # reference scores -> test/fixtures/model-families/
Needs: torch, transformers, tokenizers, onnx, onnxruntime (its float16 converter) (local pip index).
"""
from __future__ import annotations

import argparse
import glob
import json
import random
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
SEED = 20261123
HIDDEN = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2)
OPSET = 17
# Wider than transformers' 0.02 init: with it, random tiny models score every pair within ~1e-5 of each other,
# and a 1e-4 parity check could not tell a wrong token from a right one.
INIT_RANGE = 0.3


def local_corpus(limit_chars: int = 3_000_000) -> list[str]:
    """License texts and package descriptions: real English prose with code-ish and some non-ASCII text."""
    lines: list[str] = []
    for path in sorted(glob.glob("/usr/share/common-licenses/*")):
        try:
            lines += Path(path).read_text(encoding="utf-8", errors="ignore").splitlines()
        except (IsADirectoryError, PermissionError):
            continue
    status = Path("/var/lib/dpkg/status")
    if status.exists():
        lines += [l[len("Description: "):] if l.startswith("Description: ") else l.strip()
                  for l in status.read_text(encoding="utf-8", errors="ignore").splitlines()
                  if l.startswith(("Description: ", " "))]
    # A few multilingual lines, so the vocabularies cover accents, Cyrillic, Greek, Arabic and CJK characters.
    lines += ["Crème brûlée, café au lait, naïve façade, Ångström, Straße, Ærø", "Привет, мир! Как дела?",
              "Γειά σου Κόσμε", "مرحبا بالعالم", "今日の東京は晴れです。明日は雨が降るでしょう。", "中文测试 北京 上海",
              "서울 한국어", "yes no yes no Yes No"] * 20
    out, size = [], 0
    for line in lines:
        line = line.strip()
        if line and line != ".":
            out.append(line)
            size += len(line)
            if size > limit_chars:
                break
    return out


def xlmr_tokenizer(corpus: list[str], vocab_size: int, work: Path):
    """XLM-R's tokenizer exactly as the Hub ships it: a SentencePiece Unigram model (nmt_nfkc normalization, the
    setting XLM-R's sentencepiece.bpe.model was trained with) converted by transformers' own converter, which gives
    the Precompiled charsmap normalizer, WhitespaceSplit + Metaspace, the fairseq id offset (<s> 0, <pad> 1,
    </s> 2, <unk> 3, <mask> last) and the `<s> A </s></s> B </s>` template."""
    import sentencepiece as spm
    from transformers import AutoTokenizer

    if work.exists():
        shutil.rmtree(work)
    (work / "spm").mkdir(parents=True)
    text = work / "corpus.txt"
    text.write_text("\n".join(corpus), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(work / "spm" / "sentencepiece.bpe"), vocab_size=vocab_size, model_type="unigram",
        character_coverage=0.9995, normalization_rule_name="nmt_nfkc", unk_id=0, bos_id=1, eos_id=2, pad_id=-1,
        num_threads=1, seed_sentencepiece_size=200_000, minloglevel=2)
    write_json(work / "spm" / "tokenizer_config.json", {"tokenizer_class": "XLMRobertaTokenizer", "model_max_length": 8192})
    AutoTokenizer.from_pretrained(str(work / "spm")).save_pretrained(str(work / "converted"))
    return work / "converted"


def byte_bpe_tokenizer(corpus: list[str], vocab_size: int, specials: list[str], qwen_split: bool):
    """GPT-2-style byte-level BPE (ModernBERT's OLMo tokenizer, Qwen's tokenizer), trained locally."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token=None, fuse_unk=False, byte_fallback=False))
    if qwen_split:
        # Qwen2/Qwen3 tokenizer.json: NFC, then the Qwen regex split, then byte-level without its own regex.
        tok.normalizer = normalizers.NFC()
        pattern = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
                   r"|\s+(?!\S)|\s+")
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(pattern), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    else:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size - len(specials), special_tokens=[],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer=trainer)
    return tok


def add_specials(tok, names: list[str]) -> dict[str, int]:
    from tokenizers import AddedToken

    tok.add_special_tokens([AddedToken(n, special=True, normalized=False) for n in names])
    return {n: tok.token_to_id(n) for n in names}


def clean_config(folder: Path, extra: dict | None = None) -> None:
    """transformers stamps versions/dtypes in config.json; drop them so rebuilds diff cleanly."""
    cfg = json.loads((folder / "config.json").read_text())
    for key in ("transformers_version", "dtype", "torch_dtype"):
        cfg.pop(key, None)
    cfg.update(extra or {})
    (folder / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n")


def write_json(path: Path, value: dict) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def export(module, args: tuple, names: list[str], path: Path, output_axes: dict) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    axes = {n: {0: "batch_size", 1: "sequence_length"} for n in names}
    torch.onnx.export(module.eval(), args, str(path), input_names=names, output_names=["logits"],
                      dynamic_axes={**axes, "logits": output_axes}, opset_version=OPSET,
                      do_constant_folding=True, dynamo=False)


def fresh(folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "onnx").mkdir(parents=True)
    return folder


def classifier_logits(model):
    """The graph of a *ForSequenceClassification export: input_ids + attention_mask -> logits (these families
    have no token type embeddings, so optimum's exports take no token_type_ids either)."""
    import torch

    class Wrapped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, input_ids, attention_mask):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).logits

    return Wrapped()


def sample_inputs(pad_id: int):
    import torch

    ids = torch.tensor([[0, 100, 101, 2, 2, 102, 103, 2], [0, 104, 2, 2, 105, 2, pad_id, pad_id]])
    mask = (torch.arange(8)[None, :] < torch.tensor([[8], [6]])).long()
    return ids, mask


def build_xlmr(corpus: list[str], out_root: Path) -> None:
    import torch
    from transformers import XLMRobertaConfig, XLMRobertaForSequenceClassification

    converted = xlmr_tokenizer(corpus, 6000, MODELS / ".build" / "xlmr-tokenizer")
    from tokenizers import Tokenizer

    vocab = Tokenizer.from_file(str(converted / "tokenizer.json")).get_vocab_size()
    base_tok_config = json.loads((converted / "tokenizer_config.json").read_text())
    variants = [
        ("xlmr-fixture", 1, 8194, {}),
        ("xlmr-2label-softmax-fixture", 2, 514, {}),
        ("xlmr-2label-sigmoid-fixture", 2, 514,
         {"sentence_transformers": {"activation_fn": "torch.nn.modules.activation.Sigmoid"}}),
    ]
    for i, (name, labels, positions, extra) in enumerate(variants):
        torch.manual_seed(SEED + i)
        config = XLMRobertaConfig(
            vocab_size=vocab, max_position_embeddings=positions, type_vocab_size=1, pad_token_id=1, bos_token_id=0,
            eos_token_id=2, layer_norm_eps=1e-5, num_labels=labels, initializer_range=INIT_RANGE,
            id2label={0: "LABEL_0"} if labels == 1 else {0: "not_relevant", 1: "relevant"},
            label2id={"LABEL_0": 0} if labels == 1 else {"not_relevant": 0, "relevant": 1},
            architectures=["XLMRobertaForSequenceClassification"], **HIDDEN)
        model = XLMRobertaForSequenceClassification(config).eval()
        folder = fresh(out_root / name)
        export(classifier_logits(model), sample_inputs(1), ["input_ids", "attention_mask"],
               folder / "onnx" / "model.onnx", {0: "batch_size"})
        # The PyTorch checkpoint: what sentence-transformers scores for the golden values, and export-onnx.py's input.
        model.save_pretrained(MODELS / ".build" / f"{name}-torch")
        clean_config(MODELS / ".build" / f"{name}-torch", extra)
        config.save_pretrained(folder)
        clean_config(folder, extra)
        shutil.copy(converted / "tokenizer.json", folder / "tokenizer.json")
        tok_cfg = {k: v for k, v in base_tok_config.items() if k not in ("backend", "is_local", "local_files_only")}
        tok_cfg["model_max_length"] = 8192 if positions > 514 else 512
        write_json(folder / "tokenizer_config.json", tok_cfg)


def build_modernbert(corpus: list[str], out_root: Path) -> None:
    import torch
    from tokenizers import processors
    from transformers import ModernBertConfig, ModernBertForSequenceClassification

    tok = byte_bpe_tokenizer(corpus, 4000, [], qwen_split=False)
    ids = add_specials(tok, ["<|endoftext|>", "[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]"])
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0", pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
        special_tokens=[("[CLS]", ids["[CLS]"]), ("[SEP]", ids["[SEP]"])])
    torch.manual_seed(SEED + 10)
    config = ModernBertConfig(
        vocab_size=tok.get_vocab_size(), max_position_embeddings=8192, pad_token_id=ids["[PAD]"],
        bos_token_id=ids["[CLS]"], eos_token_id=ids["[SEP]"], cls_token_id=ids["[CLS]"], sep_token_id=ids["[SEP]"],
        global_attn_every_n_layers=2, local_attention=16, classifier_pooling="mean", num_labels=1,
        id2label={0: "LABEL_0"}, label2id={"LABEL_0": 0}, architectures=["ModernBertForSequenceClassification"],
        attn_implementation="eager", initializer_range=INIT_RANGE, **HIDDEN)
    model = ModernBertForSequenceClassification(config).eval()
    folder = fresh(out_root / "modernbert-fixture")
    export(classifier_logits(model), sample_inputs(ids["[PAD]"]), ["input_ids", "attention_mask"],
           folder / "onnx" / "model.onnx", {0: "batch_size"})
    model.save_pretrained(MODELS / ".build" / f"{folder.name}-torch")
    config.save_pretrained(folder)
    clean_config(folder)
    tok.save(str(folder / "tokenizer.json"))
    tok_cfg = {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 8192, "cls_token": "[CLS]",
               "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]",
               "model_input_names": ["input_ids", "attention_mask"], "clean_up_tokenization_spaces": True}
    write_json(folder / "tokenizer_config.json", tok_cfg)
    write_json(folder / "special_tokens_map.json", {k: tok_cfg[k] for k in (
        "cls_token", "sep_token", "pad_token", "unk_token", "mask_token")})


def build_qwen3(corpus: list[str], out_root: Path) -> None:
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    tok = byte_bpe_tokenizer(corpus, 4000, [], qwen_split=True)
    for word in ("yes", "no"):
        assert tok.token_to_id(word) is not None, f"'{word}' must be one token, like in Qwen's vocabulary"
    ids = add_specials(tok, ["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    # Qwen3 marks <think> / </think> as added but not special tokens.
    from tokenizers import AddedToken

    tok.add_tokens([AddedToken("<think>", special=False, normalized=False),
                    AddedToken("</think>", special=False, normalized=False)])
    from tokenizers import processors

    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    torch.manual_seed(SEED + 20)
    config = Qwen3Config(
        vocab_size=tok.get_vocab_size(), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=1, head_dim=16, max_position_embeddings=40960,
        rope_theta=1_000_000, rms_norm_eps=1e-6, tie_word_embeddings=True, bos_token_id=ids["<|endoftext|>"],
        eos_token_id=ids["<|im_end|>"], pad_token_id=None, architectures=["Qwen3ForCausalLM"],
        attn_implementation="eager", use_cache=False, initializer_range=INIT_RANGE)
    model = Qwen3ForCausalLM(config).eval()

    class Logits(torch.nn.Module):
        """The causal LM graph without a KV cache: input_ids + attention_mask -> logits[b, s, vocab]."""

        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, input_ids, attention_mask):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask, use_cache=False).logits

    folder = fresh(out_root / "qwen3-reranker-fixture")
    export(Logits(), sample_inputs(ids["<|endoftext|>"]), ["input_ids", "attention_mask"],
           folder / "onnx" / "model.onnx", {0: "batch_size", 1: "sequence_length"})
    model.save_pretrained(MODELS / ".build" / f"{folder.name}-torch")
    config.save_pretrained(folder)
    clean_config(folder)
    tok.save(str(folder / "tokenizer.json"))
    tok_cfg = {"tokenizer_class": "Qwen2Tokenizer", "model_max_length": 131072, "eos_token": "<|im_end|>",
               "pad_token": "<|endoftext|>", "bos_token": None, "unk_token": None, "padding_side": "left",
               "clean_up_tokenization_spaces": False, "errors": "replace", "split_special_tokens": False}
    write_json(folder / "tokenizer_config.json", tok_cfg)
    write_json(folder / "special_tokens_map.json", {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>",
                                                    "additional_special_tokens": ["<|im_start|>", "<|im_end|>"]})
    build_qwen3_kv(model, folder, out_root / "qwen3-reranker-kv-fixture")


def qwen3_kv_module(model):
    """The causal LM graph with a KV cache, as the Hub's exports take it: the past arrives as one tensor pair per layer
    (DynamicCache in transformers), the logits of every new position and the grown cache (present.*) come back."""
    import torch
    from transformers import DynamicCache

    layers = model.config.num_hidden_layers

    class KvLogits(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, input_ids, attention_mask, position_ids, *past):
            cache = DynamicCache(config=model.config)
            for i in range(layers):
                cache.update(past[2 * i], past[2 * i + 1], i)
            out = self.inner(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                             past_key_values=cache, use_cache=True)
            present = []
            for layer in out.past_key_values.layers:
                present += [layer.keys, layer.values]
            return (out.logits, *present)

    return KvLogits()


def build_qwen3_kv(model, source: Path, folder: Path) -> None:
    """qwen3-reranker-kv-fixture: the qwen3 fixture's weights and tokenizer in the Hub's KV-cache graph, fp32 and fp16."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    import torch
    from onnxruntime.transformers.float16 import convert_float_to_float16

    cfg = model.config
    layers, heads, dim = cfg.num_hidden_layers, cfg.num_key_value_heads, cfg.head_dim
    fresh(folder)
    past_names = [f"past_key_values.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]
    present_names = [f"present.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]
    names = ["input_ids", "attention_mask", "position_ids", *past_names]
    axes = {"input_ids": {0: "batch_size", 1: "sequence_length"},
            "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
            "position_ids": {0: "batch_size", 1: "sequence_length"},
            "logits": {0: "batch_size", 1: "sequence_length"},
            **{n: {0: "batch_size", 2: "past_sequence_length"} for n in past_names},
            **{n: {0: "batch_size", 2: "total_sequence_length"} for n in present_names}}
    # Traced with a non-empty past (3 cached + 5 new tokens), so the cache concatenation is in the graph; an
    # empty past (what a reranker feeds) and any other past length are checked against PyTorch below.
    past_len, seq = 3, 5
    generator = torch.Generator().manual_seed(SEED + 21)
    ids = torch.arange(100, 100 + 2 * seq).reshape(2, seq)
    sample = (ids, torch.ones(2, past_len + seq, dtype=torch.long), torch.arange(past_len, past_len + seq).repeat(2, 1),
              *[torch.randn(2, heads, past_len, dim, generator=generator) for _ in past_names])
    fp32 = folder / "onnx" / "model.onnx"
    torch.onnx.export(qwen3_kv_module(model).eval(), sample, str(fp32), input_names=names,
                      output_names=["logits", *present_names], dynamic_axes=axes, opset_version=OPSET,
                      do_constant_folding=True, dynamo=False)
    # transformers.js' model_fp16.onnx keeps int64 token inputs and has float16 past, logits and present.
    onnx.save(convert_float_to_float16(onnx.load(str(fp32)), keep_io_types=False), str(folder / "onnx" / "model_fp16.onnx"))

    # The export must equal PyTorch from an empty cache (a right-padded batch) and continue a non-empty one.
    tokens = torch.arange(200, 214).reshape(2, 7)
    mask = torch.tensor([[1] * 7, [1] * 4 + [0] * 3])
    with torch.no_grad():
        reference = model(input_ids=tokens, attention_mask=mask, use_cache=False).logits.numpy()
        head = model(input_ids=tokens[:, :4], use_cache=True).past_key_values.layers
        full = model(input_ids=tokens, use_cache=False).logits.numpy()
    session = ort.InferenceSession(str(fp32), providers=["CPUExecutionProvider"])
    empty = {n: np.zeros((2, heads, 0, dim), np.float32) for n in past_names}
    got = session.run(["logits"], {"input_ids": tokens.numpy(), "attention_mask": mask.numpy(),
                                    "position_ids": np.tile(np.arange(7), (2, 1)), **empty})[0]
    assert np.abs(got[0] - reference[0]).max() < 1e-4 and np.abs(got[1, :4] - reference[1, :4]).max() < 1e-4
    cached = {n: (head[i // 2].keys if i % 2 == 0 else head[i // 2].values).numpy() for i, n in enumerate(past_names)}
    got = session.run(["logits"], {"input_ids": tokens[:, 4:].numpy(), "attention_mask": np.ones((2, 7), np.int64),
                                    "position_ids": np.tile(np.arange(4, 7), (2, 1)), **cached})[0]
    assert np.abs(got - full[:, 4:]).max() < 1e-4, "the KV-cache export does not continue a cached prefix"

    cfg.save_pretrained(folder)
    clean_config(folder, {"use_cache": True})  # as the Hub's configs of these exports say
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(source / name, folder / name)
    (folder / "README.md").write_text(KV_README, encoding="utf-8")


KV_README = """# qwen3-reranker-kv-fixture: a test fixture, NOT a real reranker

The weights and tokenizer of `qwen3-reranker-fixture` (`Qwen3ForCausalLM`, 2 layers, hidden 32, **random weights**:
its scores mean nothing), exported the way the Hub's Qwen3-Reranker ONNX repos are (optimum / transformers.js):
inputs `input_ids`, `attention_mask`, `position_ids`, `past_key_values.{i}.key/value` ([batch, kv_heads, past, head_dim]),
outputs `logits` ([batch, seq, vocab]) and `present.{i}.key/value`. `onnx/model.onnx` is fp32; `onnx/model_fp16.onnx`
has every float tensor in float16, past and logits included. Built by `scripts/model/build-family-fixtures.py`; golden
scores (transformers, and Python onnxruntime on each graph) in `test/fixtures/model-families/qwen3-reranker-kv-fixture.json`
(`scripts/model/family-golden.py`).
"""


FIXTURE_README = """# {name}: a test fixture, NOT a real reranker

The real `{arch}` architecture with a tiny config (2 layers, hidden 32) and **random weights**: its scores mean
nothing. Its tokenizer is of the family's real type with the family's special tokens and template, trained on local
text (Debian license texts and package descriptions) by `scripts/model/build-family-fixtures.py`. It exists to prove
the scorer serves this family faithfully: golden scores from Python transformers / sentence-transformers on the same
weights are in `test/fixtures/model-families/{name}.json` (`scripts/model/family-golden.py`).
"""


def write_readme(folder: Path) -> None:
    arch = json.loads((folder / "config.json").read_text())["architectures"][0]
    (folder / "README.md").write_text(FIXTURE_README.format(name=folder.name, arch=arch), encoding="utf-8")


def copy_tokenizer_files(folder: Path) -> None:
    """The PyTorch checkpoint gets the same tokenizer, so sentence-transformers can load it for the golden values."""
    target = MODELS / ".build" / f"{folder.name}-torch"
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (folder / name).exists():
            shutil.copy(folder / name, target / name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--only", choices=["xlmr", "modernbert", "qwen3"], action="append")
    args = ap.parse_args()

    import torch

    random.seed(SEED)
    torch.set_num_threads(1)
    corpus = local_corpus()
    print(f"corpus: {len(corpus)} lines")
    builders = {"xlmr": build_xlmr, "modernbert": build_modernbert, "qwen3": build_qwen3}
    for name in args.only or list(builders):
        builders[name](corpus, args.out)
        for folder in sorted(args.out.glob("*-fixture")):
            if (MODELS / ".build" / f"{folder.name}-torch").exists():
                copy_tokenizer_files(folder)
                write_readme(folder)
        print(f"built {name}")


if __name__ == "__main__":
    main()
