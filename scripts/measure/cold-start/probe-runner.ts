import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProbeOutput, splitProbe, type ColdStartSplit, type ProbeMarks } from './cold-start-split.js';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cold-start-probe.mjs');

/** What the stack sets on the scoring functions that shapes a cold start (scorer-function.ts, rerank-stack.ts). */
export interface ProbeCell {
  readonly node: string;
  readonly bundle: string;
  /** RERANK_MODELS (undefined: the service's default list). */
  readonly models: string | undefined;
  /** The model the request names. */
  readonly model: string;
  readonly threads: number;
  /** Models resolve against it, as against LAMBDA_TASK_ROOT on Lambda. */
  readonly codeRoot: string;
  readonly nodeOptions: string;
  /** Anything else for this cell's process (a variant's switches). */
  readonly extraEnv?: Readonly<Record<string, string>>;
}

/** The vCPUs Lambda gives per 1,769 MB: the memory size that buys `threads` vCPUs (3,008 MB is the stack's default). */
const memoryForThreads = (threads: number): number => (threads <= 1 ? 1769 : threads === 2 ? 3008 : threads * 1769);

/**
 * The API function's environment with the aws backend as deployed, pointed at an address where nothing listens: a
 * synchronous request calls no AWS service, and nothing can leave the machine if one did. The caller is an operator
 * key (RERANK_API_KEYS), where on AWS a client key would be read from DynamoDB (one round trip, then cached).
 */
export function probeEnv(cell: ProbeCell): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  const env: NodeJS.ProcessEnv = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return {
    ...env,
    NODE_OPTIONS: cell.nodeOptions,
    RERANK_JOBS_BACKEND: 'aws',
    RERANK_JOBS_TABLE: 'cold-start-bench',
    RERANK_CHUNK_QUEUE_URL: 'http://127.0.0.1:9/000000000000/chunks',
    RERANK_BATCH_QUEUE_URL: 'http://127.0.0.1:9/000000000000/batches',
    RERANK_FILES_BUCKET: 'cold-start-bench',
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    RERANK_API_KEYS: 'cold-start-bench-operator-key',
    // The 10 documents are always scored now: on a loaded machine the pace measured at load can make the estimate pass
    // the sync budget (half this deadline), and the job that would follow needs SQS.
    RERANK_SYNC_TIMEOUT_MS: '600000',
    RERANK_CODE_ROOT: cell.codeRoot,
    RERANK_THREADS: String(cell.threads),
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryForThreads(cell.threads)),
    POWERTOOLS_SERVICE_NAME: 'rerank',
    POWERTOOLS_METRICS_NAMESPACE: 'RerankService',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    ...(cell.models === undefined ? {} : { RERANK_MODELS: cell.models }),
    ...cell.extraEnv,
  };
}

export interface ProbeRun {
  readonly split: ColdStartSplit;
  readonly marks: ProbeMarks;
}

/** One fresh process: spawned, its marks read, split against the spawn time. Rejects on a failed or non-200 run. */
export function runProbe(cell: ProbeCell, timeoutMs = 180_000): Promise<ProbeRun> {
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.timeOrigin + performance.now();
    const child = spawn(cell.node, [PROBE, cell.bundle, cell.model], { env: probeEnv(cell), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const marks = parseProbeOutput(stdout);
        if (marks.status !== 200) throw new Error(`the request answered ${marks.status}`);
        resolve({ split: splitProbe(spawnedAt, marks), marks });
      } catch (error) {
        reject(new Error(`probe of ${cell.model} (${cell.threads} threads) exited ${code}: ${(error as Error).message}\n${stderr}`));
      }
    });
  });
}
