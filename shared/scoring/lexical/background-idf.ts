import { BACKGROUND_TABLE } from './background-idf-table.js';

/**
 * Corpus statistics fitted once, offline, so BM25 does not take them from the request's candidates:
 * with them a document's lexical score is the same whatever else is sent (a threshold means the same
 * thing in every request, and a queued job's chunks score independently).
 */
export interface BackgroundStatistics {
  /** Documents in the background corpus. */
  readonly documents: number;
  /** Mean document length in tokens (lexical-tokenizer.ts, stopwords dropped). */
  readonly averageLength: number;
  /** Lucene's non-negative BM25 IDF of a term; a term the table does not list counts as seen in one document. */
  idf(term: string): number;
}

/** Parses the generated table ("term df" lines) once. */
export function backgroundStatistics(
  table: { documents: number; averageLength: number; terms: string } = BACKGROUND_TABLE,
): BackgroundStatistics {
  const frequencies = new Map<string, number>();
  for (const line of table.terms.split('\n')) {
    const space = line.lastIndexOf(' ');
    if (space > 0) frequencies.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  const n = table.documents;
  // Rare words (df 1, or never seen) are the most telling ones: they get the highest IDF.
  const idf = (df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const rare = idf(1);
  return {
    documents: n,
    averageLength: table.averageLength,
    idf: (term) => {
      const df = frequencies.get(term);
      return df === undefined ? rare : idf(df);
    },
  };
}

let shared: BackgroundStatistics | undefined;
/** The committed table, parsed on first use. */
export const defaultBackground = (): BackgroundStatistics => (shared ??= backgroundStatistics());
