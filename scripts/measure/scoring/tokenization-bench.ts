/**
 * Tokenization micro-bench: the library's plain encode vs the pieces function the scorer uses
 * (space-chunk-pieces.ts), on the bench documents, for each tokenizer family. Prints medians and ratios
 * measured in the same run, repeats interleaved (the machine may be shared), and checks the ids are identical.
 *
 *   tsx scripts/measure/scoring/tokenization-bench.ts [--docs 256] [--reps 9]
 *
 * Three timings per repeat, all for one request (query once + every document, as OnnxCrossEncoder.score does):
 * - plain: @huggingface/tokenizers encode(text).ids for the query and each document.
 * - cold: a fresh cache (first request after a cold start): each distinct chunk tokenized once.
 * - warm: a new request (other documents, same vocabulary) on a cache that has seen earlier requests.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { createPiecesEncoder } from '../../../shared/scoring/space-chunk-pieces.js';
import { benchRequest, readWords, type BenchRequest } from './bench-documents.js';
import { MODELS_DIR } from './bench-models.js';
import { fmt, median } from './bench-stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const docs = arg('--docs', 256);
const reps = arg('--reps', 9);

type Json = Record<string, unknown>;
const readJson = (folder: string, file: string): Json => JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Json;

const TOKENIZERS = [
  { label: 'bert-base-uncased WordPiece (TinyBERT-L2 / MiniLM-L6 bench models)', folder: path.join(MODELS_DIR, 'tinybert-l2') },
  { label: 'XLM-R Unigram (models/xlmr-fixture)', folder: path.join(ROOT, 'models/xlmr-fixture') },
  { label: 'ModernBERT byte-level BPE (models/modernbert-fixture)', folder: path.join(ROOT, 'models/modernbert-fixture') },
];

function tokenizeRequest(pieces: (text: string) => number[], request: BenchRequest): number[][] {
  return [pieces(request.query), ...request.documents.map((document) => pieces(document))];
}

function ms(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

const vocab = path.join(MODELS_DIR, 'tinybert-l2', 'vocab.txt');
const words = existsSync(vocab) ? readWords(vocab) : readWords(path.join(ROOT, 'models/tinybert-l2-fixture/vocab.txt'));
const requests = Array.from({ length: reps + 2 }, (_, i) => benchRequest(words, docs, 1 + i));

for (const { label, folder } of TOKENIZERS) {
  if (!existsSync(path.join(folder, 'tokenizer.json'))) {
    console.log(`${label}: ${folder} missing (run npm run bench once to build the bench models); skipped`);
    continue;
  }
  const json = readJson(folder, 'tokenizer.json');
  const config = readJson(folder, 'tokenizer_config.json');
  const tokenizer = new Tokenizer(json, config);
  const plain = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;
  // Identity first: the served ids must equal the library's for every request measured.
  const check = createPiecesEncoder(tokenizer, json, config);
  for (const request of requests) {
    if (JSON.stringify(tokenizeRequest(check, request)) !== JSON.stringify(tokenizeRequest(plain, request))) {
      throw new Error(`${label}: served pieces differ from the plain encode`);
    }
  }
  tokenizeRequest(plain, requests[0]!); // JIT warm-up of the library
  const warmServed = createPiecesEncoder(tokenizer, json, config);
  tokenizeRequest(warmServed, requests[0]!);
  const samples = { plain: [] as number[], cold: [] as number[], warm: [] as number[] };
  for (let rep = 0; rep < reps; rep++) {
    const request = requests[rep + 1]!;
    samples.plain.push(ms(() => tokenizeRequest(plain, request)));
    const fresh = createPiecesEncoder(tokenizer, json, config);
    samples.cold.push(ms(() => tokenizeRequest(fresh, request)));
    samples.warm.push(ms(() => tokenizeRequest(warmServed, request)));
  }
  const [plainMs, coldMs, warmMs] = [median(samples.plain), median(samples.cold), median(samples.warm)];
  console.log(
    `${label}, ${docs} documents, median of ${reps}: plain ${fmt(plainMs, 2)} ms, served cold cache ${fmt(coldMs, 2)} ms ` +
      `(${fmt(plainMs / coldMs, 2)}x), served warm cache ${fmt(warmMs, 2)} ms (${fmt(plainMs / warmMs, 2)}x); ids identical`,
  );
}
