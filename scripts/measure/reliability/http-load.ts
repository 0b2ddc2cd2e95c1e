import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { FIXTURE_MODEL_ID } from '../../../shared/config/service-config.js';

export type LoadDialect = 'openai' | 'dashscope' | 'chat';

export interface LoadRow {
  readonly dialect: LoadDialect;
  readonly connections: number;
  /** Medians over the repetitions. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Sums over the repetitions. */
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** The server's resident set after this level, and its peak so far (VmHWM), in MiB. */
  readonly rssMiB: number;
  readonly peakRssMiB: number;
}

const QUERY = 'which python library makes http requests simple';
const DOCUMENTS = [
  'requests is a popular third-party HTTP library for Python with a simple API for sessions, cookies and retries',
  'urllib is a built-in Python module for opening URLs, parsing them and handling HTTP errors',
  'httpx is a modern HTTP client for Python that supports both synchronous and asynchronous requests and HTTP/2',
  'pandas offers data frames for tabular data analysis, with fast group-by, joins and time series tools',
  'aiohttp provides an asynchronous HTTP client and server built on asyncio',
  'numpy is the fundamental package for array computing with Python',
  'The giant panda eats bamboo for up to fourteen hours a day in the mountains of central China',
  'curl is a command line tool and library for transferring data with URLs',
  'Flask is a lightweight WSGI web application framework for building HTTP APIs in Python',
  'A gradient is the vector of partial derivatives of a function, used by optimizers to train neural networks',
];

/** A realistic small request (10 documents, top 5) in each dialect's own wire format. */
export const LOAD_REQUESTS: Record<LoadDialect, { readonly path: string; readonly body: string }> = {
  openai: {
    path: '/v1/rerank',
    body: JSON.stringify({ model: FIXTURE_MODEL_ID, query: QUERY, documents: DOCUMENTS, top_n: 5, return_documents: true }),
  },
  dashscope: {
    path: '/api/v1/services/rerank/text-rerank/text-rerank',
    body: JSON.stringify({
      model: FIXTURE_MODEL_ID,
      input: { query: QUERY, documents: DOCUMENTS },
      parameters: { top_n: 5, return_documents: true },
    }),
  },
  chat: {
    path: '/v1/chat/completions',
    body: JSON.stringify({
      model: FIXTURE_MODEL_ID,
      stream: false,
      messages: [{ role: 'user', content: JSON.stringify({ query: QUERY, candidates: DOCUMENTS, top_k: 5 }) }],
    }),
  },
};

/** VmRSS and VmHWM of a process, in MiB (Linux /proc). */
export function processMemoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function fire(url: string, dialect: LoadDialect, connections: number, durationSeconds: number): Promise<autocannon.Result> {
  const { path, body } = LOAD_REQUESTS[dialect];
  return autocannon({
    url: `${url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: durationSeconds,
    timeout: 30,
  });
}

/**
 * autocannon stops sending at the deadline, but the server still owes answers to what was queued (up to one per
 * connection, and inference is serial): wait until a lone request is answered promptly, so no cell pays for the last.
 */
async function drain(url: string, dialect: LoadDialect): Promise<void> {
  const { path, body } = LOAD_REQUESTS[dialect];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.arrayBuffer());
    if (performance.now() - started < 500) return;
  }
}

/**
 * Every dialect at every concurrency level against one running server: a short warm-up per dialect, then
 * `repetitions` runs of `durationSeconds` per level; medians of throughput and latency, sums of failures.
 */
export async function runHttpLoad(options: {
  readonly url: string;
  readonly serverPid: number;
  readonly connections: readonly number[];
  readonly durationSeconds: number;
  readonly repetitions: number;
  readonly onRow?: (row: LoadRow) => void;
}): Promise<LoadRow[]> {
  const rows: LoadRow[] = [];
  for (const dialect of Object.keys(LOAD_REQUESTS) as LoadDialect[]) {
    await fire(options.url, dialect, 1, 1);
    for (const connections of options.connections) {
      const runs: autocannon.Result[] = [];
      for (let r = 0; r < options.repetitions; r++) {
        runs.push(await fire(options.url, dialect, connections, options.durationSeconds));
        await drain(options.url, dialect);
      }
      const memory = processMemoryMiB(options.serverPid);
      const sum = (f: (x: autocannon.Result) => number) => runs.reduce((a, x) => a + f(x), 0);
      const row: LoadRow = {
        dialect,
        connections,
        requestsPerSecond: median(runs.map((x) => x.requests.total / x.duration)),
        p50Ms: median(runs.map((x) => x.latency.p50)),
        p99Ms: median(runs.map((x) => x.latency.p99)),
        requests: sum((x) => x.requests.total),
        non2xx: sum((x) => x.non2xx),
        errors: sum((x) => x.errors),
        timeouts: sum((x) => x.timeouts),
        rssMiB: memory.rss,
        peakRssMiB: memory.peak,
      };
      options.onRow?.(row);
      rows.push(row);
    }
  }
  return rows;
}
