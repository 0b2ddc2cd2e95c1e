import type { Dialect } from '../dialects/dialect.js';

/** The tag of the one operation a newcomer should try first; listed first, so /docs shows it at the top. */
export const START_HERE_TAG = 'start here';

/** The operation under START_HERE_TAG: the OpenAI/Jina/Cohere-style rerank, the body most clients send. */
export const START_HERE_PATH = '/v1/rerank';

const START_HERE_DESCRIPTION =
  'One rerank call: `POST /v1/rerank` with `{query, documents, top_n}`; "Try it out" sends the example. Every other dialect has its own section below.';

/**
 * A rerank operation's tags: every dialect its path serves (a path told apart by body or headers appears in each
 * dialect's section, with that dialect's named example), and START_HERE_TAG on the first operation to try.
 */
export const rerankTags = (path: string, method: string, dialects: readonly Dialect[]): string[] => [
  ...(path === START_HERE_PATH && method === 'POST' ? [START_HERE_TAG] : []),
  ...dialects.map((d) => d.name),
];

/** The document's tags in the order /docs shows them: start here, the dialects, then the rest. */
export const documentTags = (dialects: readonly Dialect[]): { name: string; description: string }[] => [
  { name: START_HERE_TAG, description: START_HERE_DESCRIPTION },
  ...dialects.map((d) => ({ name: d.name, description: `The ${d.name} dialect` })),
  { name: 'jobs', description: 'Queued rerank jobs' },
  { name: 'files', description: 'Files and uploads (OpenAI Files/Uploads APIs): batch inputs, corpora and results' },
  { name: 'batches', description: 'Batches (OpenAI Batches API): many rerank requests from one uploaded JSONL file' },
  { name: 'service', description: 'Models, health and this document' },
];
