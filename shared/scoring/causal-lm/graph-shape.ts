import type * as ort from 'onnxruntime-node';
import type { CrossEncoderConfig } from '../model-folder.js';
import type { OnnxSession } from '../onnx-runtime/onnx-session.js';
import { presentNamesFor, type CacheGraph } from './kv-cache-runs.js';

/** The token inputs a causal-LM graph may take; any other input must be its KV cache (or use_cache_branch). */
export const TOKEN_INPUTS = new Set(['input_ids', 'attention_mask', 'position_ids']);
const PAST = /^past_key_values\.\d+\.(key|value)$/;

/** What scoring needs to know of a loaded causal-LM graph: its inputs, where its logits come out, its cache. */
export interface GraphShape {
  readonly inputNames: readonly string[];
  readonly outputName: string;
  /** 3 = logits for every position (read at each row's last token), 2 = logits of the last token only. */
  readonly outputRank: number;
  readonly pastType: 'float32' | 'float16';
  /** The empty past's [kv_heads, head_dim]: the graph's own static dims, else config.json's. */
  readonly pastHeads: number;
  readonly pastHeadDim: number;
  /** Set when the graph returns its cache (present.*) and logits for every position: batches run in pieces. */
  readonly cache: CacheGraph | undefined;
}

/** A static dimension of a graph input, else the fallback (exports name dynamic axes with strings). */
function staticDim(
  metadata: ort.InferenceSession.ValueMetadata | undefined,
  axis: number,
  fallback: number | undefined,
): number | undefined {
  const dim = metadata?.isTensor === true ? metadata.shape[axis] : undefined;
  return typeof dim === 'number' && dim > 0 ? dim : fallback;
}

/** Reads a session's inputs and outputs; a graph with inputs a causal LM reranker cannot feed is refused. */
export function graphShape(session: OnnxSession, id: string, config: CrossEncoderConfig): GraphShape {
  const unexpected = session.inputNames.filter((name) => !TOKEN_INPUTS.has(name) && !PAST.test(name) && name !== 'use_cache_branch');
  if (unexpected.length > 0 || !session.inputNames.includes('input_ids')) {
    throw new Error(`model ${id}: unsupported ONNX inputs [${session.inputNames.join(', ')}] for a causal LM reranker`);
  }
  const past = session.inputMetadata.find((m) => PAST.test(m.name));
  const pastHeads = staticDim(past, 1, config.numKeyValueHeads);
  const pastHeadDim = staticDim(past, 3, config.headDim);
  if (past !== undefined && (pastHeads === undefined || pastHeadDim === undefined)) {
    throw new Error(`model ${id}: the graph takes a KV cache but neither it nor config.json gives num_key_value_heads/head_dim`);
  }
  const outputName = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0]!;
  const output = session.outputMetadata.find((m) => m.name === outputName);
  const outputRank = output?.isTensor === true && output.shape.length > 0 ? output.shape.length : 3;
  const pastType = past?.isTensor === true && past.type === 'float16' ? 'float16' : 'float32';
  const pastNames = session.inputNames.filter((name) => PAST.test(name));
  const presentNames = presentNamesFor(pastNames, session.outputNames);
  // optimum's older merged decoders switch subgraphs on use_cache_branch; they are scored in one run.
  const cache: CacheGraph | undefined =
    presentNames !== undefined && outputRank === 3 && !session.inputNames.includes('use_cache_branch')
      ? {
          tokenInputs: session.inputNames.filter((name) => TOKEN_INPUTS.has(name)),
          pastNames,
          presentNames,
          pastType,
          pastHeads: pastHeads!,
          pastHeadDim: pastHeadDim!,
          logitsName: outputName,
        }
      : undefined;
  return {
    inputNames: session.inputNames,
    outputName,
    outputRank,
    pastType,
    pastHeads: pastHeads ?? 0,
    pastHeadDim: pastHeadDim ?? 0,
    cache,
  };
}
