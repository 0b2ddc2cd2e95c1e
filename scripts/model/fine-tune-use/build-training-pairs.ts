/**
 * Writes the fine-tuning data as USE token ids for train.py (which has no port of the tokenizer):
 *   npx tsx scripts/model/fine-tune-use/build-training-pairs.ts [--out models/.build/use-lite-tuned/training-pairs.json]
 * Deterministic: same sets, same file. See training-pairs.ts for what is in it and what never is.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readBiEncoderFolder, UseTokenizer } from '../../../shared/scoring/bi-encoder/index.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/bm25-scorer.js';
import { USE_LITE_FOLDER } from '../../eval/eval-sources.js';
import { buildTrainingPairs, leakingPairs } from './training-pairs.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: resolve(ROOT, 'models/.build/use-lite-tuned/training-pairs.json') },
    negatives: { type: 'string', default: '7' },
    'dev-share': { type: 'string', default: '0.1' },
    seed: { type: 'string', default: '20261126' },
  },
});
const options = { negatives: Number(values.negatives), devShare: Number(values['dev-share']), seed: Number(values.seed) };
const { pairs, dropped, forbidden } = await buildTrainingPairs(createBm25Scorer({ id: 'bm25' }), options);
const leaks = leakingPairs(pairs, forbidden);
if (leaks.length > 0) throw new Error(`${leaks.length} training pairs contain an evaluation text, e.g. '${leaks[0]!.query}'`);

const folder = await readBiEncoderFolder(USE_LITE_FOLDER);
const tokenizer = new UseTokenizer(folder.vocabulary, folder.reservedSymbols);
const ids = (text: string): number[] => tokenizer.encode(text).slice(0, folder.maxLength);
const data = {
  meta: {
    ...options,
    sources: [...new Set(pairs.map((p) => p.source))],
    dropped,
    evaluationTextsExcluded: forbidden.size,
    maxLength: folder.maxLength,
  },
  pairs: pairs.map((p) => ({
    source: p.source,
    split: p.split,
    query: ids(p.query),
    positive: ids(p.positive),
    negatives: p.negatives.map(ids),
    positive_bm25: p.bm25Logits?.positive,
    negatives_bm25: p.bm25Logits?.negatives,
  })),
};
await mkdir(dirname(values.out), { recursive: true });
await writeFile(values.out, JSON.stringify(data));
const count = (split: string): number => pairs.filter((p) => p.split === split).length;
console.log(
  `wrote ${values.out}: ${count('train')} train + ${count('dev')} dev queries, ${options.negatives} negatives each; dropped for touching the evaluation: ${JSON.stringify(dropped)}`,
);
