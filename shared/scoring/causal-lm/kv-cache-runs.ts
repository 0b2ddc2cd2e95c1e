import * as ort from 'onnxruntime-node';
import type { OnnxSession } from '../onnx-runtime/onnx-session.js';

/**
 * A causal-LM graph that takes a KV cache and returns it grown (the Hub's optimum / transformers.js exports:
 * past_key_values.{i}.key/value in, present.{i}.key/value out, logits for every new position). Such a graph
 * lets a batch of prompts be scored in pieces that give the same logits as one run:
 * - the prompt head every row shares (template prefix, instruction, query: often most of a short prompt) runs
 *   once, for one row, and its cache is copied to every row;
 * - the rest runs in column chunks, each on top of the cache of the ones before, so a run's logits
 *   (rows x columns x vocab floats: 600 KB per token for Qwen3's 151,669-token vocabulary) stay bounded
 *   however long the prompt.
 */
export interface CacheGraph {
  /** The graph's token inputs among input_ids, attention_mask, position_ids. */
  readonly tokenInputs: readonly string[];
  readonly pastNames: readonly string[];
  /** present.* output of each past input, in the same order. */
  readonly presentNames: readonly string[];
  readonly pastType: 'float32' | 'float16';
  readonly pastHeads: number;
  readonly pastHeadDim: number;
  readonly logitsName: string;
}

/** Outputs names of a graph whose every past input has its present output, else undefined (score in one run). */
export function presentNamesFor(pastNames: readonly string[], outputNames: readonly string[]): string[] | undefined {
  const present = pastNames.map((name) => name.replace(/^past_key_values\./, 'present.'));
  return pastNames.length > 0 && present.every((name) => outputNames.includes(name)) ? present : undefined;
}

/** Tokens every row starts with, leaving each row at least its last token (whose logits are the score). */
export function sharedHeadLength(rows: readonly (readonly number[])[]): number {
  if (rows.length < 2) return 0;
  const limit = Math.min(...rows.map((row) => row.length)) - 1;
  const first = rows[0]!;
  let n = 0;
  while (n < limit && rows.every((row) => row[n] === first[n])) n++;
  return n;
}

type Past = Record<string, ort.Tensor>;

/** An empty cache tensor (past length 0). A Uint16Array is accepted for float16 with or without Float16Array in the runtime. */
export function emptyPastTensor(type: 'float32' | 'float16', rows: number, heads: number, headDim: number): ort.Tensor {
  const dims = [rows, heads, 0, headDim];
  return type === 'float16' ? new ort.Tensor('float16', new Uint16Array(0), dims) : new ort.Tensor('float32', new Float32Array(0), dims);
}

function emptyPast(graph: CacheGraph, rows: number): Past {
  const past: Past = {};
  for (const name of graph.pastNames) past[name] = emptyPastTensor(graph.pastType, rows, graph.pastHeads, graph.pastHeadDim);
  return past;
}

/**
 * A float16 tensor as onnxruntime-node can read it as an input. Where the runtime has Float16Array (Node 24),
 * onnxruntime-common stores float16 data in one (even when built from a Uint16Array), and onnxruntime-node 1.30
 * then reads such an input as 0 bytes ("not enough space: expected N, got 0"; an empty cache is unaffected).
 * A Uint16Array view of the same bytes is read right, so it replaces the data the tensor holds.
 */
export function feedableFloat16(tensor: ort.Tensor): ort.Tensor {
  const data = tensor.data as ArrayBufferView;
  if (tensor.type !== 'float16' || data instanceof Uint16Array) return tensor;
  (tensor as unknown as { cpuData: Uint16Array }).cpuData = new Uint16Array(data.buffer, data.byteOffset, tensor.size);
  if (!(tensor.data instanceof Uint16Array))
    throw new Error('onnxruntime-common no longer keeps tensor data in cpuData: a float16 cache cannot be fed back');
  return tensor;
}

/** One row's cache copied to `rows` rows (batch is the outermost axis, so the copies are consecutive). */
function tilePast(past: Past, rows: number): Past {
  const tiled: Past = {};
  for (const [name, tensor] of Object.entries(past)) {
    const data = tensor.data as Float32Array | Uint16Array;
    const copy = new (data.constructor as new (length: number) => Float32Array | Uint16Array)(data.length * rows);
    for (let r = 0; r < rows; r++) copy.set(data, r * data.length);
    tiled[name] = feedableFloat16(new ort.Tensor(tensor.type as 'float32' | 'float16', copy, [rows, ...tensor.dims.slice(1)]));
  }
  return tiled;
}

/**
 * input_ids, attention_mask and position_ids of token columns [from, to) of every row, right-padded with `pad`
 * (under causal attention no real token sees a pad, so each row scores as if alone). The mask spans the cached
 * positions [0, from) too: a pad cached by an earlier chunk stays masked.
 */
export function tokenTensors(rows: readonly (readonly number[])[], from: number, to: number, pad: number): Record<string, ort.Tensor> {
  const width = to - from;
  const inputIds = new BigInt64Array(rows.length * width).fill(BigInt(pad));
  const positionIds = new BigInt64Array(rows.length * width);
  const attentionMask = new BigInt64Array(rows.length * to);
  rows.forEach((row, r) => {
    for (let p = 0; p < to; p++) if (p < row.length) attentionMask[r * to + p] = 1n;
    for (let c = 0; c < width; c++) {
      const p = from + c;
      if (p < row.length) inputIds[r * width + c] = BigInt(row[p]!);
      positionIds[r * width + c] = BigInt(p);
    }
  });
  return {
    input_ids: new ort.Tensor('int64', inputIds, [rows.length, width]),
    attention_mask: new ort.Tensor('int64', attentionMask, [rows.length, to]),
    position_ids: new ort.Tensor('int64', positionIds, [rows.length, width]),
  };
}

/** Feeds of token columns [from, to) of every row on a cache of the `from` positions before. */
function chunkFeeds(
  graph: CacheGraph,
  rows: readonly (readonly number[])[],
  from: number,
  to: number,
  pad: number,
  past: Past,
): Record<string, ort.Tensor> {
  const tokens = tokenTensors(rows, from, to, pad);
  const feeds: Record<string, ort.Tensor> = { ...past };
  for (const name of graph.tokenInputs) feeds[name] = tokens[name]!;
  return feeds;
}

function presentAsPast(graph: CacheGraph, outputs: Readonly<Record<string, ort.Tensor>>): Past {
  const past: Past = {};
  graph.pastNames.forEach((name, i) => {
    const present = outputs[graph.presentNames[i]!];
    if (present === undefined) throw new Error(`the graph returned no ${graph.presentNames[i]}`);
    past[name] = feedableFloat16(present);
  });
  return past;
}

/**
 * Runs right-padded prompts through a KV-cache graph and calls `read(logits, row, column)` once per row with the
 * logits tensor of the run holding that row's last real token ([rows, columns, vocab]; row and column within it).
 * `maxRunTokens` bounds rows x columns of every run.
 */
export async function runWithCache(
  session: OnnxSession,
  graph: CacheGraph,
  rows: readonly (readonly number[])[],
  pad: number,
  maxRunTokens: number,
  read: (logits: ort.Tensor, row: number, column: number) => number,
): Promise<number[]> {
  const scores = new Array<number>(rows.length);
  const shared = sharedHeadLength(rows);
  let past = emptyPast(graph, 1);
  for (let from = 0; from < shared; from += maxRunTokens) {
    const to = Math.min(shared, from + maxRunTokens);
    past = presentAsPast(graph, await session.run(chunkFeeds(graph, [rows[0]!], from, to, pad, past), [...graph.presentNames]));
  }
  past = shared > 0 ? tilePast(past, rows.length) : emptyPast(graph, rows.length);
  const width = Math.max(...rows.map((row) => row.length));
  const step = Math.max(1, Math.floor(maxRunTokens / rows.length));
  for (let from = shared; from < width; from += step) {
    const to = Math.min(width, from + step);
    const ending = rows.flatMap((row, r) => (row.length - 1 >= from && row.length - 1 < to ? [r] : []));
    // Only what is used leaves onnxruntime: logits when a row ends here, the cache when a chunk follows.
    const fetches = [...(ending.length > 0 ? [graph.logitsName] : []), ...(to < width ? graph.presentNames : [])];
    const outputs = await session.run(chunkFeeds(graph, rows, from, to, pad, past), fetches);
    const logits = outputs[graph.logitsName];
    for (const r of ending) {
      if (logits === undefined) throw new Error(`the graph returned no ${graph.logitsName}`);
      scores[r] = read(logits, r, rows[r]!.length - 1 - from);
    }
    if (to < width) past = presentAsPast(graph, outputs);
  }
  return scores;
}
