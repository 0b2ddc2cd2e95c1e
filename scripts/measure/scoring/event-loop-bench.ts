/**
 * `npm run bench:event-loop`: how long the event loop is held while a model scores a large request, with the model's
 * sessions placed as the service places them and with one session in this thread. A 10 ms interval timer stands in
 * for /health and every other request of the server: its lateness is how long they would wait.
 * - The LLM reranker (graph on a worker thread vs this thread): security issue [2/6] item 1's request, 30 documents
 *   of 65,000 characters on the Qwen3-style fixture (cut to its token window).
 * - The default model's bi-encoder, USE-lite (the execution plan every ONNX family shares - one single-threaded
 *   session per CPU on worker threads, an in-thread small-request session - vs one worker session with every CPU and
 *   vs that session in this thread): one query over 1,500 new documents, what encoding a corpus chunk costs.
 * Prints and writes bench/event-loop.md; medians over --runs (default 3) alternated runs, as the machine is shared.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadOnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { loadCausalLmReranker } from '../../../shared/scoring/causal-lm/index.js';
import type { Scorer } from '../../../shared/core/scorer.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    documents: { type: 'string', default: '30' },
    chars: { type: 'string', default: '65000' },
  },
});
const runs = Number(values.runs);
const llmDocuments = Array.from({ length: Number(values.documents) }, (_, i) =>
  `document ${i}: ${'the server lists open ports with ss and netstat while the kernel keeps tcp state '.repeat(1000)}`.slice(
    0,
    Number(values.chars),
  ),
);
const LLM_FOLDER = 'models/qwen3-reranker-kv-fixture';
const BI_ENCODER_FOLDER = 'models/use-lite';
const words = 'the quick brown fox jumps over a lazy dog while rivers flow to the sea under bright northern stars and green hills'.split(
  ' ',
);
/** 1,500 documents of 10-59 words, new to the scorer on every run (its embedding cache is off). */
const biEncoderDocuments = (run: number): string[] =>
  Array.from(
    { length: 1500 },
    (_, i) => `${Array.from({ length: 10 + ((i * 7) % 50) }, (_, k) => words[(i * 5 + k * 3 + run) % words.length]).join(' ')} ${run}-${i}`,
  );

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: readonly number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

interface Measured {
  readonly seconds: number;
  readonly maxLagMs: number;
  readonly p99LagMs: number;
  readonly ticks: number;
}

/** Scores one request while a 10 ms timer measures its own lateness. */
async function measure(scorer: Scorer, query: string, documents: readonly string[]): Promise<Measured> {
  const lags: number[] = [];
  let expected = performance.now() + 10;
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected));
    expected = now + 10;
  }, 10);
  const started = performance.now();
  await scorer.score(query, documents);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  return { seconds, maxLagMs: Math.max(0, ...lags), p99LagMs: lags.length > 0 ? percentile(lags, 0.99) : 0, ticks: lags.length };
}

interface Scenario {
  readonly model: string;
  readonly placement: string;
  load(): Promise<Scorer & { close(): Promise<void> }>;
  readonly query: string;
  documents(run: number): readonly string[];
}

const scenarios: readonly Scenario[] = [
  {
    model: 'LLM reranker',
    placement: 'worker thread (default)',
    load: () => loadCausalLmReranker({ id: 'llm', folder: LLM_FOLDER, threads: 2, inWorkerThread: true }),
    query: 'which command lists open ports',
    documents: () => llmDocuments,
  },
  {
    model: 'LLM reranker',
    placement: 'this thread',
    load: () => loadCausalLmReranker({ id: 'llm', folder: LLM_FOLDER, threads: 2, inWorkerThread: false }),
    query: 'which command lists open ports',
    documents: () => llmDocuments,
  },
  {
    model: 'USE-lite bi-encoder',
    placement: 'the execution plan (default): 2 worker sessions of 1 thread, an in-thread small-request session',
    load: async () => {
      const scorer = await loadOnnxBiEncoder({ id: 'use-lite', folder: BI_ENCODER_FOLDER, threads: 2, embeddingCacheEntries: 0 });
      await scorer.smallRequestSessionReady();
      return scorer;
    },
    query: 'a fox by the river',
    documents: biEncoderDocuments,
  },
  {
    model: 'USE-lite bi-encoder',
    placement: 'one worker session, 2 threads',
    load: () =>
      loadOnnxBiEncoder({
        id: 'use-lite',
        folder: BI_ENCODER_FOLDER,
        threads: 2,
        inWorkerThread: true,
        workers: 1,
        embeddingCacheEntries: 0,
      }),
    query: 'a fox by the river',
    documents: biEncoderDocuments,
  },
  {
    model: 'USE-lite bi-encoder',
    placement: 'one session in this thread, 2 threads',
    load: () =>
      loadOnnxBiEncoder({ id: 'use-lite', folder: BI_ENCODER_FOLDER, threads: 2, inWorkerThread: false, embeddingCacheEntries: 0 }),
    query: 'a fox by the river',
    documents: biEncoderDocuments,
  },
];

const results = new Map<Scenario, Measured[]>();
for (let run = 0; run < runs; run++) {
  // Alternated, so drift in the shared machine's load hits every placement alike.
  for (const scenario of scenarios) {
    const scorer = await scenario.load();
    try {
      await scorer.score('warm up', ['a short document']);
      const m = await measure(scorer, scenario.query, scenario.documents(run));
      results.set(scenario, [...(results.get(scenario) ?? []), m]);
      console.log(
        `${scenario.model}, ${scenario.placement}: ${m.seconds.toFixed(2)} s, timer late by at most ${m.maxLagMs.toFixed(0)} ms (p99 ${m.p99LagMs.toFixed(0)} ms, ${m.ticks} ticks)`,
      );
    } finally {
      await scorer.close();
    }
  }
}
const rows = scenarios.map((s) => {
  const m = results.get(s)!;
  return `| ${s.model} | ${s.placement} | ${median(m.map((x) => x.seconds)).toFixed(2)} | ${median(m.map((x) => x.maxLagMs)).toFixed(0)} | ${median(m.map((x) => x.p99LagMs)).toFixed(0)} |`;
});
const report = [
  '# The event loop while a model scores a large request',
  '',
  `Generated by \`npm run bench:event-loop\` (scripts/measure/scoring/event-loop-bench.ts), 2 CPUs per scorer, median of ${runs} alternated runs.`,
  'A 10 ms timer stands in for /health and every other request: how late it fires is how long they wait.',
  `- LLM reranker: ${llmDocuments.length} documents of ${values.chars} characters (cut to the token window) on ${LLM_FOLDER}.`,
  `- USE-lite bi-encoder (the default model's dense half): one query over 1,500 documents of 10-59 words it has not seen (${BI_ENCODER_FOLDER},`,
  '  embedding cache off); the texts are tokenized in this thread whatever runs the graph.',
  '',
  '| model | sessions | request (s) | timer late, max (ms) | timer late, p99 (ms) |',
  '| --- | --- | --- | --- | --- |',
  ...rows,
  '',
].join('\n');
await writeFile('bench/event-loop.md', report);
console.log(`\n${report}`);
