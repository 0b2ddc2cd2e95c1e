import type { DocumentAnalysis } from '../core/document-analysis.js';
import { UnknownModelError } from '../core/scorer-registry.js';
import type { AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';

/**
 * The stored analysis a corpus line is scored from, or undefined when it scores its texts: the planner groups the
 * lines this answers for, and the chunk worker scores them from the shards - one rule, so the two never disagree.
 * A set-fused hybrid needs its parts apart, and the stored analysis is of whole documents (a line that cuts them with
 * max_tokens_per_doc scores its texts as sync does); a model without a document side has nothing stored.
 */
export function storedAnalysisFor(
  deps: Pick<BatchEngineDeps, 'scorerFor'>,
  admitted: AdmittedLine,
  chunkModel: string,
): DocumentAnalysis | undefined {
  if (admitted.corpusFileId === undefined || admitted.plan.fusion || admitted.request.maxTokensPerDocument !== undefined) return undefined;
  try {
    return deps.scorerFor(chunkModel).documentAnalysis;
  } catch (error) {
    if (error instanceof UnknownModelError) return undefined;
    throw error;
  }
}
