import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FIXTURE_MODEL_SPEC } from '../../shared/config/service-config.js';
import type { LocalServerListening } from '../../scripts/serve/local-server.js';

export interface RunningServer {
  readonly url: string;
  readonly pid: number;
  /** What it has written so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The caller's environment without what configures the service: a developer's RERANK_* settings, AWS
 * credentials or Powertools levels must not change what a test sees.
 */
export function cleanServerEnv(): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(RERANK_|AWS_|POWERTOOLS_)/.test(name) || name === 'PORT' || name === 'HOST') continue;
    clean[name] = value;
  }
  return clean;
}

/**
 * Starts `scripts/serve/dev-server.ts` (what `npm start` runs) on a free port and resolves once it reports
 * its URL over the IPC channel (no log line parsed). `stop()` kills exactly that process by its own PID and waits for it to exit.
 * `cores` pins it with `taskset -c` (a benchmark's 1 or 2 vCPUs); a large model on one core may need a longer `startTimeoutMs`.
 */
export async function startDevServer(
  env: Record<string, string> = {},
  options: { cores?: string; startTimeoutMs?: number } = {},
): Promise<RunningServer> {
  // Its own key file (absent = no stored keys): the project's `.rerank/keys.json` never switches auth on in a test.
  const scratch = mkdtempSync(join(tmpdir(), 'rerank-dev-server-'));
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  const node = [process.execPath, '--import', 'tsx', 'scripts/serve/dev-server.ts'];
  // `taskset` execs node in its own process, so the PID stays the server's.
  const command = options.cores === undefined ? node : ['taskset', '-c', options.cores, ...node];
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    // The fixture cross-encoder by default: fast, deterministic, and chunkable (jobs fan out); pass
    // RERANK_MODELS: '' to get the shipped default models.
    env: {
      ...cleanServerEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      RERANK_MODELS: FIXTURE_MODEL_SPEC,
      RERANK_KEYS_FILE: join(scratch, 'keys.json'),
      RERANK_FILES_DIR: join(scratch, 'files'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.once('exit', removeScratch);
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timeoutMs = options.startTimeoutMs ?? 60_000;
    const timer = setTimeout(() => reject(new Error(`dev server did not start in ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    child.on('message', (message: Partial<LocalServerListening>) => {
      if (message.type !== 'listening' || typeof message.url !== 'string') return;
      clearTimeout(timer);
      resolveUrl(message.url);
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dev server exited with ${code}:\n${output}`));
    });
  });
  const pid = child.pid as number;
  return {
    url,
    pid,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return removeScratch();
      const exited = once(child, 'exit');
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && process.kill(pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
