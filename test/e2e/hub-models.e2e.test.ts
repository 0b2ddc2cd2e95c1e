import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCompletePull } from '../../shared/scoring/model-pull/index.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';
import { startFakeHub, type FakeHub } from '../unit/scoring/model-pull/fake-hub-server.js';
import { fixtureHubRepo } from '../unit/scoring/model-pull/fixture-hub-repo.js';

// `npm start` with a Hub repo id in RERANK_MODELS: pulled into the model cache (here a temp folder, from a local hub) first.
let hub: FakeHub;
let server: RunningServer;
const cacheDir = mkdtempSync(path.join(tmpdir(), 'rerank-hub-cache-'));

beforeAll(async () => {
  hub = await startFakeHub({ 'cross-encoder/fixture': fixtureHubRepo() });
  server = await startDevServer({
    RERANK_MODELS: 'mini=hf:cross-encoder/fixture:quantized,bm25=lexical',
    HF_ENDPOINT: hub.endpoint,
    RERANK_MODEL_CACHE: cacheDir,
  });
});

afterAll(async () => {
  await server?.stop();
  await hub?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('npm start with RERANK_MODELS=mini=hf:<repo>', () => {
  it('serves the pulled model as the default, from its cache folder', async () => {
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] };
    const res = await fetch(`${server.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'python http library', documents: ['requests is an HTTP library for Python', 'bananas are yellow'] }),
    });
    expect(models.data.map((m) => m.id)).toEqual(['mini', 'bm25']);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { model: string }).model).toBe('mini');
    expect(await isCompletePull(path.join(cacheDir, 'cross-encoder', 'fixture', 'main', 'quantized'), 'cross-encoder/fixture')).toBe(true);
  });

  it("exits 1 with model:pull's message for a repo the hub does not have", async () => {
    await expect(
      startDevServer({ RERANK_MODELS: 'x=hf:org/nope', HF_ENDPOINT: hub.endpoint, RERANK_MODEL_CACHE: cacheDir }),
    ).rejects.toThrow(
      /dev server exited with 1:[\s\S]*model:pull: RERANK_MODELS entry 'x=hf:org\/nope': repository org\/nope \(revision main\) not found/,
    );
  });
});
