import { readFileSync } from 'node:fs';
import type { FetchLike } from '../../../shared/client/index.js';

/** A fetch stand-in for client unit tests: records each call and answers from a script. */

export interface RecordedCall {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface FakeReply {
  readonly status?: number;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent verbatim (seed files keep their spelling). */
  readonly text?: string;
  readonly headers?: Record<string, string>;
}

export type Answer = FakeReply | ((call: RecordedCall, signal: AbortSignal | undefined) => FakeReply | Promise<Response>);

export function fakeFetch(...script: Answer[]): { fetch: FetchLike; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    const call: RecordedCall = {
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const answer = script.length > 1 ? script.shift() : script[0];
    if (answer === undefined) throw new Error(`fake fetch has no answer for ${call.method} ${url}`);
    const reply = typeof answer === 'function' ? await answer(call, init.signal ?? undefined) : answer;
    if (reply instanceof Response) return reply;
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    return new Response(body, { status: reply.status ?? 200, headers: { 'content-type': 'application/json', ...reply.headers } });
  };
  return { fetch, calls };
}

/** A fetch that never answers until its signal aborts, rejecting like undici does. */
export const hangingFetch: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error), { once: true });
  });

const SEEDS = new URL('../../fixtures/seeds/', import.meta.url);

/** The verbatim text of a seed golden file (see test/fixtures/seeds/README.md). */
export const seedText = (name: string): string => readFileSync(new URL(name, SEEDS), 'utf8');

export const seedJson = <T = Record<string, unknown>>(name: string): T => JSON.parse(seedText(name)) as T;

/** A chat completion whose message content is `content`, as a chat reranker answers. */
export const chatCompletion = (content: string, usage?: Record<string, number>) => ({
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  ...(usage ? { usage } : {}),
});
