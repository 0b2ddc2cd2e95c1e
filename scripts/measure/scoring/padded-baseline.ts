import * as ort from 'onnxruntime-node';
import { lengthBatches } from '../../../shared/scoring/length-batches.js';
import type { EncodedPair } from '../../../shared/scoring/pair-tokenizer.js';

/** How a baseline groups and pads pairs. */
export type Padding =
  /** Input order, fixed-size batches, every row padded to the model's max length (static-shape servers). */
  | { kind: 'max-length'; maxLength: number; batchSize: number }
  /** Input order, fixed-size batches, padded to the batch's longest (what CrossEncoder.predict does). */
  | { kind: 'batch-longest'; batchSize: number }
  /** Sorted by length, padded per batch, capped by rows and padded tokens (our scorer's rule). */
  | { kind: 'length-aware'; batchSize: number; maxBatchTokens: number };

function batchesFor(lengths: readonly number[], padding: Padding): number[][] {
  if (padding.kind === 'length-aware') return lengthBatches(lengths, padding);
  const out: number[][] = [];
  for (let i = 0; i < lengths.length; i += padding.batchSize) {
    out.push(Array.from({ length: Math.min(padding.batchSize, lengths.length - i) }, (_, k) => i + k));
  }
  return out;
}

/**
 * Scores already-tokenized pairs on a raw session with a chosen padding rule; the bench's yardstick for
 * length-aware batching and for session options (same session, same pairs, only one thing changes).
 * Returns the padded token count too, to show where the time goes.
 */
export async function runPadded(
  session: ort.InferenceSession,
  pairs: readonly EncodedPair[],
  padding: Padding,
  padId = 0,
): Promise<{ paddedTokens: number; checksum: number }> {
  const lengths = pairs.map((pair) => pair.inputIds.length);
  let paddedTokens = 0;
  let checksum = 0;
  for (const batch of batchesFor(lengths, padding)) {
    const width = padding.kind === 'max-length' ? padding.maxLength : Math.max(...batch.map((i) => lengths[i]!));
    const size = batch.length * width;
    paddedTokens += size;
    const ids = new BigInt64Array(size).fill(BigInt(padId));
    const mask = new BigInt64Array(size);
    const types = new BigInt64Array(size);
    batch.forEach((index, row) => {
      const pair = pairs[index]!;
      for (let i = 0; i < pair.inputIds.length; i++) {
        ids[row * width + i] = BigInt(pair.inputIds[i]!);
        mask[row * width + i] = 1n;
        types[row * width + i] = BigInt(pair.tokenTypeIds[i]!);
      }
    });
    const dims = [batch.length, width];
    const all: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types };
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of session.inputNames) feeds[name] = new ort.Tensor('int64', all[name]!, dims);
    const output = (await session.run(feeds))[session.outputNames[0]!]!;
    for (const value of output.data as Float32Array) checksum += value;
  }
  return { paddedTokens, checksum };
}
