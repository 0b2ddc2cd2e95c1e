import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchChunkTask } from './batch-model.js';
import { analysisKey } from './corpus-analysis-ledger.js';

/** What a span's scoring tells as its shards are analysed and become ready (stored analysis read back, or encoded now). */
export interface ShardReady {
  /** Of the shard being analysed now (after every shard before it was ready), `documents` are analysed. */
  shardAnalysing(documents: number): Promise<void>;
  shardReady(documents: number, encoded: boolean): Promise<void>;
}

/**
 * Reports a span task's analysis to the batch's CorpusAnalysisLedger, bounded: while it encodes, once
 * `limits.analysisProgressDocuments` documents have been analysed since the last report, also inside a shard (a shard
 * holds up to 1,024 documents; the analysis tells its progress after each model run or slice of texts); and once when
 * its last shard is ready, also when it encoded none (a retried task whose shards its first run stored still brings
 * the span to its end). Each report is one conditional write to the span's own item: concurrent spans never share one.
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
  // The state changes before the write's await: concurrent model runs of one shard never report one count twice.
  const report = (documents: number): Promise<void> => {
    reported = documents;
    encodedSinceReport = false;
    return ledger.report(batchId, analysis, task.offset, { ready: documents, encoded });
  };
  return {
    async shardAnalysing(documents) {
      encoded = true;
      encodedSinceReport = true;
      if (ready + documents - reported >= limits.analysisProgressDocuments) await report(ready + documents);
    },
    async shardReady(documents, shardEncoded) {
      ready += documents;
      encoded ||= shardEncoded;
      encodedSinceReport ||= shardEncoded;
      const due = encodedSinceReport && ready - reported >= limits.analysisProgressDocuments;
      if (!due && (ready < task.count || reported === ready)) return;
      await report(ready);
    },
  };
}
