import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../support/start-dev-server.js';

// `npm start` with something the person starting it must fix: exit 1 and one line that says what and how, no stack trace.
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => busy.close(() => resolve()));
});

/** What the dev server printed before it exited, without the first line startDevServer adds. */
async function failedStart(env: Record<string, string>): Promise<string> {
  const error = await startDevServer(env).then(
    async (server) => {
      await server.stop();
      throw new Error('the dev server started');
    },
    (e: unknown) => e as Error,
  );
  expect(error.message).toMatch(/^dev server exited with 1:\n/);
  return error.message.replace(/^dev server exited with 1:\n/, '').trim();
}

describe('npm start refuses to start with one line', () => {
  it('on a port that is in use, naming it and another to use', async () => {
    const output = await failedStart({ PORT: String(busyPort) });
    expect(output).toBe(
      `port ${busyPort} is already in use on 127.0.0.1: stop what listens there, or start on another port, e.g. PORT=${busyPort + 1} npm start`,
    );
  });

  it('on a setting that does not parse, naming it and where the settings are listed', async () => {
    const output = await failedStart({ RERANK_MAX_DOCUMENTS: 'abc' });
    expect(output).toBe(
      "configuration: RERANK_MAX_DOCUMENTS must be a positive integer, got 'abc' (docs/configuration.md lists every setting)",
    );
  });

  it('on a PORT that is no port', async () => {
    expect(await failedStart({ PORT: 'abc' })).toBe("PORT must be a whole number from 0 to 65535, got 'abc'");
  });

  it('on a model folder that is not one', async () => {
    const output = await failedStart({ RERANK_MODELS: 'x=models' });
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toMatch(/^RERANK_MODELS: model folder .*models: cannot read config\.json/);
  });
});
