import type { BatchRecord, BatchRequestCounts } from './batch-model.js';
import { isTerminal } from './batch-model.js';
import type { BatchStore } from './batch-store.js';

/**
 * How much of a batch's work is done, inside its lines too: a line over a large corpus is many chunks, and
 * `request_counts` (OpenAI's meaning: whole lines) says nothing until the line ends. Served beside it as `progress`.
 */
export interface BatchProgress {
  /** 0..1: chunks scored over chunks planned when they are counted, else finished lines over lines. */
  readonly fraction: number;
  /** Chunks scored and planned so far (absent past PROGRESS_CHUNK_DETAIL_MAX_LINES lines: then lines say it). */
  readonly completedChunks?: number;
  readonly totalChunks?: number;
}

/**
 * Lines whose chunks a GET counts one by one (a read per unfinished line): past this, progress is the share of finished
 * lines, which moves often enough in a batch of many lines.
 */
export const PROGRESS_CHUNK_DETAIL_MAX_LINES = 100;

export async function batchProgress(store: BatchStore, batch: BatchRecord, counts: BatchRequestCounts): Promise<BatchProgress> {
  const byLines = counts.total > 0 ? (counts.completed + counts.failed) / counts.total : isTerminal(batch.status) ? 1 : 0;
  if (isTerminal(batch.status) || batch.status === 'finalizing' || batch.total > PROGRESS_CHUNK_DETAIL_MAX_LINES)
    return { fraction: byLines };
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
