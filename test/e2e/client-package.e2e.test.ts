import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packClient } from '../../scripts/ops/client-package/pack-client.js';
import { cleanServerEnv, startDevServer, type RunningServer } from '../support/start-dev-server.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const KEY = 'sk-client-package-0123456789';
const scratch = mkdtempSync(join(tmpdir(), 'rerank-client-package-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: KEY });
});

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const DOCUMENTS = ['urllib is a built-in Python library', 'the weather is mild', 'requests is a popular HTTP library for Python'];

// What a user of another project writes: typed, against the installed package only.
const CONSUMER = `
import { RerankClient, RerankApiError, type RerankResult } from 'rerank-service-client';

const [baseUrl, apiKey] = process.argv.slice(2) as [string, string];
const documents = ${JSON.stringify(DOCUMENTS)};
const client = new RerankClient({ baseUrl, apiKey, mode: 'openai' });
const ranked: RerankResult = await client.rerank('python http library', documents, { topK: 2, includeDocs: true });
let unauthorized = '';
try {
  await new RerankClient({ baseUrl, apiKey: 'sk-wrong', mode: 'chat' }).rerank('q', ['a']);
} catch (error) {
  if (error instanceof RerankApiError) unauthorized = String(error.status) + ' ' + error.message;
}
console.log(JSON.stringify({ results: ranked.results, unauthorized }));
`;

describe('the client SDK as a package', () => {
  it('npm pack -> installed offline into a fresh project -> its typed code compiles against the declarations and runs', async () => {
    const tarball = packClient(scratch);
    const listed = (await run('tar', ['-tzf', tarball])).stdout.split('\n');
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/README.md',
        'package/LICENSE',
        'package/package.json',
        'package/dist/index.js',
        'package/dist/index.d.ts',
      ]),
    );
    const project = join(scratch, 'consumer');
    const env = { ...cleanServerEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--silent', tarball], { cwd: project, env });
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);

    // Compiled by the project's TypeScript with only Node's types: the package must bring its own declarations.
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        'false',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        'consumer.ts',
      ],
      { cwd: project, env },
    );
    const { stdout } = await run(process.execPath, ['consumer.js', `${server.url}/v1`, KEY], { cwd: project, env });

    const output = JSON.parse(stdout) as { results: [number, number, string][]; unauthorized: string };
    const direct = await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query: 'python http library', documents: DOCUMENTS, top_n: 2 }),
    });
    const expected = ((await direct.json()) as { results: { index: number; relevance_score: number }[] }).results;
    expect(output.results).toEqual(expected.map((r) => [r.index, r.relevance_score, DOCUMENTS[r.index]]));
    expect(output.unauthorized).toMatch(/^401 invalid API key: the Bearer key matches no key/);
    // Two TypeScript compiles and an npm install: under a full parallel run this takes minutes on two cores.
  }, 300_000);
});
