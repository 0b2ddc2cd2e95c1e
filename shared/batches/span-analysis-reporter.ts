import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchChunkTask } from './batch-model.js';
import { analysisKey } from './corpus-analysis-ledger.js';

/** What a span's scoring tells as each of its shards becomes ready (stored analysis read back, or encoded now). */
export interface ShardReady {
  shardReady(documents: number, encoded: boolean): Promise<void>;
}

/**
 * Reports a span task's analysis to the batch's CorpusAnalysisLedger, bounded: while it encodes, once per
 * `limits.analysisProgressDocuments` documents (a report falls between shards); and once when its last shard is ready,
 * also when it encoded none (a retried task whose shards its first run stored still brings the span to its end).
 * Undefined when the deps have no ledger.
 */
export function spanAnalysisReporter(
  deps: Pick<BatchEngineDeps, 'analysis' | 'limits'>,
  batchId: string,
  task: Pick<BatchChunkTask, 'offset' | 'count'>,
  corpus: { readonly fileId: string; readonly version: string; readonly model: string },
): ShardReady | undefined {
  const { analysis: ledger, limits } = deps;
  if (!ledger) return undefined;
  const analysis = analysisKey(corpus.fileId, corpus.version, corpus.model);
  let ready = 0;
  let reported = 0;
  let encoded = false;
  let encodedSinceReport = false;
  return {
    async shardReady(documents, shardEncoded) {
      ready += documents;
      encoded ||= shardEncoded;
      encodedSinceReport ||= shardEncoded;
      const due = encodedSinceReport && ready - reported >= limits.analysisProgressDocuments;
      if (!due && (ready < task.count || reported === ready)) return;
      reported = ready;
      encodedSinceReport = false;
      await ledger.report(batchId, analysis, task.offset, { ready, encoded });
    },
  };
}
