import type { DialectName } from './dialect.js';

/**
 * One ready-to-send body per dialect, published as the OpenAPI request examples (what `/docs` "Try it
 * out" pre-fills) and sent to a real server by the tests: every example must be answered 200.
 */
const QUERY = 'python http library';
const DOCUMENTS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'Bamboo forests grow quickly in warm climates',
];

export const REQUEST_EXAMPLES = {
  openai: { query: QUERY, documents: DOCUMENTS, top_n: 2, return_documents: true },
  dashscope: { input: { query: QUERY, documents: DOCUMENTS }, parameters: { top_n: 2, return_documents: true } },
  chat: { messages: [{ role: 'user', content: JSON.stringify({ query: QUERY, candidates: DOCUMENTS, top_k: 2 }) }] },
  'rag-tool': { query: QUERY, retrieved_docs: DOCUMENTS.map((text) => ({ content: text })), top_k: 2, rerank_strategy: 'default' },
  'llama-stack': { query: QUERY, items: DOCUMENTS, max_num_results: 2 },
  pipeline: { query: QUERY, retrieval_docs: DOCUMENTS, top_k: 2 },
  'cohere-v2': { query: QUERY, documents: DOCUMENTS, top_n: 2 },
  voyage: { query: QUERY, documents: DOCUMENTS, top_k: 2, return_documents: true },
  tei: { query: QUERY, texts: DOCUMENTS, return_text: true },
} as const satisfies Record<DialectName, Readonly<Record<string, unknown>>>;
