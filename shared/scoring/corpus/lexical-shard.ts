import type { AnalysisProgress, LexicalShard } from '../../core/document-analysis.js';
import type { BackgroundStatistics } from '../lexical/background-idf.js';
import { lexicalFeaturesFromCounts, queryIdfs, type LexicalFeatures } from '../lexical/lexical-features.js';
import { tokenizeLexical, type LexicalTokenizerOptions } from '../lexical/lexical-tokenizer.js';

/** Documents tokenized between two calls of an analysis' progress listener. */
const PROGRESS_DOCUMENTS = 128;

/**
 * Each document's term counts as a shard-local inverted index (terms in first-seen order), and its length in terms.
 * `progress` hears the documents counted so far every PROGRESS_DOCUMENTS (awaited, so its writes land in order).
 */
export async function analyseLexicalShard(
  texts: readonly string[],
  options: LexicalTokenizerOptions,
  progress?: AnalysisProgress,
): Promise<LexicalShard> {
  const termIndex = new Map<string, number>();
  const postings: { documents: number[]; counts: number[] }[] = [];
  const lengths = new Uint32Array(texts.length);
  for (let document = 0; document < texts.length; document++) {
    const tokens = tokenizeLexical(texts[document]!, options);
    lengths[document] = tokens.length;
    const tf = new Map<string, number>();
    for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
    for (const [term, count] of tf) {
      let at = termIndex.get(term);
      if (at === undefined) {
        at = postings.length;
        termIndex.set(term, at);
        postings.push({ documents: [], counts: [] });
      }
      postings[at]!.documents.push(document);
      postings[at]!.counts.push(count);
    }
    if (progress && (document + 1) % PROGRESS_DOCUMENTS === 0) await progress(document + 1);
  }
  const starts = new Uint32Array(postings.length + 1);
  postings.forEach((p, i) => (starts[i + 1] = starts[i]! + p.documents.length));
  const documents = new Uint32Array(starts[postings.length]!);
  const counts = new Uint32Array(documents.length);
  postings.forEach((p, i) => {
    documents.set(p.documents, starts[i]!);
    counts.set(p.counts, starts[i]!);
  });
  return { terms: [...termIndex.keys()], starts, documents, counts, lengths };
}

/** A shard's term -> index map, built once per decoded shard (a group of queries looks its terms up in it). */
const termMaps = new WeakMap<LexicalShard, Map<string, number>>();
function termMapOf(shard: LexicalShard): Map<string, number> {
  let map = termMaps.get(shard);
  if (!map) {
    map = new Map(shard.terms.map((term, i) => [term, i]));
    termMaps.set(shard, map);
  }
  return map;
}

/**
 * Every document's lexical features against one query (its terms as tokenizeLexical gives them), read from the
 * shard's postings: equal to lexicalFeatures over the document's own tokens (the same arithmetic, lexicalFeaturesFromCounts).
 */
export function lexicalShardFeatures(
  queryTerms: readonly string[],
  shard: LexicalShard,
  background: BackgroundStatistics,
): LexicalFeatures[] {
  const distinct = [...new Set(queryTerms)];
  const idfs = queryIdfs(distinct, background);
  const count = shard.lengths.length;
  // counts[t * count + d]: the count of query term t in document d (0 = absent).
  const counts = new Uint32Array(distinct.length * count);
  const map = termMapOf(shard);
  distinct.forEach((term, t) => {
    const at = map.get(term);
    if (at === undefined) return;
    for (let p = shard.starts[at]!; p < shard.starts[at + 1]!; p++) counts[t * count + shard.documents[p]!] = shard.counts[p]!;
  });
  const row = new Uint32Array(distinct.length);
  const features = new Array<LexicalFeatures>(count);
  for (let d = 0; d < count; d++) {
    for (let t = 0; t < distinct.length; t++) row[t] = counts[t * count + d]!;
    features[d] = lexicalFeaturesFromCounts(idfs, row, shard.lengths[d]!, background.averageLength);
  }
  return features;
}
