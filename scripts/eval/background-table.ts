import { tokenizeLexical } from '../../shared/scoring/lexical/lexical-tokenizer.js';

/** The generated background-idf-table.ts's shape: what backgroundStatistics() parses. */
export interface BackgroundTable {
  readonly documents: number;
  readonly averageLength: number;
  /** "term df" lines, most frequent first. */
  readonly terms: string;
}

/** Terms seen in fewer documents are left out (the scorer reads an unlisted term as seen once), which keeps the table small. */
export const MIN_DOCUMENT_FREQUENCY = 2;

/**
 * Document frequencies and the mean length (served tokenizer, stopwords dropped) over distinct documents.
 * The committed table is this over every split of the training sources (build-background-idf.ts); the
 * leave-one-source-out fit builds one per fold without the held-out source, so its IDF has not seen it.
 */
export function backgroundTable(documents: Iterable<string>): BackgroundTable {
  const distinct = [...new Set(documents)];
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const document of distinct) {
    const terms = tokenizeLexical(document);
    totalLength += terms.length;
    for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const kept = [...df]
    .filter(([term, n]) => n >= MIN_DOCUMENT_FREQUENCY && !/\s/.test(term))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    documents: distinct.length,
    averageLength: distinct.length === 0 ? 0 : Math.round((totalLength / distinct.length) * 100) / 100,
    terms: kept.map(([t, n]) => `${t} ${n}`).join('\n'),
  };
}
