import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm process stops the server: nothing listens afterwards', async (signal) => {
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: {
        ...cleanServerEnv(),
        PORT: '0',
        HOST: '127.0.0.1',
        RERANK_MODELS: FIXTURE_MODEL_SPEC,
        RERANK_KEYS_FILE: join(scratch, 'keys.json'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const port = await new Promise<number>((found, fail) => {
      npm.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on http:\/\/[\d.]+:(\d+)/.exec(output);
        if (match) found(Number(match[1]));
      });
      npm.once('exit', (code) => fail(new Error(`npm start exited with ${code}: ${output}`)));
    });
    expect(await accepts(port)).toBe(true);

    const exited = once(npm, 'exit');
    npm.kill(signal);
    await exited;

    expect(await accepts(port)).toBe(false);
  });
});
