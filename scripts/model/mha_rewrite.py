"""Rewrite a fused BERT graph's contrib Attention nodes into MatMul + Split + contrib MultiHeadAttention.

onnxruntime's CPU Attention (and QAttention) materialize the (heads x length x length) scores and run an fp32 softmax:
~60% of the int8 MiniLM-L6 graph's time on the bench's mixed-length documents (bench/cpu-forms.md). Its CPU
MultiHeadAttention has a flash-style path that does not, taken when there is no key padding mask: on 1 thread at 12
heads x 32 it ran the attention core 1.6-1.9x faster than the unfused ops (1.2-1.3x with a mask).

    rewrite(src, dst, masked=True)   # keeps the padding mask (any batch)
    rewrite(src, dst, masked=False)  # no mask: the graph loses its attention_mask input, so it can only be fed
                                     # unpadded pairs (the scorer runs such a graph one pair per run)

The QKV projection stays one MatMul (+ bias Add), so dynamic int8 quantization afterwards makes it int8 like QAttention's.
Input: a graph from int8_recipes.fuse_bert (one Attention per layer, its mask from EmbedLayerNormalization).
"""
from __future__ import annotations

from pathlib import Path


def _drop_mask_input(graph, nodes: list) -> list:
    """Removes the attention_mask input (and what only fed it), so nothing can feed this graph a padded batch."""
    for node in nodes:
        if node.op_type == "EmbedLayerNormalization" and len(node.input) > 7:
            node.input[7] = ""  # optional mask: its mask_index output is unused once no Attention reads it
    used = {name for node in nodes for name in node.input}
    outputs = {o.name for o in graph.output}
    changed = True
    while changed:  # drop nodes whose outputs nobody reads (the mask's Cast chain)
        changed = False
        for node in list(nodes):
            if node.op_type != "EmbedLayerNormalization" and not any(o in used or o in outputs for o in node.output):
                nodes.remove(node)
                changed = True
        used = {name for node in nodes for name in node.input}
    if "attention_mask" in used:
        raise ValueError("attention_mask still read after the no-mask rewrite")
    keep = [i for i in graph.input if i.name != "attention_mask"]
    del graph.input[:]
    graph.input.extend(keep)
    return nodes


def rewrite(src: Path, dst: Path, masked: bool = True) -> int:
    """Writes the rewritten graph; returns how many Attention nodes it replaced."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(src))
    graph = model.graph
    init = {i.name: i for i in graph.initializer}
    mask_input = next((i.name for i in graph.input if i.name == "attention_mask"), None)
    nodes, replaced, extra_init = [], 0, []
    mask_i32 = None
    for node in graph.node:
        if node.op_type != "Attention" or node.domain != "com.microsoft":
            nodes.append(node)
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if attrs.get("unidirectional", 0) or len(node.input) < 3 or node.input[1] not in init:
            nodes.append(node)
            continue
        hidden = numpy_helper.to_array(init[node.input[1]]).shape[1] // 3
        name = node.name or f"Attention_{replaced}"
        qkv, biased = f"{name}_qkv", f"{name}_qkv_biased"
        nodes.append(helper.make_node("MatMul", [node.input[0], node.input[1]], [qkv], name=f"{name}_MatMul"))
        nodes.append(helper.make_node("Add", [qkv, node.input[2]], [biased], name=f"{name}_Add"))
        split = f"{name}_split_sizes"
        extra_init.append(numpy_helper.from_array(__import__("numpy").array([hidden] * 3, dtype="int64"), split))
        q, k, v = (f"{name}_{x}" for x in "qkv")
        nodes.append(helper.make_node("Split", [biased, split], [q, k, v], axis=2, name=f"{name}_Split"))
        inputs = [q, k, v]
        if masked:
            if mask_i32 is None:
                if mask_input is None:
                    raise ValueError("masked rewrite needs an attention_mask graph input")
                mask_i32 = "attention_mask_mha_int32"
                nodes.append(helper.make_node("Cast", [mask_input], [mask_i32], to=TensorProto.INT32, name="MhaMaskCast"))
            inputs += ["", mask_i32]
        mha = helper.make_node("MultiHeadAttention", inputs, list(node.output), name=f"{name}_MHA", domain="com.microsoft",
                               num_heads=attrs["num_heads"])
        if "mask_filter_value" in attrs:
            mha.attribute.append(helper.make_attribute("mask_filter_value", attrs["mask_filter_value"]))
        nodes.append(mha)
        replaced += 1
    if not masked and replaced > 0:
        nodes = _drop_mask_input(graph, nodes)
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(extra_init)
    onnx.save(model, str(dst))
    return replaced
