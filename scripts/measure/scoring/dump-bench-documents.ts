/**
 * Writes the bench's throughput requests (the documents `npm run bench` reports Spearman on) as JSON, so the
 * Python quantization exploration (explore-quantization.py) ranks exactly the same texts:
 *
 *   npx tsx scripts/measure/scoring/dump-bench-documents.ts [OUT]   (default bench/out/bench-documents.json)
 *
 * Same generator and seed as bench-at-threads.ts: seed 1, MiniLM-L6 96 documents (32 with --quick), TinyBERT-L2
 * 256 (128 with --quick). The quick documents are a prefix of the full ones, but the query (drawn after them) differs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRequest, readWords } from './bench-documents.js';
import { MODELS_DIR } from './bench-models.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const out = process.argv[2] ?? path.join(ROOT, 'bench', 'out', 'bench-documents.json');
const words = readWords(path.join(MODELS_DIR, 'minilm-l6', 'vocab.txt'));
// The document counts of bench-at-threads.ts SIZES (full and --quick runs).
const requests = {
  'minilm-l6': { full: benchRequest(words, 96, 1), quick: benchRequest(words, 32, 1) },
  'tinybert-l2': { full: benchRequest(words, 256, 1), quick: benchRequest(words, 128, 1) },
};
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(requests)}\n`);
console.log(`wrote ${out}`);
