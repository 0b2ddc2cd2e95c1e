import * as ort from 'onnxruntime-node';
import type { OnnxSession } from '../onnx-runtime/onnx-session.js';
import { TOKEN_INPUTS, type GraphShape } from './graph-shape.js';
import { emptyPastTensor, runWithCache, tokenTensors } from './kv-cache-runs.js';

/** The token ids a causal-LM reranker reads its answer from, and the one it pads rows with. */
export interface AnswerTokens {
  readonly yes: number;
  readonly no: number;
  readonly pad: number;
}

/**
 * IEEE 754 half -> float, for fp16 logits that come back as raw 16-bit words: onnxruntime-common hands float16
 * tensors out as a Uint16Array where the runtime has no Float16Array (Node 20), as a Float16Array where it has
 * one (Node 24), whose elements are already numbers.
 */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** Runs batches of prompts through a causal-LM graph, answering each prompt's logit(yes) - logit(no). */
export class YesNoMargins {
  readonly #id: string;
  readonly #session: OnnxSession;
  readonly #graph: GraphShape;
  readonly #answer: AnswerTokens;
  /** With a KV-cache graph: max tokens (rows x columns) of one ONNX run. */
  readonly #maxRunTokens: number;

  constructor(id: string, session: OnnxSession, graph: GraphShape, answer: AnswerTokens, maxRunTokens: number) {
    this.#id = id;
    this.#session = session;
    this.#graph = graph;
    this.#answer = answer;
    this.#maxRunTokens = maxRunTokens;
  }

  /** logit(yes) - logit(no) at each row's last real token: its sigmoid is p(yes). */
  async run(rows: readonly number[][]): Promise<number[]> {
    const cache = this.#graph.cache;
    if (cache !== undefined) {
      return runWithCache(this.#session, cache, rows, this.#answer.pad, this.#maxRunTokens, (logits, row, column) =>
        this.#margin(logits, row * Number(logits.dims[1]) + column),
      );
    }
    // One run; only the logits are fetched (a cache-taking graph without present.* outputs starts from empty).
    const output = (await this.#session.run(this.#feeds(rows), [this.#graph.outputName]))[this.#graph.outputName];
    if (output === undefined) throw new Error(`model ${this.#id}: no ${this.#graph.outputName} output`);
    const width = output.dims.length === 3 ? Number(output.dims[1]) : 1;
    return rows.map((row, r) => this.#margin(output, output.dims.length === 3 ? r * width + row.length - 1 : r));
  }

  #feeds(rows: readonly number[][]): Record<string, ort.Tensor> {
    const tokens = tokenTensors(rows, 0, Math.max(...rows.map((row) => row.length)), this.#answer.pad);
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of this.#graph.inputNames) {
      if (TOKEN_INPUTS.has(name)) feeds[name] = tokens[name]!;
      else if (name === 'use_cache_branch') feeds[name] = new ort.Tensor('bool', [false], [1]);
      // An export with a KV cache scores from an empty one: past length 0 (its attention_mask then covers
      // exactly the new tokens).
      else feeds[name] = emptyPastTensor(this.#graph.pastType, rows.length, this.#graph.pastHeads, this.#graph.pastHeadDim);
    }
    return feeds;
  }

  /** logit(yes) - logit(no) in the logits of one position (`position` counts rows x columns of the output). */
  #margin(output: ort.Tensor, position: number): number {
    const base = position * Number(output.dims[output.dims.length - 1]);
    const data = output.data;
    if (data instanceof Uint16Array && output.type === 'float16')
      return halfToFloat(data[base + this.#answer.yes]!) - halfToFloat(data[base + this.#answer.no]!);
    return Number(data[base + this.#answer.yes]) - Number(data[base + this.#answer.no]);
  }
}
