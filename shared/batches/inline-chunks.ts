import type { AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { estimatePairCost } from './estimate-pair-cost.js';

/** The inline documents cut by estimated cost: [offset, count] slices. */
export function inlineChunks(admitted: AdmittedLine, deps: Pick<BatchEngineDeps, 'limits'>): { offset: number; count: number }[] {
  const { limits } = deps;
  const queryChars = admitted.request.query.length;
  const slices: { offset: number; count: number }[] = [];
  let current: { offset: number; count: number; cost: number } | undefined;
  admitted.request.documents.forEach((document, index) => {
    const cost = estimatePairCost(queryChars, document.text.length);
    if (current && (current.cost + cost > limits.chunkCost || current.count >= limits.maxChunkDocuments)) {
      slices.push({ offset: current.offset, count: current.count });
      current = undefined;
    }
    current ??= { offset: index, count: 0, cost: 0 };
    current.count++;
    current.cost += cost;
  });
  if (current) slices.push({ offset: current.offset, count: current.count });
  return slices;
}
