import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { expect } from 'vitest';

export type WireDialect = 'openai' | 'dashscope' | 'chat';

export interface ParsedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number | boolean>>;
  readonly body: Record<string, unknown>;
}

/** Every status the service may answer a client's mistake (or success) with; anything else is a bug. */
export const CLIENT_STATUSES = [200, 202, 400, 401, 404, 405, 413, 415, 429] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Never a 5xx, always a JSON object body with a request id: the floor under every property. */
export function parseResponse(result: APIGatewayProxyStructuredResultV2): ParsedResponse {
  const status = result.statusCode ?? 200;
  // The one documented 5xx that is not a failure: a request that became a job still running when the route stopped
  // waiting (504 with the job's poll URL in Location; the job runs on).
  const jobStillRunning = status === 504 && String(result.headers?.['location'] ?? '').includes('/v1/rerank/jobs/');
  // Messages are built only on failure: bodies can be large.
  if (!jobStillRunning && (status >= 500 || !(CLIENT_STATUSES as readonly number[]).includes(status))) {
    expect.fail(`status ${status}, body ${result.body?.slice(0, 2_000)}`);
  }
  const headers = result.headers ?? {};
  if (status === 200 && String(headers['content-type']).startsWith('text/event-stream')) {
    return { status, headers, body: assembleChatStream(result.body ?? '') };
  }
  expect(headers['content-type']).toBe('application/json');
  expect(typeof headers['x-request-id']).toBe('string');
  expect(typeof result.body).toBe('string');
  const body: unknown = JSON.parse(result.body as string);
  if (!isRecord(body)) expect.fail(`body is not a JSON object: ${result.body?.slice(0, 2_000)}`);
  return { status, headers, body };
}

/**
 * A chat `stream: true` reply (server-sent chunks, then `data: [DONE]`) assembled into the chat completion an
 * OpenAI client would build from it, so the same checks apply to both framings.
 */
function assembleChatStream(text: string): Record<string, unknown> {
  const events = text.split('\n\n').filter(Boolean);
  expect(events.at(-1)).toBe('data: [DONE]');
  const chunks = events.slice(0, -1).map((e) => {
    expect(e.startsWith('data: ')).toBe(true);
    return JSON.parse(e.slice('data: '.length)) as Record<string, unknown> & {
      choices: { delta: { content?: string }; finish_reason: string | null }[];
    };
  });
  for (const chunk of chunks) expect(chunk['object']).toBe('chat.completion.chunk');
  const last = chunks.at(-1);
  const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  return {
    id: chunks[0]?.['id'],
    object: 'chat.completion',
    created: chunks[0]?.['created'],
    model: chunks[0]?.['model'],
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: last?.choices[0]?.finish_reason }],
    usage: last?.['usage'],
  };
}

/** `{"error":{"message","type","param","code"}}` (OpenAI-compatible, chat, jobs, models, health, unknown paths). */
export function expectOpenAiError(body: Record<string, unknown>): void {
  // `/v1/rerank`-style routes add Cohere v1's top-level `message`, the same text as `error.message`.
  expect(Object.keys(body).filter((k) => k !== 'message')).toEqual(['error']);
  const error = body['error'];
  if ('message' in body) expect(body['message']).toBe((error as Record<string, unknown> | undefined)?.['message']);
  expect(isRecord(error), 'error is an object').toBe(true);
  const e = error as Record<string, unknown>;
  expect(typeof e['message']).toBe('string');
  expect(e['message']).not.toBe('');
  expect(typeof e['type']).toBe('string');
  expect(typeof e['code']).toBe('string');
  expect(e['param'] === null || typeof e['param'] === 'string', `param ${String(e['param'])}`).toBe(true);
}

/** `{"code","message","request_id"}` with the request's own id. */
export function expectDashScopeError(body: Record<string, unknown>, requestId: string): void {
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'request_id']);
  expect(typeof body['code']).toBe('string');
  expect(typeof body['message']).toBe('string');
  expect(body['message']).not.toBe('');
  expect(body['request_id']).toBe(requestId);
}

export function expectErrorEnvelope(dialect: WireDialect, response: ParsedResponse, requestId: string): void {
  if (dialect === 'dashscope') expectDashScopeError(response.body, requestId);
  else expectOpenAiError(response.body);
  if (response.status === 405) expect(typeof response.headers['allow']).toBe('string');
}

/** One ranked result, whatever the dialect calls its fields. */
export interface WireResult {
  readonly index: unknown;
  readonly score: unknown;
  readonly document?: unknown;
  readonly hasDocument: boolean;
}

/** A 200 in the dialect's success shape; returns its results for the ranking checks. */
export function expectDialectSuccess(dialect: WireDialect, body: Record<string, unknown>): WireResult[] {
  const fromArray = (results: unknown, scoreKey: string): WireResult[] => {
    expect(Array.isArray(results), 'results is an array').toBe(true);
    return (results as unknown[]).map((r) => {
      expect(isRecord(r)).toBe(true);
      const result = r as Record<string, unknown>;
      return { index: result['index'], score: result[scoreKey], document: result['document'], hasDocument: 'document' in result };
    });
  };
  switch (dialect) {
    case 'openai':
      expect(body['object']).toBe('rerank');
      expect(typeof body['id']).toBe('string');
      expect(typeof body['model']).toBe('string');
      expect(typeof (body['usage'] as Record<string, unknown> | undefined)?.['total_tokens']).toBe('number');
      return fromArray(body['results'], 'relevance_score');
    case 'dashscope':
      expect(typeof body['request_id']).toBe('string');
      expect(typeof (body['usage'] as Record<string, unknown> | undefined)?.['total_tokens']).toBe('number');
      return fromArray((body['output'] as Record<string, unknown> | undefined)?.['results'], 'relevance_score');
    case 'chat': {
      expect(body['object']).toBe('chat.completion');
      const choices = body['choices'] as { message?: { role?: unknown; content?: unknown } }[];
      expect(choices).toHaveLength(1);
      expect(choices[0]?.message?.role).toBe('assistant');
      const content = choices[0]?.message?.content;
      expect(typeof content).toBe('string');
      const parsed = JSON.parse(content as string) as Record<string, unknown>;
      return fromArray(parsed['results'], 'score');
    }
  }
}

export interface RankingExpectation {
  /** The documents sent, as sent; `undefined` when the request is not known to the caller. */
  readonly documents?: readonly unknown[];
  readonly topN?: number;
  readonly threshold?: number;
  readonly returnDocuments?: boolean;
}

/**
 * The rerank promise: a permutation of a subset of the input indices, best first (ties in input order),
 * `min(top_n, n)` of them without a threshold, documents on every result iff asked for.
 */
export function expectRanking(dialect: WireDialect, results: readonly WireResult[], expected: RankingExpectation): void {
  const n = expected.documents?.length;
  const seen = new Set<number>();
  let previous: { index: number; score: number } | undefined;
  for (const r of results) {
    expect(Number.isInteger(r.index), `index ${String(r.index)}`).toBe(true);
    const index = r.index as number;
    expect(index).toBeGreaterThanOrEqual(0);
    if (n !== undefined) expect(index).toBeLessThan(n);
    expect(seen.has(index), `index ${index} repeated`).toBe(false);
    seen.add(index);
    expect(typeof r.score === 'number' && Number.isFinite(r.score), `score ${String(r.score)}`).toBe(true);
    const score = r.score as number;
    if (previous) {
      expect(score, 'scores are sorted descending').toBeLessThanOrEqual(previous.score);
      if (score === previous.score) expect(index, 'ties keep the input order').toBeGreaterThan(previous.index);
    }
    if (expected.threshold !== undefined) expect(score).toBeGreaterThanOrEqual(expected.threshold);
    previous = { index, score };

    if (expected.returnDocuments !== undefined) expect(r.hasDocument, 'document present iff requested').toBe(expected.returnDocuments);
    if (expected.returnDocuments && expected.documents) {
      const sent = expected.documents[index];
      const text = typeof sent === 'string' ? sent : (sent as { text: string }).text;
      // A document object comes back as JSON carries it: a number literal past float range (`1e400`) parses to
      // Infinity and is written back as null, as JSON.stringify writes every non-finite number.
      const echoed = typeof sent === 'string' ? { text } : (JSON.parse(JSON.stringify(sent)) as unknown);
      expect(r.document).toEqual(dialect === 'chat' ? text : echoed);
    }
  }
  if (n !== undefined && expected.threshold === undefined) {
    expect(results.length).toBe(Math.min(expected.topN ?? n, n) + 0); // + 0: `top_n: -0` asks for none
  }
  if (n !== undefined && expected.topN !== undefined) expect(results.length).toBeLessThanOrEqual(expected.topN);
}

/** The 202 and poll body of a job. */
export function expectJobView(body: Record<string, unknown>, headers?: ParsedResponse['headers']): void {
  expect(body['object']).toBe('rerank.job');
  expect(typeof body['id']).toBe('string');
  expect(['running', 'succeeded', 'failed']).toContain(body['status']);
  expect(['openai', 'dashscope', 'chat']).toContain(body['dialect']);
  expect(typeof body['model']).toBe('string');
  const progress = body['progress'] as Record<string, unknown>;
  expect(Number.isInteger(progress['chunks_done'])).toBe(true);
  expect(Number.isInteger(progress['chunks_total'])).toBe(true);
  expect(progress['chunks_done'] as number).toBeLessThanOrEqual(progress['chunks_total'] as number);
  for (const key of ['created_at', 'updated_at', 'expires_at']) expect(typeof body[key]).toBe('number');
  const pollUrl = `/v1/rerank/jobs/${encodeURIComponent(body['id'] as string)}`;
  expect(body['poll_url']).toBe(pollUrl);
  if (headers) expect(headers['location']).toBe(pollUrl);
  if (body['status'] === 'failed') expect(typeof (body['error'] as Record<string, unknown>)['message']).toBe('string');
  else expect('error' in body).toBe(false);
}
