import type { BatchRecord, BatchRequestCounts } from './batch-model.js';
import { isTerminal } from './batch-model.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchStore } from './batch-store.js';
import type { CorpusAnalysisProgress } from './corpus-analysis-ledger.js';

/**
 * How much of a batch's work is done, inside its lines too: a line over a large corpus is many chunks, and
 * `request_counts` (OpenAI's meaning: whole lines) says nothing until the line ends. Served beside it as `progress`.
 */
export interface BatchProgress {
  /**
   * 0..1: chunks scored over chunks planned when they are counted, else finished lines over lines. While this batch
   * analyses a corpus for the first time, half of it is the analysis (documents ready over documents), half the rest.
   */
  readonly fraction: number;
  /** Chunks scored and planned so far (absent past PROGRESS_CHUNK_DETAIL_MAX_LINES lines: then lines say it). */
  readonly completedChunks?: number;
  readonly totalChunks?: number;
  /**
   * While the batch runs: `analysing_corpus` until every document of its corpora has a stored analysis (the first
   * batch over a corpus encodes it, later ones read it back), then `scoring`. Absent once it ends or finalizes.
   */
  readonly phase?: 'analysing_corpus' | 'scoring';
  /** Documents of the batch's corpora analysed so far, and in all: present when its lines score stored analyses. */
  readonly corpusDocumentsAnalysed?: number;
  readonly corpusDocuments?: number;
}

/**
 * Lines whose chunks a GET counts one by one (a read per unfinished line): past this, progress is the share of finished
 * lines, which moves often enough in a batch of many lines.
 */
export const PROGRESS_CHUNK_DETAIL_MAX_LINES = 100;

export async function batchProgress(
  deps: Pick<BatchEngineDeps, 'store' | 'analysis'>,
  batch: BatchRecord,
  counts: BatchRequestCounts,
): Promise<BatchProgress> {
  const byLines = counts.total > 0 ? (counts.completed + counts.failed) / counts.total : isTerminal(batch.status) ? 1 : 0;
  if (isTerminal(batch.status) || batch.status === 'finalizing') return { fraction: byLines };
  const work = batch.total > PROGRESS_CHUNK_DETAIL_MAX_LINES ? { fraction: byLines } : await chunkProgress(deps.store, batch, byLines);
  const analysis = await deps.analysis?.read(batch.id);
  return withAnalysis(work, analysis);
}

async function chunkProgress(store: BatchStore, batch: BatchRecord, byLines: number): Promise<BatchProgress> {
  const finished = new Set<number>();
  for await (const result of store.readResults(batch.id)) finished.add(result.line);
  let totalChunks = 0;
  let completedChunks = 0;
  for await (const plan of store.readRequests(batch.id)) {
    totalChunks += plan.chunkCount;
    completedChunks += finished.has(plan.line)
      ? plan.chunkCount
      : Math.min(plan.chunkCount, await store.countChunks(batch.id, plan.line, plan.chunkCount));
  }
  return { fraction: totalChunks > 0 ? completedChunks / totalChunks : byLines, completedChunks, totalChunks };
}

/**
 * The phase, and the analysis in the fraction: a span's chunks are done only once all its shards are analysed (16 of
 * them, ~16,000 short documents), so the chunks alone stand still for minutes while a corpus is first encoded. The
 * analysis moves inside shards too (every limits.analysisProgressDocuments documents a span encodes). A corpus analysed before is read
 * back in seconds: it is not weighed in then, or the fraction would jump to one half at once.
 */
function withAnalysis(work: BatchProgress, analysis: CorpusAnalysisProgress | undefined): BatchProgress {
  if (!analysis) return { ...work, phase: 'scoring' };
  const analysing = analysis.ready < analysis.total;
  const analysed = analysis.total > 0 ? analysis.ready / analysis.total : 1;
  return {
    ...work,
    fraction: analysis.encoded ? (analysed + work.fraction) / 2 : work.fraction,
    phase: analysing ? 'analysing_corpus' : 'scoring',
    corpusDocumentsAnalysed: analysis.ready,
    corpusDocuments: analysis.total,
  };
}
