import { RerankError } from '../core/rerank-error.js';
import { FileNotFoundError } from '../files/file-errors.js';
import { RefusedLineError, type AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchRecord } from './batch-model.js';
import { planCorpusChunks, type CorpusPlan } from './corpus-chunks.js';
import { DOCUMENTS_FILE_ID, corpusDeletedError } from './corpus-reference.js';

type CorpusOutcome = CorpusPlan | RerankError | FileNotFoundError;

/** The corpora of one planning run, each read once however many lines share it (a refusal is kept as its answer). */
export type PlannedCorpora = Map<string, Promise<CorpusOutcome>>;

/** The corpus' chunk plan, read once per planning run however many lines share it; checks the line may use it. */
export async function lineCorpus(
  deps: BatchEngineDeps,
  batch: BatchRecord,
  admitted: AdmittedLine,
  corpora: PlannedCorpora,
): Promise<CorpusPlan> {
  const fileId = admitted.corpusFileId as string;
  let outcome = corpora.get(fileId);
  if (!outcome) {
    outcome = planCorpusChunks(deps.files, fileId, batch.ownerKeyId, deps.limits).catch((error: unknown) => {
      if (error instanceof RerankError || error instanceof FileNotFoundError) return error;
      throw error;
    });
    corpora.set(fileId, outcome);
  }
  const corpus = await outcome;
  if (corpus instanceof RerankError) throw new RefusedLineError(admitted.customId, admitted.dialect, corpus);
  if (corpus instanceof FileNotFoundError) throw corpusDeletedError(admitted.customId, fileId);
  const refusal = corpusRefusal(deps, admitted, corpus);
  if (refusal) throw new RefusedLineError(admitted.customId, admitted.dialect, refusal);
  return corpus;
}

/** Why this line may not rank this corpus (its result count, or a fusion that needs every score at once), if it may not. */
function corpusRefusal(deps: BatchEngineDeps, admitted: AdmittedLine, corpus: CorpusPlan): RerankError | undefined {
  const { maxCorpusResultsWithoutTopN } = deps.limits;
  const { topN } = admitted.request;
  if (topN === undefined && corpus.count > maxCorpusResultsWithoutTopN) {
    return new RerankError(
      'invalid_request',
      `top_n is required: ${DOCUMENTS_FILE_ID} has ${corpus.count} documents, and without top_n a line returns every result only up to ${maxCorpusResultsWithoutTopN}`,
      { param: 'top_n' },
    );
  }
  if (topN !== undefined && topN > maxCorpusResultsWithoutTopN && corpus.count > maxCorpusResultsWithoutTopN) {
    // One output line holds at most this many results (it is one JSON line in one file, and one heap in memory).
    return new RerankError('invalid_request', `top_n is at most ${maxCorpusResultsWithoutTopN} for a ${DOCUMENTS_FILE_ID} line`, {
      param: 'top_n',
    });
  }
  if (admitted.plan.fusion && !deps.setFusionFor?.(admitted.plan.model)) {
    return new RerankError(
      'invalid_request',
      `model '${admitted.plan.model}' fuses by rank over the candidate set, which needs every score at once: with ${DOCUMENTS_FILE_ID} use a min-max hybrid or list the documents`,
      { param: DOCUMENTS_FILE_ID },
    );
  }
  return undefined;
}
