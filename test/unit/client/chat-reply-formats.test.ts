import { describe, expect, it } from 'vitest';
import { RerankApiError, RerankClient, RerankResponseFormatError } from '../../../shared/client/index.js';
import { chatCompletion, fakeFetch, seedText } from './fake-fetch.js';

// Seed 001 "Rerank Results JSON String": every reply format a chat reranker may use, read from the golden files.
const DOCS = ['urllib', 'requests', 'httpx'];

function chatClient(...replies: Parameters<typeof fakeFetch>) {
  const fake = fakeFetch(...replies);
  return { client: new RerankClient({ baseUrl: 'http://rerank.test/v1', model: 'RerankService', fetch: fake.fetch }), calls: fake.calls };
}

describe('chat mode reads every reply format of seed 001', () => {
  it('format 1: {"results": [{index, score}]}', async () => {
    const { client } = chatClient({ json: chatCompletion(seedText('chat-content-results-format1-results.json')) });
    const result = await client.rerank('python http library', DOCS);
    expect(result.results).toEqual([
      [1, 0.95],
      [0, 0.8],
      [2, 0.7],
    ]);
  });

  it('format 2: {"data": [...]} with fewer results than documents', async () => {
    const { client } = chatClient({ json: chatCompletion(seedText('chat-content-results-format2-data.json')) });
    expect((await client.rerank('q', DOCS)).results).toEqual([
      [1, 0.95],
      [0, 0.8],
    ]);
  });

  it('format 3: [["document text", score]] with negative scores maps texts back to indices, less negative first', async () => {
    const { client } = chatClient({ json: chatCompletion(seedText('chat-content-results-format3-text-score.json')) });
    const result = await client.rerank('python http library', DOCS, { includeDocs: true });
    expect(result.results).toEqual([
      [2, -2.7788, 'httpx'],
      [1, -2.8233, 'requests'],
      [0, -3.2031, 'urllib'],
    ]);
  });

  it('format 4: [[index, score]]', async () => {
    const { client } = chatClient({ json: chatCompletion(seedText('chat-content-results-format4-index-score.json')) });
    expect((await client.rerank('q', DOCS)).results).toEqual([
      [1, 0.95],
      [0, 0.8],
      [2, 0.7],
    ]);
  });

  it('complete example 1: usage maps prompt/completion/total tokens', async () => {
    const { client } = chatClient({ text: seedText('chat-response-complete-example1.json') });
    const result = await client.rerank('q', DOCS);
    expect(result.results.map(([i]) => i)).toEqual([1, 0, 2]);
    expect(result.usage).toEqual({ inputTokens: 39, outputTokens: 49, totalTokens: 88 });
  });

  it('complete example 2: direct list of texts with full-precision negative logits', async () => {
    const { client } = chatClient({ text: seedText('chat-response-complete-example2.json') });
    const result = await client.rerank('python http library', DOCS);
    expect(result.results).toEqual([
      [2, -2.7788209915161133],
      [1, -2.8233261108398438],
      [0, -3.203111410140991],
    ]);
    expect(result.usage).toEqual({ totalTokens: 88 });
  });

  it('seed 000 alternatives: direct list, dict with results, dict with data', async () => {
    const docs = ['urllib is built-in', 'requests is popular', 'httpx is modern'];
    const direct = chatClient({ text: seedText('chat-response-alt-direct-list.json') }).client;
    expect((await direct.rerank('q', docs)).results).toEqual([
      [1, 0.95],
      [2, 0.85],
    ]);
    const results = chatClient({ text: seedText('chat-response-alt-dict-results.json') }).client;
    expect((await results.rerank('q', docs)).results).toEqual([
      [0, 0.95],
      [1, 0.85],
    ]);
    const data = chatClient({ text: seedText('chat-response-alt-dict-data.json') }).client;
    expect((await data.rerank('q', docs)).results).toEqual([[0, 0.95]]);
  });

  it('documents in the reply are returned as the reply states them (seed 000 unified output)', async () => {
    const { client } = chatClient({ text: seedText('chat-response-short.json') });
    const result = await client.rerank('python http library', DOCS, { includeDocs: true });
    expect(result.results).toEqual([
      [0, 0.95, 'requests'],
      [1, 0.85, 'httpx'],
    ]);
    expect(result.usage).toEqual({ totalTokens: 200 });
  });

  it('"Error: ..." content becomes a RerankApiError with the server message', async () => {
    const { client } = chatClient({ text: seedText('chat-response-error-content.json') });
    const error = await client.rerank('q', DOCS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankApiError);
    expect(error).toMatchObject({ message: 'Invalid query format', status: 200 });
  });
});

describe('chat mode copes with the looser replies of hand-written rerankers', () => {
  const reply = (content: unknown) => chatClient({ json: chatCompletion(JSON.stringify(content)) }).client;

  it('document_index / relevance_score field names, {text} documents and numeric-string scores', async () => {
    const client = reply({
      results: [
        { document_index: 0, relevance_score: '0.1' },
        { document_index: 2, relevance_score: 0.9, document: { text: 'httpx' } },
      ],
    });
    expect((await client.rerank('q', DOCS, { includeDocs: true })).results).toEqual([
      [2, 0.9, 'httpx'],
      [0, 0.1, 'urllib'],
    ]);
  });

  it('duplicate candidate texts get distinct indices, the better score going to the earlier one', async () => {
    const client = reply([
      ['same', -3],
      ['other', -1],
      ['same', -2],
    ]);
    expect((await client.rerank('q', ['same', 'other', 'same'])).results).toEqual([
      [1, -1],
      [0, -2],
      [2, -3],
    ]);
  });

  it('a repeated result keeps its best score and texts match despite whitespace differences', async () => {
    const client = reply({
      results: [
        { index: 1, score: 0.2 },
        { index: 1, score: 0.6 },
        { document: '  urllib\n', score: 0.4 },
      ],
    });
    expect((await client.rerank('q', DOCS)).results).toEqual([
      [1, 0.6],
      [0, 0.4],
    ]);
  });

  it('unsorted replies are sorted; topK and threshold apply even when the server ignored them', async () => {
    const client = reply([
      [0, -5],
      [1, 2],
      [2, -0.5],
    ]);
    expect((await client.rerank('q', DOCS, { topK: 2 })).results).toEqual([
      [1, 2],
      [2, -0.5],
    ]);
    const again = chatClient({
      json: chatCompletion(
        JSON.stringify([
          [0, -5],
          [1, 2],
          [2, -0.5],
        ]),
      ),
    }).client;
    expect((await again.rerank('q', DOCS, { threshold: -1 })).results).toEqual([
      [1, 2],
      [2, -0.5],
    ]);
  });

  it('JSON wrapped in a Markdown code fence is read', async () => {
    const { client } = chatClient({ json: chatCompletion('```json\n{"results": [{"index": 2, "score": 0.5}]}\n```') });
    expect((await client.rerank('q', DOCS)).results).toEqual([[2, 0.5]]);
  });

  it.each([
    ['a text that is not a candidate', [['lxml', 0.5]], /not among the candidates/],
    ['an index out of range', [[3, 0.5]], /index 3 but only 3 documents/],
    ['a result without a score', { results: [{ index: 0 }] }, /no numeric score/],
    ['no results list', { answer: 'httpx' }, /no list of results/],
  ])('%s makes a RerankResponseFormatError', async (_name, content, message) => {
    const error = await reply(content)
      .rerank('q', DOCS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankResponseFormatError);
    expect((error as Error).message).toMatch(message);
  });

  it('content that is not JSON makes a RerankResponseFormatError', async () => {
    const { client } = chatClient({ json: chatCompletion('httpx is best') });
    await expect(client.rerank('q', DOCS)).rejects.toThrow(RerankResponseFormatError);
  });
});
