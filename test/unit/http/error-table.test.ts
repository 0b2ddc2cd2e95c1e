import { afterEach, describe, expect, it } from 'vitest';
import { STATUS_BY_KIND, RerankError } from '../../../shared/core/rerank-error.js';
import type { Scorer, ScoreOptions } from '../../../shared/core/scorer.js';
import { JobStillRunningError } from '../../../shared/http/job-still-running-error.js';
import { ScoringTimedOutError } from '../../../shared/core/scoring-timed-out-error.js';
import { AlreadyExistsError } from '../../../shared/core/already-exists-error.js';
import { JobExistsError } from '../../../shared/jobs/job-store.js';
import { BatchExistsError } from '../../../shared/batches/batch-store.js';
import { RateLimitedError } from '../../../shared/auth/rate-limited-error.js';
import { MethodNotAllowedError } from '../../../shared/http/pipeline/method-not-allowed-error.js';
import { errorResult } from '../../../shared/http/pipeline/error-result.js';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';
import { onMetricEvent, type MetricEvent } from '../../../shared/observability/metric-events.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

const post = (body: unknown, path = '/v1/rerank') => apiGatewayEvent({ method: 'POST', path, body: JSON.stringify(body) });

/** A model whose session fails, with internals in its error text that must never reach a client. */
const brokenModel: Scorer = {
  id: 'broken-model',
  scoreKind: 'logit',
  score: () => Promise.reject(new Error('ORT session run failed at /opt/models/secret-path/model.onnx')),
};

/** Scores one document per batch, honouring the deadline between batches. */
const slowModel: Scorer = {
  id: 'slow',
  scoreKind: 'similarity',
  async score(_query: string, documents: readonly string[], options?: ScoreOptions) {
    for (const _ of documents) {
      options?.signal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { scores: documents.map(() => 0), tokens: 0 };
  },
};

const events: MetricEvent[] = [];
const stop = onMetricEvent((event) => events.push(event));
afterEach(() => {
  events.length = 0;
});
process.on('exit', stop);

const failures = () => events.filter((e) => e.kind === 'request-failed');

describe('one error table: the kind alone decides the status', () => {
  it('gives no error a status its kind does not have (no subclass overrides it)', () => {
    const errors: RerankError[] = [
      new JobStillRunningError('job-1', '/v1/rerank/jobs/job-1', 1000),
      new ScoringTimedOutError(1000, 3),
      new JobExistsError('job-1'),
      new BatchExistsError('batch_1'),
    ];
    for (const error of errors) expect(error.status).toBe(STATUS_BY_KIND[error.kind]);
    expect(errors.map((e) => [e.kind, e.status])).toStrictEqual([
      ['still_running', 504],
      ['timed_out', 504],
      ['already_exists', 409],
      ['already_exists', 409],
    ]);
    expect(new JobExistsError('j')).toBeInstanceOf(AlreadyExistsError);
    expect(new BatchExistsError('b')).toBeInstanceOf(AlreadyExistsError);
  });

  it('an error carries its own headers, sent with any dialect envelope as given (no table of types in the HTTP layer)', () => {
    const context = { requestId: 'r-1', now: 0 };
    const sent = (error: RerankError) => errorResult(openAiDialect, error, context).headers;
    expect(sent(new RateLimitedError('slow down', 7))).toMatchObject({ 'retry-after': '7' });
    expect(sent(new MethodNotAllowedError('PUT', '/v1/rerank', ['POST']))).toMatchObject({ allow: 'POST' });
    expect(sent(new JobStillRunningError('job-1', '/v1/rerank/jobs/job-1', 1000))).toMatchObject({
      location: '/v1/rerank/jobs/job-1',
      'retry-after': '1',
      'x-should-retry': 'false',
    });
    const plain = sent(new RerankError('invalid_request', 'bad'));
    expect(Object.keys(plain ?? {}).filter((name) => ['retry-after', 'location', 'allow'].includes(name))).toStrictEqual([]);
  });

  it('a model failure is a 500 of its own kind: the client reads that the model failed, never its error text', async () => {
    const rt = testRuntime({ scorers: [brokenModel] });
    const result = await rt.app.handle(post({ query: 'q', documents: ['a', 'b'] }));
    expect(result.statusCode).toBe(500);
    const error = (JSON.parse(result.body as string) as { error: { message: string; code: string; type: string } }).error;
    expect(error).toMatchObject({ code: 'model_error', type: 'server_error' });
    expect(error.message).toMatch(/^the model 'broken-model' failed to score this request/);
    expect(result.body).not.toMatch(/secret-path|ORT session/);
    expect(failures()).toStrictEqual([{ kind: 'request-failed', errorKind: 'model_failed', status: 500 }]);
  });

  it('metrics tell a model failure from a deadline and from a refusal', async () => {
    const broken = testRuntime({ scorers: [brokenModel] });
    const slow = testRuntime({ scorers: [slowModel], syncTimeoutMs: 20 });
    await broken.app.handle(post({ query: 'q', documents: ['a'] }));
    await slow.app.handle(post({ query: 'q', documents: Array.from({ length: 50 }, (_, i) => `d${i}`) }));
    await slow.app.handle(post({ query: '', documents: ['a'] }));
    expect(failures().map((e) => e.kind === 'request-failed' && [e.errorKind, e.status])).toStrictEqual([
      ['model_failed', 500],
      ['timed_out', 504],
      ['invalid_request', 400],
    ]);
  });

  it('a deadline is a 504 in TEI too (TEI maps backend failures to 424; a deadline is not one)', async () => {
    const rt = testRuntime({ scorers: [slowModel], syncTimeoutMs: 20 });
    const result = await rt.app.handle(post({ query: 'q', texts: Array.from({ length: 50 }, (_, i) => `d${i}`) }, '/rerank'));
    expect(result.statusCode).toBe(504);
    expect(JSON.parse(result.body as string)).toMatchObject({
      error_type: 'Backend',
      error: expect.stringContaining('did not finish within'),
    });
  });

  it('a model failure on TEI is its Backend error (424), as TEI answers a failing backend', async () => {
    const rt = testRuntime({ scorers: [brokenModel] });
    const result = await rt.app.handle(post({ query: 'q', texts: ['a'] }, '/rerank'));
    expect(result.statusCode).toBe(424);
    expect(JSON.parse(result.body as string)).toStrictEqual({
      error: expect.stringContaining("the model 'broken-model' failed"),
      error_type: 'Backend',
    });
  });
});
