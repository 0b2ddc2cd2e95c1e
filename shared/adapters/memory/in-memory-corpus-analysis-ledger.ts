import {
  sumAnalyses,
  type CorpusAnalysisLedger,
  type CorpusAnalysisProgress,
  type SpanAnalysis,
} from '../../batches/corpus-analysis-ledger.js';

interface BatchAnalyses {
  readonly expected: Map<string, number>;
  /** `analysis\nspanOffset` -> the largest report of that span. */
  readonly spans: Map<string, { readonly analysis: string; span: SpanAnalysis }>;
}

/**
 * The embedded CorpusAnalysisLedger (npm start, tests): the DynamoDB adapter's conditions as plain comparisons. Each
 * method changes its state before its first await, so concurrent calls in one process are atomic.
 */
export class InMemoryCorpusAnalysisLedger implements CorpusAnalysisLedger {
  readonly #batches = new Map<string, BatchAnalyses>();

  #batch(batchId: string): BatchAnalyses {
    let batch = this.#batches.get(batchId);
    if (!batch) this.#batches.set(batchId, (batch = { expected: new Map(), spans: new Map() }));
    return batch;
  }

  async expect(batchId: string, analysis: string, documents: number): Promise<void> {
    const { expected } = this.#batch(batchId);
    if (!expected.has(analysis)) expected.set(analysis, documents);
  }

  async report(batchId: string, analysis: string, spanOffset: number, span: SpanAnalysis): Promise<void> {
    const { spans } = this.#batch(batchId);
    const key = `${analysis}\n${spanOffset}`;
    const kept = spans.get(key);
    if (!kept) spans.set(key, { analysis, span });
    else kept.span = { ready: Math.max(kept.span.ready, span.ready), encoded: kept.span.encoded || span.encoded };
  }

  async read(batchId: string): Promise<CorpusAnalysisProgress | undefined> {
    const batch = this.#batches.get(batchId);
    return batch && sumAnalyses(batch.expected, batch.spans.values());
  }
}
