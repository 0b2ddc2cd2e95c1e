import type { Scorer } from '../../../shared/core/scorer.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';

/**
 * How every batch of a run ends: `completed`; `quota` - its key's stored-bytes quota is smaller than any one batch's
 * output, so each batch passes it while other lines are in flight; `expiry` - the engine's clock moves past the
 * completion window while each batch has a line held in flight (chaos-batch-endings.ts).
 */
export type BatchEndingCase = 'completed' | 'quota' | 'expiry';

/** The batches a run creates. */
export interface BatchesWork {
  readonly batches: number;
  readonly linesPerBatch: number;
  /** How many batches (the first ones) carry one line whose scoring throws on every delivery. */
  readonly poisonedBatches: number;
  /** Absent = completed. */
  readonly ending?: BatchEndingCase;
}

export const POISON = 'poison query that always fails';
/** The query of the line the expiry case holds in flight in each batch (the batch's number follows). */
export const HELD = 'held line of batch';
const WORDS = 'neural ranking search python queue lambda gradient library panda bamboo river coffee attention retry'.split(' ');

/**
 * The lines of batch `b`: rerank requests of 5-30 documents over the BM25 scorer; a poisoned batch's line 3 always
 * fails; in the expiry case line 1 is the held line, three short documents (one chunk task).
 */
export function chaosBatchLines(b: number, work: Pick<BatchesWork, 'linesPerBatch' | 'poisonedBatches' | 'ending'>): string[] {
  return Array.from({ length: work.linesPerBatch }, (_, i) => {
    const seed = b * 131 + i + 1;
    const held = work.ending === 'expiry' && i === 1;
    const words = `${WORDS[seed % WORDS.length]} ${WORDS[(seed * 7) % WORDS.length]}`;
    const query = b < work.poisonedBatches && i === 3 ? POISON : held ? `${HELD} ${b}` : words;
    const documents = Array.from({ length: held ? 3 : 5 + (seed % 26) }, (_, d) =>
      Array.from({ length: held ? 2 : 3 + ((d * seed) % 9) }, (_, j) => WORDS[(d * 5 + j * seed) % WORDS.length]).join(' '),
    );
    return JSON.stringify({
      custom_id: `b${b}-line-${i}`,
      method: 'POST',
      url: '/v1/rerank',
      body: { model: 'bm25', query, documents, top_n: 5, return_documents: i % 2 === 0 },
    });
  });
}

/** The BM25 scorer, except that the poison query throws on every call (a line no redelivery can help). */
export function poisonableScorer(): Scorer {
  const scorer = createBm25Scorer({ id: 'bm25' });
  return {
    ...scorer,
    id: scorer.id,
    score: async (query, documents, options) => {
      if (query === POISON) throw new Error('poison line: scoring always fails');
      return scorer.score(query, documents, options);
    },
  };
}

/** A line of an output or error file. */
export type Line = { custom_id: string; response: { status_code: number; body: Record<string, unknown> } | null; error: unknown };

/** A completed line's response without its per-run ids, to compare with the fault-free run. */
export function responseOf(line: Line): unknown {
  if (!line.response) return undefined;
  const { id: _id, ...body } = line.response.body;
  return { status: line.response.status_code, body };
}
