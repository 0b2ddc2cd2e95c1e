import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { loadFolderScorer } from '../../../shared/scoring/load-folder-scorer.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime, type TestRuntime } from '../../support/test-runtime.js';
import { familyFolder, LLM_RERANKER_FIXTURE } from './family-fixtures.js';

// Every family with a tokenizer of its own applies the token caps and the truncation side (real models, real
// tokenizers): with `left` two documents that differ only in their start score alike, with `right` they do not.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const FAMILIES = {
  'cross-encoder': path.join(ROOT, 'models/tinybert-l2-fixture'),
  'bi-encoder': path.join(ROOT, 'models/use-lite'),
  'causal-lm': familyFolder(LLM_RERANKER_FIXTURE),
};
let scorers: Scorer[];
let rt: TestRuntime;

beforeAll(async () => {
  scorers = await Promise.all(
    Object.entries(FAMILIES).map(([id, folder]) => loadFolderScorer({ id, folder, threads: 1, measurePaceAtLoad: false })),
  );
  rt = testRuntime({ scorers: [...scorers, createBm25Scorer({ id: 'bm25' })], limits: { maxDocumentChars: 100_000 } });
});

afterAll(async () => {
  await Promise.all(scorers.map((s) => s.close?.()));
});

const TAIL = 'the river flows past the old mill and into the quiet valley where the farmers gather every autumn for the harvest fair';
const DOCUMENTS = [`cheese omelette recipe with butter ${TAIL}`, `quantum chromodynamics lecture notes ${TAIL}`];

async function post(path: string, json: unknown) {
  const result = await rt.app.handle(apiGatewayEvent({ method: 'POST', path, json }));
  expect(result.statusCode, result.body as string).toBe(200);
  return { headers: result.headers ?? {}, body: JSON.parse(result.body as string) as unknown };
}

const scores = (results: { index: number; relevance_score?: number; score?: number }[]) =>
  [...results].sort((a, b) => a.index - b.index).map((r) => (r.relevance_score ?? r.score) as number);

describe.each(Object.keys(FAMILIES))('%s: max_tokens_per_doc with truncation_side', (model) => {
  it('left keeps the end (equal scores for equal ends), right the start; the cut is reported', async () => {
    const body = { model, query: 'harvest fair in the valley', documents: DOCUMENTS, max_tokens_per_doc: 8 };
    const left = await post('/v1/rerank', { ...body, truncation_side: 'left' });
    const right = await post('/v1/rerank', { ...body, truncation_side: 'right' });
    const [l0, l1] = scores((left.body as { results: [] }).results);
    const [r0, r1] = scores((right.body as { results: [] }).results);
    expect(Math.abs(l0! - l1!)).toBeLessThan(1e-6);
    expect(Math.abs(r0! - r1!)).toBeGreaterThan(1e-6);
    expect(left.headers['x-rerank-truncated']).toMatch(/^0=\d+, 1=\d+$/);
    // vLLM's score API spells them alike and gives the same scores.
    const score = await post('/score', { model, text_1: body.query, text_2: DOCUMENTS, max_tokens_per_doc: 8, truncation_side: 'left' });
    scores((score.body as { data: [] }).data).forEach((s, i) => expect(s).toBeCloseTo([l0!, l1!][i]!, 6));
  });
});

describe('TEI truncation_direction: Left at the model window (cross-encoder)', () => {
  it('keeps the end of a document longer than the window', async () => {
    // A shared end longer than the window (512 tokens), after starts that differ.
    const end = Array.from({ length: 30 }, () => TAIL).join(' ');
    const texts = [`apple pie and custard ${end}`, `zebra crossing at night ${end}`];
    const send = (direction: string) =>
      post('/rerank', { model: 'cross-encoder', query: 'harvest fair', texts, truncation_direction: direction, raw_scores: true });
    const left = scores((await send('Left')).body as []);
    const right = scores((await send('Right')).body as []);
    expect(Math.abs(left[0]! - left[1]!)).toBeLessThan(1e-6);
    expect(Math.abs(right[0]! - right[1]!)).toBeGreaterThan(1e-6);
  });
});

describe('lexical (bm25)', () => {
  it('scores whole documents and reports the token controls unused', async () => {
    const body = { model: 'bm25', query: 'cheese', documents: DOCUMENTS };
    const plain = await post('/v1/rerank', body);
    const capped = await post('/v1/rerank', { ...body, max_tokens_per_doc: 2, truncation_side: 'left' });
    expect(scores((capped.body as { results: [] }).results)).toEqual(scores((plain.body as { results: [] }).results));
    expect(capped.headers['x-rerank-unused-controls']).toBe('max_tokens_per_doc, truncation_side');
  });
});
