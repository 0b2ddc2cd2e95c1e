import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHSCOPE_RERANK_PATH } from '../../shared/http/api-routes.js';
import { httpApiEvent, invokeBundle, sqsEvent } from './support/invoke-bundle.js';
import { expectScorerBundleLayout, expectWithinLambdaLimits } from './support/lambda-bundle.js';
import {
  functionAssets,
  listFiles,
  PROJECT_ROOT,
  removeScratchDirs,
  synthRerankStack,
  type FunctionAsset,
} from './support/synth-rerank.js';

/**
 * The deployed code is the bundle CDK builds from the same entry files the local server runs. One bundled
 * synth for this machine's architecture (an arm64 bundle cannot load on x64), then each function's bundle
 * is loaded from the assembly, outside the checkout, and invoked like Lambda would.
 */
const nodeArch = process.arch === 'arm64' ? 'arm64' : 'x64';
let assets: Record<'Api' | 'Worker' | 'DeadLetter' | 'BatchWorker' | 'BatchDeadLetter', FunctionAsset>;
let authorizer: FunctionAsset;

beforeAll(() => {
  const { outdir, templateJson } = synthRerankStack({
    bundle: true,
    context: { 'rerank:architecture': nodeArch === 'arm64' ? 'arm64' : 'x86_64' },
  });
  const all = functionAssets(outdir, templateJson);
  const find = (prefix: string): FunctionAsset => {
    const asset = all.find((a) => a.logicalId.startsWith(prefix));
    if (!asset) throw new Error(`no ${prefix} function in the template`);
    return asset;
  };
  assets = {
    Api: find('ApiFunction'),
    Worker: find('WorkerFunction'),
    DeadLetter: find('DeadLetterFunction'),
    BatchWorker: find('BatchWorkerFunction'),
    BatchDeadLetter: find('BatchDeadLetterFunction'),
  };
  authorizer = find('EdgeAuthFunction');
}, 180_000);

afterAll(removeScratchDirs);

const bodyOf = (response: unknown): Record<string, unknown> => JSON.parse((response as { body: string }).body) as Record<string, unknown>;
const statusOf = (response: unknown): number => (response as { statusCode: number }).statusCode;

describe(`bundled functions (linux/${nodeArch})`, () => {
  it('are laid out as Lambda runs them and fit its limits', () => {
    expect(assets.Api.dir.startsWith(PROJECT_ROOT)).toBe(false);
    for (const asset of Object.values(assets)) {
      // The default deployment bundles what npm start serves: the USE-lite folder and the fixture.
      expectScorerBundleLayout(asset, nodeArch, 'models/tinybert-l2-fixture');
      expect(existsSync(path.join(asset.dir, 'models', 'use-lite', 'onnx'))).toBe(true);
    }
    expectWithinLambdaLimits(Object.values(assets));
  });

  it('API bundle: loads onnxruntime and the model from the bundle and answers every dialect', () => {
    const documents = ['urllib is a built-in Python library for HTTP requests', 'bananas are yellow', 'httpx is an async HTTP client'];
    const { results, ortEntry } = invokeBundle(assets.Api, [
      httpApiEvent('POST', '/v1/rerank', { query: 'python http library', documents, top_n: 2 }),
      httpApiEvent('POST', DASHSCOPE_RERANK_PATH, { input: { query: 'python http library', documents }, parameters: { top_n: 2 } }),
      httpApiEvent('POST', '/v1/chat/completions', {
        messages: [{ role: 'user', content: JSON.stringify({ query: 'python http library', candidates: documents, top_k: 2 }) }],
      }),
      httpApiEvent('GET', '/v1/models'),
      httpApiEvent('GET', '/no/such/route'),
      httpApiEvent('GET', '/docs/swagger-ui.css'),
    ]);
    expect(ortEntry.startsWith(path.join(assets.Api.dir, 'node_modules', 'onnxruntime-node'))).toBe(true);
    const [openai, dashscope, chat, models, missing, docsCss] = results;
    expect(results.slice(0, 4).map(statusOf)).toEqual([200, 200, 200, 200]);
    expect(bodyOf(openai)).toMatchObject({ model: 'use-lite-bm25', results: expect.any(Array) });
    expect((bodyOf(openai)['results'] as unknown[]).length).toBe(2);
    expect((bodyOf(dashscope)['output'] as { results: unknown[] }).results).toHaveLength(2);
    const content = (bodyOf(chat)['choices'] as { message: { content: string } }[])[0]!.message.content;
    expect((JSON.parse(content) as { results: unknown[] }).results).toHaveLength(2);
    expect(JSON.stringify(bodyOf(models))).toContain('tinybert-l2-fixture');
    expect(statusOf(missing)).toBe(404);
    // The docs page's files travel in the bundle (read at run time, not bundled by esbuild).
    expect(statusOf(docsCss)).toBe(200);
  });

  it('worker bundle: loads the scorer and scores a queued chunk (its job is unknown to a fresh memory store)', () => {
    const chunk = { jobId: 'job-1', chunkIndex: 0, offset: 0, model: 'tinybert-l2-fixture', query: 'q', documents: ['a', 'b'] };
    const { results, ortEntry } = invokeBundle(assets.Worker, [sqsEvent(chunk)]);
    expect(ortEntry.startsWith(assets.Worker.dir)).toBe(true);
    // The chunk was scored and its record accepted (a throw would have listed it as a failure).
    expect(results[0]).toEqual({ batchItemFailures: [] });
  });

  it('authorizer bundle: small (no model, no ONNX runtime), and closed without its table', () => {
    const [size] = expectWithinLambdaLimits([authorizer]);
    expect(size!.unzippedMb).toBeLessThan(5);
    expect(listFiles(authorizer.dir).some((f) => /onnx/.test(f))).toBe(false);
    const event = (authorization?: string) => ({
      ...httpApiEvent('POST', '/v1/rerank'),
      type: 'REQUEST',
      headers: authorization ? { authorization } : {},
    });
    // The template's RERANK_JOBS_TABLE is a CloudFormation Ref, absent here: the authorizer must refuse, not open.
    const { results, ortEntry } = invokeBundle(authorizer, [event(), event(`Bearer rk-${'A'.repeat(40)}`)]);
    expect(ortEntry).toBe('');
    expect(results).toEqual([{ isAuthorized: false }, { isAuthorized: false }]);
  });

  it("runs one worker bundle and one dead-letter bundle: each queue pair's functions deploy the same asset", () => {
    expect(assets.BatchWorker.dir).toBe(assets.Worker.dir);
    expect(assets.BatchDeadLetter.dir).toBe(assets.DeadLetter.dir);
    expect(new Set(Object.values(assets).map((a) => a.dir)).size).toBe(3);
  });

  it('dead-letter bundle: consumes a dead-lettered chunk', () => {
    const { results } = invokeBundle(assets.DeadLetter, [sqsEvent({ jobId: 'job-1', chunkIndex: 0 }, 3)]);
    expect(results[0]).toEqual({ batchItemFailures: [] });
  });
});
