import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RerankClient } from '../../shared/client/index.js';
import { FIXTURE_MODEL_SPEC } from '../../shared/config/service-config.js';
import { cleanServerEnv } from '../support/start-dev-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'rerank-npm-start-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

interface NpmStart {
  readonly npm: ChildProcess;
  readonly port: number;
  /** Everything the process wrote so far, stdout and stderr. */
  output(): string;
}

/** `npm start` on a free port, with the fixture cross-encoder; anything above 8 documents becomes a job of 8-document chunks. */
async function npmStart(): Promise<NpmStart> {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...cleanServerEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      RERANK_MODELS: FIXTURE_MODEL_SPEC,
      RERANK_KEYS_FILE: join(scratch, 'keys.json'),
      RERANK_FILES_DIR: join(scratch, 'files'),
      RERANK_SYNC_MAX_DOCUMENTS: '8',
      RERANK_DEFAULT_BATCH_SIZE: '8',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((found, fail) => {
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[\d.]+:(\d+)/.exec(output);
      if (match) found(Number(match[1]));
    });
    npm.once('exit', (code) => fail(new Error(`npm start exited with ${code}: ${output}`)));
  });
  return { npm, port, output: () => output };
}

const DOCUMENTS = Array.from({ length: 2000 }, (_, i) => `document ${i} about how neural networks learn ${'detail '.repeat(i % 20)}`);

/** A job of 250 chunks, accepted with 202; its status read back as still running. */
async function unfinishedJob(port: number): Promise<string> {
  const accepted = await fetch(`http://127.0.0.1:${port}/v1/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ query: 'how do neural networks learn', documents: DOCUMENTS }),
  });
  expect(accepted.status).toBe(202);
  const { id, poll_url } = (await accepted.json()) as { id: string; poll_url: string };
  const view = (await (await fetch(`http://127.0.0.1:${port}${poll_url}`)).json()) as { status: string };
  expect(view.status).toBe('running');
  return id;
}

/** A batch of 40 lines over 200 documents each; its status read back as not yet ended. */
async function unfinishedBatch(port: number): Promise<string> {
  const client = new RerankClient({ baseUrl: `http://127.0.0.1:${port}/v1`, mode: 'openai' });
  const lines = Array.from({ length: 40 }, (_, i) => ({
    custom_id: `line-${i}`,
    body: { query: `how do neural networks learn ${i}`, documents: DOCUMENTS.slice(0, 200) },
  }));
  const batch = await client.batches.create(lines);
  const read = await client.batches.retrieve(batch.id);
  expect(['validating', 'in_progress']).toContain(read.status);
  return batch.id;
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm process stops the server: nothing listens afterwards', async (signal) => {
    const { npm, port } = await npmStart();
    expect(await accepts(port)).toBe(true);

    const exited = once(npm, 'exit');
    npm.kill(signal);
    await exited;

    expect(await accepts(port)).toBe(false);
  });

  const unfinished = { job: unfinishedJob, batch: unfinishedBatch };
  it.each([
    ['SIGINT', 'job'],
    ['SIGTERM', 'job'],
    ['SIGINT', 'batch'],
    ['SIGTERM', 'batch'],
  ] as const)('%s while a %s is unfinished: exit 0, no native error, the abandoned work named', async (signal, work) => {
    const { npm, port, output } = await npmStart();
    const id = await unfinished[work](port);

    const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    npm.kill(signal);
    const [code, bySignal] = await exited;

    expect(output()).not.toMatch(/Napi::Error|terminate called|Aborted/);
    expect({ code, bySignal }).toEqual({ code: 0, bySignal: null });
    expect(output()).toMatch(new RegExp(`abandoned, unfinished: .*${id}`));
    expect(await accepts(port)).toBe(false);
  });
});
