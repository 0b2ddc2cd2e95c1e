import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sigmoid } from '../../shared/core/score-activation.js';
import { maxPerOwner, splitLongDocuments } from '../../shared/core/split-long-documents.js';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../shared/scoring/onnx-cross-encoder.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

const MODEL = 'tinybert-l2-fixture';
const QUERY = 'python http library';
const DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
  'The giant panda is a bear species endemic to China',
  'HTTP/2 multiplexes streams over a single TCP connection',
  'Bamboo makes up most of the giant panda diet',
];
/** The same documents as seed 002 RAGDocuments, with metadata for boost fields. */
const RAG_DOCS = DOCS.map((content, i) => ({ document_id: `doc-${i}`, content, metadata: { source: i === 5 ? 'zoo' : 'web' } }));

type Json = Record<string, unknown>;
interface Ranked {
  index: number;
  relevance_score: number;
}
interface RagBody {
  reranked_documents: Ranked[];
  metadata: Json;
}

let server: RunningServer;
let scorer: OnnxCrossEncoder;
/** The reference: the fixture model's logits for QUERY x DOCS, scored in-process. */
let logits: number[];
let probs: number[];
/** A local port with nothing listening: an upstream that fails. */
let deadPort: number;

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Json, headers: res.headers };
};

const rag = async (extra: Json, path = '/tool-runtime/rag-tool/rerank') => {
  const response = await post(path, { query: QUERY, retrieved_docs: RAG_DOCS, reranker_model_id: MODEL, top_k: DOCS.length, ...extra });
  return { ...response, rag: response.body as unknown as RagBody };
};

/** Indices best first by the given scores; ties keep the input order. */
const orderBy = (scores: readonly number[]): number[] =>
  scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((r) => r.index);

const expectSortedDesc = (items: readonly Ranked[]): void => {
  for (let i = 1; i < items.length; i++)
    expect((items[i - 1] as Ranked).relevance_score).toBeGreaterThanOrEqual((items[i] as Ranked).relevance_score);
};

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  // The external-provider tests point the service at itself; '*' lets the loopback host through.
  server = await startDevServer({ RERANK_UPSTREAM_ALLOWED_HOSTS: '*' });
  scorer = await loadOnnxCrossEncoder({
    id: 'reference',
    folder: resolve(import.meta.dirname, '../../models/tinybert-l2-fixture'),
    threads: 1,
  });
  logits = [...(await scorer.score(QUERY, DOCS)).scores];
  probs = logits.map(sigmoid);
  deadPort = await freePort();
});

afterAll(async () => {
  await server?.stop();
  await scorer?.close();
});

describe('RAG-stack rerank (seed 002): POST /tool-runtime/rag-tool/rerank', () => {
  it('strategy NONE: the input order, every score 0, top_k 5 by default', async () => {
    const { status, rag: body } = await post('/tool-runtime/rag-tool/rerank', {
      query: QUERY,
      retrieved_docs: RAG_DOCS,
      rerank_strategy: 'NONE',
    }).then((r) => ({ ...r, rag: r.body as unknown as RagBody }));

    expect(status).toBe(200);
    expect(body.reranked_documents).toEqual([0, 1, 2, 3, 4].map((index) => ({ index, relevance_score: 0 })));
    expect(body.metadata).toMatchObject({
      strategy: 'none',
      total_chunks: 6,
      raw_scores: [0, 0, 0, 0, 0, 0],
      mean_score: 0,
      std_score: 0,
      score_gap: 0,
    });
  });

  it('strategy DEFAULT: the model ranking, sigmoid scores, and the RFC metadata over the raw logits', async () => {
    const { status, rag: body } = await rag({ rerank_strategy: 'DEFAULT' });

    expect(status).toBe(200);
    expect(body.reranked_documents.map((r) => r.index)).toEqual(orderBy(logits));
    for (const r of body.reranked_documents) expect(r.relevance_score).toBeCloseTo(probs[r.index] as number, 6);
    const m = body.metadata;
    expect(m).toMatchObject({ query: QUERY, total_chunks: DOCS.length, strategy: 'default', model: MODEL });
    expect(m).not.toHaveProperty('fallback');
    (m['raw_scores'] as number[]).forEach((raw, i) => expect(raw).toBeCloseTo(logits[i] as number, 5));
    const mean = logits.reduce((a, b) => a + b, 0) / logits.length;
    const std = Math.sqrt(logits.reduce((a, b) => a + (b - mean) ** 2, 0) / logits.length);
    const [best, second] = [...logits].sort((a, b) => b - a);
    expect(m['mean_score']).toBeCloseTo(mean, 5);
    expect(m['std_score']).toBeCloseTo(std, 5);
    expect(m['score_gap']).toBeCloseTo((best as number) - (second as number), 5);
    expect(m['execution_time_ms']).toBeGreaterThan(0);
  });

  it('query as InterleavedContent text items, on the /v1-prefixed path too', async () => {
    const { status, rag: body } = await rag(
      {
        query: [
          { type: 'text', text: 'python http' },
          { type: 'text', text: 'library' },
        ],
      },
      '/v1/tool-runtime/rag-tool/rerank',
    );

    expect(status).toBe(200);
    expect(body.metadata['query']).toBe(QUERY);
    expect(body.reranked_documents.map((r) => r.index)).toEqual(orderBy(logits));
  });

  it('strategy BOOST: a boosted term moves its document to the top; a metadata field boost does too', async () => {
    const last = orderBy(logits).at(-1) as number;
    const term = (DOCS[last] as string).split(' ').at(-1) as string;
    expect(DOCS.filter((d) => d.toLowerCase().includes(term.toLowerCase()))).toEqual([DOCS[last]]);
    const byTerm = await rag({ rerank_strategy: 'boost', rerank_config: { boost: { terms: [term], weight: 5 } } });

    expect(byTerm.status).toBe(200);
    expect(byTerm.rag.reranked_documents[0]?.index).toBe(last);
    expect(byTerm.rag.metadata['strategy']).toBe('boost');
    expectSortedDesc(byTerm.rag.reranked_documents);

    const byField = await rag({
      rerank_strategy: 'BOOST',
      rerank_config: { boost: { fields: [{ field: 'metadata.source', value: 'zoo', weight: 3 }] } },
    });
    expect(byField.rag.reranked_documents[0]?.index).toBe(5);
    expect(byField.rag.reranked_documents[0]?.relevance_score).toBeCloseTo((probs[5] as number) + 3, 6);
  });

  it('strategy HYBRID: model and BM25 fused, every score in [0,1]', async () => {
    const { status, rag: body } = await rag({ rerank_strategy: 'hybrid' });

    expect(status).toBe(200);
    expect(body.reranked_documents).toHaveLength(DOCS.length);
    for (const r of body.reranked_documents) {
      expect(r.relevance_score).toBeGreaterThanOrEqual(0);
      expect(r.relevance_score).toBeLessThanOrEqual(1);
    }
    expectSortedDesc(body.reranked_documents);
    expect(body.metadata['strategy']).toBe('hybrid');
    expect(String(body.metadata['model'])).toContain(MODEL);
  });

  it('rerank_threshold drops results below it (after the sigmoid); top_k still caps', async () => {
    const sorted = [...probs].sort((a, b) => b - a);
    const threshold = ((sorted[2] as number) + (sorted[3] as number)) / 2;
    const { rag: body } = await rag({ rerank_threshold: threshold });

    expect(body.reranked_documents.map((r) => r.index)).toEqual(orderBy(logits).slice(0, 3));
    expect(body.reranked_documents.every((r) => r.relevance_score >= threshold)).toBe(true);
    // Metadata still describes every chunk scored.
    expect(body.metadata['total_chunks']).toBe(DOCS.length);

    const capped = await rag({ rerank_threshold: threshold, top_k: 2 });
    expect(capped.rag.reranked_documents).toHaveLength(2);
  });

  it("LLM_RERANK through an external chat provider (this same server, mode chat): the model's scores come back", async () => {
    const {
      status,
      text,
      rag: body,
    } = await rag({
      rerank_strategy: 'LLM_RERANK',
      rerank_config: { api_url: `${server.url}/v1`, api_key: 'sk-upstream-SECRET', mode: 'chat', timeout: 20 },
    });

    expect(status, text).toBe(200);
    expect(body.reranked_documents.map((r) => r.index)).toEqual(orderBy(logits));
    for (const r of body.reranked_documents) expect(r.relevance_score).toBeCloseTo(probs[r.index] as number, 6);
    expect(body.metadata).toMatchObject({ strategy: 'llm_rerank', model: MODEL });
    expect(body.metadata).not.toHaveProperty('fallback');
    expect(text).not.toContain('SECRET');
  });

  it("DEFAULT with rerank_config.api_url: the RFC's external provider, an OpenAI-style upstream by default", async () => {
    const { status, rag: body } = await rag({
      rerank_strategy: 'DEFAULT',
      rerank_config: { api_url: `${server.url}/v1`, api_key: 'API_KEY' },
    });

    expect(status).toBe(200);
    expect(body.reranked_documents.map((r) => r.index)).toEqual(orderBy(logits));
    for (const r of body.reranked_documents) expect(r.relevance_score).toBeCloseTo(probs[r.index] as number, 6);
  });

  it('an upstream that fails: the input order flagged as fallback (seed 004), or a 502 when fallback is off', async () => {
    const api_url = `http://127.0.0.1:${deadPort}/v1`;
    const fellBack = await rag({ rerank_strategy: 'llm_rerank', rerank_config: { api_url, api_key: 'sk-SECRET', timeout: 2 } });

    expect(fellBack.status).toBe(200);
    expect(fellBack.rag.reranked_documents.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(fellBack.rag.metadata['fallback']).toBe(true);
    expect(fellBack.headers.get('x-rerank-fallback')).toBe('input-order');
    expect(fellBack.text).not.toContain('SECRET');

    const failed = await rag({
      rerank_strategy: 'llm_rerank',
      rerank_config: { api_url, api_key: 'sk-SECRET', timeout: 2, fallback: false },
    });
    expect(failed.status).toBe(502);
    expect((failed.body['error'] as Json)['detail']).toMatch(/upstream/);
    expect(failed.text).not.toContain('SECRET');
  });

  it('answers an empty retrieved_docs with an empty list and the query, as the RFC does', async () => {
    const { status, body } = await post('/tool-runtime/rag-tool/rerank', { query: QUERY, retrieved_docs: [] });
    expect(status).toBe(200);
    expect(body).toEqual({ reranked_documents: [], metadata: { query: QUERY } });
  });

  it('4xx in the Llama Stack envelope {"error":{"detail",...}}: unknown strategy, unknown model, image query, llm_rerank without upstream, wrong method', async () => {
    for (const body of [
      { query: QUERY, retrieved_docs: DOCS, rerank_strategy: 'magic' },
      { query: QUERY, retrieved_docs: DOCS, reranker_model_id: 'LlamaRank' },
      { query: { type: 'image', image: { url: 'x' } }, retrieved_docs: DOCS },
      { query: QUERY, retrieved_docs: DOCS, rerank_strategy: 'llm_rerank' },
    ]) {
      const response = await post('/tool-runtime/rag-tool/rerank', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = response.body['error'] as Json;
      expect(typeof error['detail']).toBe('string');
      expect(error['message']).toBe(error['detail']);
    }
    const wrong = await fetch(`${server.url}/tool-runtime/rag-tool/rerank`);
    expect(wrong.status).toBe(405);
    expect(((await wrong.json()) as { error: Json }).error['detail']).toMatch(/POST/);
  });
});

describe('Llama Stack alpha: POST /v1alpha/inference/rerank', () => {
  it('answers {data:[{index, relevance_score}]} for string and text-part items, max_num_results honoured', async () => {
    const items = DOCS.map((text, i) => (i % 2 === 0 ? text : { type: 'text', text }));
    const { status, body } = await post('/v1alpha/inference/rerank', {
      model: MODEL,
      query: { type: 'text', text: QUERY },
      items,
      max_num_results: 3,
    });

    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data']);
    const data = body['data'] as Ranked[];
    expect(data.map((r) => r.index)).toEqual(orderBy(logits).slice(0, 3));
    for (const r of data) expect(r.relevance_score).toBeCloseTo(probs[r.index] as number, 6);
  });

  it('image items are a 400 in the Llama Stack envelope', async () => {
    const { status, body } = await post('/v1alpha/inference/rerank', {
      model: MODEL,
      query: QUERY,
      items: [{ type: 'image_url', image_url: { url: 'data:,' } }],
    });

    expect(status).toBe(400);
    expect((body['error'] as Json)['detail']).toMatch(/only text items/);
  });
});

describe('pipeline stage (seed 003): POST /v1/rag/rerank', () => {
  const dict = (): Json => ({
    query: QUERY,
    question: { id: 'q001', references: ['requests'] },
    references: ['requests'],
    retrieval_results: DOCS.map((text, i) => ({ text, score: 1 - i / 10, metadata: { i } })),
    retrieval_docs: DOCS,
    retrieval_time: 0.123,
    custom_my_field: { nested: [1, 2, 3] },
  });

  it('answers the same dict, every other field unchanged, plus reranking_results/docs/time', async () => {
    const sent = dict();
    const { status, body } = await post('/v1/rag/rerank', sent);

    expect(status).toBe(200);
    for (const [key, value] of Object.entries(sent)) expect(body[key]).toEqual(value);
    expect(Object.keys(body).sort()).toEqual([...Object.keys(sent), 'reranking_results', 'reranking_docs', 'reranking_time'].sort());
    const results = body['reranking_results'] as { text: string; score: number }[];
    expect(results.map((r) => r.text)).toEqual(orderBy(logits).map((i) => DOCS[i]));
    for (const r of results) expect(r.score).toBeCloseTo(probs[DOCS.indexOf(r.text)] as number, 6);
    expect(body['reranking_docs']).toEqual(results.map((r) => r.text));
    expect(typeof body['reranking_time']).toBe('number');
    expect(body['reranking_time'] as number).toBeLessThan(60);
  });

  it('prefers refining_docs over retrieval_docs, honours top_k and rerank_threshold', async () => {
    const refining = [DOCS[3] as string, DOCS[1] as string];
    const { body } = await post('/v1/rag/rerank', { ...dict(), refining_docs: refining, top_k: 1 });

    const expectedTop = (probs[1] as number) > (probs[3] as number) ? DOCS[1] : DOCS[3];
    expect(body['reranking_docs']).toEqual([expectedTop]);
    expect(body['refining_docs']).toEqual(refining);

    const none = await post('/v1/rag/rerank', { ...dict(), rerank_threshold: 2 });
    expect(none.body['reranking_docs']).toEqual([]);
  });

  it('a malformed dict is a 400 in the OpenAI envelope', async () => {
    const { status, body } = await post('/v1/rag/rerank', { query: QUERY, retrieval_docs: 'not a list' });

    expect(status).toBe(400);
    expect(body['error']).toMatchObject({ param: 'retrieval_docs', type: 'invalid_request_error' });
  });
});

describe('Cohere v2: POST /v2/rerank', () => {
  it('answers {id, results, meta} with the model ranking', async () => {
    const { status, body } = await post('/v2/rerank', { model: MODEL, query: QUERY, documents: DOCS, top_n: 4 });

    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['id', 'meta', 'results']);
    const results = body['results'] as (Ranked & { document?: unknown })[];
    expect(results.map((r) => r.index)).toEqual(orderBy(logits).slice(0, 4));
    for (const r of results) expect(r.relevance_score).toBeCloseTo(probs[r.index] as number, 6);
    expect(results.every((r) => !('document' in r))).toBe(true);
    expect(body['meta']).toEqual({ api_version: { version: '2' }, billed_units: { search_units: 1 } });
  });

  it("max_tokens_per_doc scores each document's first tokens of the model's tokenizer; return_documents returns the full text", async () => {
    const { body } = await post('/v2/rerank', { query: QUERY, documents: DOCS, max_tokens_per_doc: 3, return_documents: true });
    const expected = (await scorer.score(QUERY, DOCS, { maxDocumentTokens: 3 })).scores.map(sigmoid);
    expect(expected).not.toEqual((await scorer.score(QUERY, DOCS)).scores.map(sigmoid));

    const results = body['results'] as (Ranked & { document: { text: string } })[];
    for (const r of results) {
      expect(r.relevance_score).toBeCloseTo(expected[r.index] as number, 6);
      expect(r.document.text).toBe(DOCS[r.index]);
    }
  });

  it('object documents are a 400 as {message, error}', async () => {
    const { status, body } = await post('/v2/rerank', { query: QUERY, documents: [{ text: 'a' }] });

    expect(status).toBe(400);
    expect(body['message']).toMatch(/strings only/);
    expect((body['error'] as Json)['message']).toBe(body['message']);
  });
});

describe('OpenAI-compatible extras (Cohere v1): rank_fields and max_chunks_per_doc', () => {
  it('rank_fields: objects scored as their `field: value` lines, returned as sent', async () => {
    const documents = DOCS.map((text, i) => ({ title: `doc ${i}`, body: text, id: i }));
    const { status, body } = await post('/v1/rerank', { query: QUERY, documents, rank_fields: ['title', 'body'], return_documents: true });
    const serialized = documents.map((d) => `title: ${d.title}\nbody: ${d.body}`);
    const expected = (await scorer.score(QUERY, serialized)).scores.map(sigmoid);

    expect(status).toBe(200);
    const results = body['results'] as (Ranked & { document: Json })[];
    expect(results.map((r) => r.index)).toEqual(orderBy(expected));
    for (const r of results) {
      expect(r.relevance_score).toBeCloseTo(expected[r.index] as number, 6);
      expect(r.document).toEqual(documents[r.index]);
    }
  });

  it('rank_fields naming a field a document lacks is a 400 naming it', async () => {
    const { status, body } = await post('/v1/rerank', { query: QUERY, documents: [{ title: 'a' }], rank_fields: ['title', 'body'] });

    expect(status).toBe(400);
    expect(body['error']).toMatchObject({ param: 'documents[0].body' });
  });

  it('max_chunks_per_doc: a long document scores as its best chunk', async () => {
    const filler = Array.from({ length: 320 }, (_, i) => `word${i % 17}`).join(' ');
    const long = `${filler} ${DOCS[1] as string}`;
    const documents = [long, DOCS[3] as string];
    const { status, body } = await post('/v1/rerank', { query: QUERY, documents, max_chunks_per_doc: 2 });
    const split = splitLongDocuments(documents, 2);
    expect(split.texts).toHaveLength(3);
    const expected = maxPerOwner((await scorer.score(QUERY, split.texts)).scores, split.owner, documents.length).map(sigmoid);

    expect(status).toBe(200);
    for (const r of body['results'] as Ranked[]) expect(r.relevance_score).toBeCloseTo(expected[r.index] as number, 6);
    // Scored whole, the model's 512-token window would never see the relevant tail.
    const whole = sigmoid((await scorer.score(QUERY, [long])).scores[0] as number);
    expect(Math.abs(whole - (expected[0] as number))).toBeGreaterThan(1e-4);
  });
});
