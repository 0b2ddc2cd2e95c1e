import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CohereClientV2, CohereError } from 'cohere-ai';
import { afterEach, describe, expect, it } from 'vitest';
import { readBodyCapped, toApiGatewayEvent, writeApiGatewayResult } from '../../../shared/http/node-http-adapter.js';
import { engineTaskHandlers } from '../../../shared/runtime/engine-task-handlers.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { gatedScorer } from '../../support/finalize-once.js';
import { testRuntime } from '../../support/test-runtime.js';

/**
 * The Cohere SDK resends a 504 by itself. A synchronous request that became a job answers 504 `job_still_running`
 * after RERANK_JOB_WAIT_MS; each resend used to start one more job (3 POSTs, 3 jobs). Now the key's identical request
 * joins the job it started: the job here is held running by a scorer waiting at a gate, so every attempt meets it.
 */
const KEY = 'sk-cohere-retry-0123456789';
const OTHER_KEY = 'sk-cohere-retry-other-0123';
const DOCUMENTS = Array.from({ length: 10 }, (_, i) => `python http library number ${i}`);

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start() {
  const gate = gatedScorer(createBm25Scorer({ id: 'bm25' }));
  const rt = testRuntime({ scorers: [gate.scorer], apiKeys: [KEY, OTHER_KEY], waitMs: 200, plan: { syncMaxDocuments: 4 } });
  const handlers = engineTaskHandlers({
    jobs: async () => ({ scorers: rt.scorers, jobs: rt.jobs }),
    batches: async () => {
      throw new Error('no batches here');
    },
  });
  rt.queue.attach(handlers.worker, handlers.deadLetter);
  let jobs = 0;
  const create = rt.store.create.bind(rt.store);
  rt.store.create = async (...args) => {
    jobs++;
    return create(...args);
  };
  const posts: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = (await readBodyCapped(req)) ?? Buffer.alloc(0);
      if (req.method === 'POST') posts.push(req.url ?? '');
      await writeApiGatewayResult(res, await rt.app.handle(toApiGatewayEvent(req, body)));
    })();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { gate, url, posts, jobs: () => jobs };
}

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('an SDK resending the 504 of a request that became a job', () => {
  it('joins the one job: at least two POSTs, one job, and its answer once it ends', async () => {
    const api = await start();
    const client = new CohereClientV2({ token: KEY, environment: api.url });
    const request = { model: 'bm25', query: 'python http', documents: DOCUMENTS, topN: 3 };

    const error = await rejection(client.rerank(request));

    expect(error).toBeInstanceOf(CohereError);
    expect((error as CohereError).statusCode).toBe(504);
    // The SDK did resend (else this proves nothing), and every attempt waited on the same job.
    expect(api.posts.length).toBeGreaterThanOrEqual(2);
    expect(api.jobs()).toBe(1);

    // Another key's identical request, and this key's other body, are jobs of their own.
    const others = [
      new CohereClientV2({ token: OTHER_KEY, environment: api.url }).rerank(request, { maxRetries: 0 }),
      client.rerank({ ...request, topN: 2 }, { maxRetries: 0 }),
    ];
    await Promise.all(others.map(rejection));
    expect(api.jobs()).toBe(3);

    // Once the job ends, the same request is answered from it (no new job).
    api.gate.open();
    let reply;
    for (let attempt = 0; reply === undefined && attempt < 50; attempt++) {
      reply = await client.rerank(request, { maxRetries: 0 }).catch(() => undefined);
    }
    expect(reply?.results).toHaveLength(3);
    expect(api.jobs()).toBe(3);
  });
});
