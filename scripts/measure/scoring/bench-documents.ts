import { readFileSync } from 'node:fs';
// The same mulberry32 the eval set and the chaos runs use: every runtime (and every run) sees the same texts.
import { seededRandom } from '../../eval/seeded-random.js';

/** One rerank request of the benchmark: a query and its candidates, deterministic for a seed. */
export interface BenchRequest {
  readonly query: string;
  readonly documents: string[];
}

/** Share of documents per length class, in words (a word is ~1.2-1.5 WordPieces). */
export const LENGTH_MIX = [
  { share: 0.4, minWords: 15, maxWords: 60, what: 'snippets, titles + abstracts' },
  { share: 0.4, minWords: 60, maxWords: 200, what: 'passages (MS MARCO-like)' },
  { share: 0.2, minWords: 200, maxWords: 700, what: 'long chunks, truncated at 512 tokens' },
] as const;

/** Frequent whole words of bert-base-uncased (ids 1996.. are roughly frequency ordered). */
export function readWords(vocabTxt: string): string[] {
  return readFileSync(vocabTxt, 'utf8')
    .split('\n')
    .slice(1996, 12000)
    .filter((word) => /^[a-z]{2,}$/.test(word));
}

/**
 * A realistic mix of rerank candidates (see LENGTH_MIX), with punctuation and capitals so the normalizer
 * and pre-tokenizer do real work. Shuffled, so input order is not length order.
 */
export function benchRequest(words: readonly string[], count: number, seed = 42): BenchRequest {
  const random = seededRandom(seed);
  const pick = (): string => words[Math.floor(random() * words.length)]!;
  const sentence = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let word = pick();
      if (i === 0) word = word[0]!.toUpperCase() + word.slice(1);
      out.push(word);
    }
    return `${out.join(' ')}${random() < 0.2 ? ',' : '.'}`;
  };
  const documents: string[] = [];
  for (let i = 0; i < count; i++) {
    let r = random();
    const bucket = LENGTH_MIX.find((b) => (r -= b.share) < 0) ?? LENGTH_MIX[LENGTH_MIX.length - 1]!;
    let remaining = bucket.minWords + Math.floor(random() * (bucket.maxWords - bucket.minWords));
    const parts: string[] = [];
    while (remaining > 0) {
      const n = Math.min(remaining, 6 + Math.floor(random() * 14));
      parts.push(sentence(n));
      remaining -= n;
    }
    documents.push(parts.join(' '));
  }
  return {
    query: sentence(3 + Math.floor(random() * 6))
      .slice(0, -1)
      .toLowerCase(),
    documents,
  };
}
