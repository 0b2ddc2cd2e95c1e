"""Export BERT cross-encoders in the graph form the Hub's `onnx/` folders carry (optimum + transformers 4.x, eager attention).

transformers 5 / torch 2.13 exports a different graph from the same weights: its attention reshapes to
(batch, seq, -1, head) and builds the mask with GreaterOrEqual / And / Where (and, with SDPA, an IsNaN / Where
"safe softmax"). onnxruntime's transformer optimizer recognizes none of that (0 Attention nodes fused; see
bench/quantization-recipes.md), while the Hub's exports - what users serve - fuse into one contrib Attention
node per layer. `hub_form()` patches transformers' BERT for the duration of an export so the graph is the
transformers 4.x eager one: extended mask (1 - mask) * finfo.min, scores / sqrt(head size), explicit
(batch, seq, heads, head size) reshapes. Same arithmetic as the stock model (max |diff| ~2e-8 on the logits).

    with hub_form():
        build_fixture.export_onnx(model, path)
"""
from __future__ import annotations

import contextlib
import math
from typing import Iterator


@contextlib.contextmanager
def hub_form() -> Iterator[None]:
    import torch
    import transformers.models.bert.modeling_bert as bert

    saved = (bert.BertModel._create_attention_masks, bert.BertSelfAttention.forward)

    def masks(self, attention_mask, encoder_attention_mask, embedding_output, **_):
        # transformers 4.x get_extended_attention_mask: Unsqueeze, Unsqueeze, Cast, Sub, Mul (the pattern the fusion matches).
        extended = attention_mask[:, None, None, :].to(embedding_output.dtype)
        return (1.0 - extended) * torch.finfo(embedding_output.dtype).min, encoder_attention_mask

    def forward(self, hidden_states, attention_mask=None, past_key_values=None, **_):
        if past_key_values is not None:
            raise ValueError("hub_form exports encoders only (no KV cache)")
        batch, seq = hidden_states.shape[:-1]
        shape = (batch, seq, self.num_attention_heads, self.attention_head_size)
        query = self.query(hidden_states).view(shape).permute(0, 2, 1, 3)
        key = self.key(hidden_states).view(shape).permute(0, 2, 3, 1)
        value = self.value(hidden_states).view(shape).permute(0, 2, 1, 3)
        scores = torch.matmul(query, key) / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = torch.nn.functional.softmax(scores, dim=-1)
        context = torch.matmul(probs, value).permute(0, 2, 1, 3).contiguous()
        return context.view(batch, seq, self.all_head_size), None

    bert.BertModel._create_attention_masks = masks
    bert.BertSelfAttention.forward = forward
    try:
        yield
    finally:
        bert.BertModel._create_attention_masks, bert.BertSelfAttention.forward = saved
