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

Run from the repository root (deterministic for one torch/tokenizers version):
    python3 scripts/model/build-family-fixtures.py
    python3 scripts/model/family-golden.py          # reference scores -> test/fixtures/model-families/
Needs: torch, transformers, tokenizers, onnx (local pip index).
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
