import { createHash } from 'node:crypto';

/** How far one span of a corpus analysis has got. */
export interface SpanAnalysis {
  /** Documents of the span analysed: encoded by this batch (a shard's stored once it ends) or read back from an earlier one. */
  readonly ready: number;
  /** Whether this batch's tasks encoded any of them (false for a corpus analysed before: nothing to wait for). */
  readonly encoded: boolean;
}

/** A batch's corpus analyses summed: documents to analyse over every (corpus, model) its lines score from storage. */
export interface CorpusAnalysisProgress {
  readonly total: number;
  readonly ready: number;
  /** Whether any of them was encoded by this batch (the analysis is work it waits for, not a read of stored shards). */
  readonly encoded: boolean;
}

/**
 * Where a batch's first analysis of its corpora is followed while it runs (its `progress` phase `analysing_corpus`).
 * The planner names each analysis a batch needs and its documents; a span's task reports how many of the span's
 * documents are ready. Both writes are idempotent and monotone: a count never replaces a larger one and `encoded` is never
 * unset, so a redelivered or retried task (its shards read back, counted again from zero) never moves progress backwards. Adapters: in-memory
 * (npm start) and DynamoDB (items beside the batch's META).
 */
export interface CorpusAnalysisLedger {
  /** The planner: analysis `analysis` of `documents` documents is part of the batch (a second call changes nothing). */
  expect(batchId: string, analysis: string, documents: number): Promise<void>;
  /** A span's task: of the span starting at document `spanOffset`, `span` is ready (kept only where larger). */
  report(batchId: string, analysis: string, spanOffset: number, span: SpanAnalysis): Promise<void>;
  /** Every expected analysis summed (each capped at its documents); undefined when the batch expects none. */
  read(batchId: string): Promise<CorpusAnalysisProgress | undefined>;
}

/** The name of one corpus analysis: the corpus file's version and the model that analyses it, as a short digest. */
export const analysisKey = (fileId: string, version: string, model: string): string =>
  createHash('sha256').update(`${fileId}\n${version}\n${model}`).digest('hex').slice(0, 24);

/** Sums spans into progress, each analysis capped at its expected documents (spans of an unexpected one are skipped). */
export function sumAnalyses(
  expected: ReadonlyMap<string, number>,
  spans: Iterable<{ readonly analysis: string; readonly span: SpanAnalysis }>,
): CorpusAnalysisProgress | undefined {
  if (expected.size === 0) return undefined;
  const ready = new Map<string, number>();
  let encoded = false;
  for (const { analysis, span } of spans) {
    if (!expected.has(analysis)) continue;
    ready.set(analysis, (ready.get(analysis) ?? 0) + span.ready);
    encoded ||= span.encoded;
  }
  let total = 0;
  let readyDocs = 0;
  for (const [analysis, documents] of expected) {
    total += documents;
    readyDocs += Math.min(documents, ready.get(analysis) ?? 0);
  }
  return { total, ready: readyDocs, encoded };
}

/**
 * The planner's naming of the analysis a line scores from, once per planning run (`named`; a resumed run names it again:
 * no change), before the line's tasks are sent: the batch's `analysing_corpus` progress counts its documents from then.
 */
export async function expectAnalysisOnce(
  ledger: CorpusAnalysisLedger | undefined,
  batchId: string,
  corpus: { readonly file: { readonly id: string; readonly version: string }; readonly count: number },
  model: string,
  named: Set<string>,
): Promise<void> {
  const key = analysisKey(corpus.file.id, corpus.file.version, model);
  if (!ledger || named.has(key)) return;
  await ledger.expect(batchId, key, corpus.count);
  named.add(key);
}
