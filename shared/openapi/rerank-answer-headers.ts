/**
 * The `x-rerank-*` headers a rerank answer carries, declared once for every operation that sends them: a rerank's
 * 200 (answered now or from a waited-for job), a job poll's 200 (the cuts and unused controls once it succeeded) and
 * a job's 202 (the model only). Headers, so that no JSON reply gains a key a strict client would refuse; each is
 * absent when it has nothing to say.
 */

/** `query=12, 0=512, 3=512, +4 more`: the query's kept tokens, then each listed cut document's index = kept tokens. */
export const TRUNCATED_PATTERN = String.raw`^(?:(?:query=\d+|\d+=\d+)(?:, \d+=\d+)*(?:, \+\d+ more)?|\+\d+ more)$`;

/** `max_tokens_per_doc, priority`: control names as vLLM spells them, whatever the dialect's spelling. */
export const UNUSED_CONTROLS_PATTERN = String.raw`^[a-z_]+(?:, [a-z_]+)*$`;

/** A served model id (`GET /v1/models`), never an alias. */
export const MODEL_PATTERN = String.raw`^\S+$`;

const MODEL_HEADER = {
  description:
    "The served model that scored, also when the request named an alias of it (SDKs hide the body's `model`). Absent when there was nothing to score.",
  schema: { type: 'string', pattern: MODEL_PATTERN, examples: ['tinybert-l2-fixture'] },
};

/** Header name -> OpenAPI header object, for a rerank answer's 200. */
export const RERANK_ANSWER_HEADERS = {
  'x-rerank-model': MODEL_HEADER,
  'x-rerank-truncated': {
    description:
      "What the model cut to the token controls or its window: the query's kept token count, then each cut document's request index = kept tokens (at most 100 documents, then `+N more`). Absent when nothing was cut.",
    schema: { type: 'string', pattern: TRUNCATED_PATTERN, examples: ['query=12, 0=512, 3=512', '0=512, 1=512, +98 more'] },
  },
  'x-rerank-unused-controls': {
    description:
      'Controls the request sent that the answering model has no use for (accepted, left out of scoring; `GET /info` lists what each model uses), comma-separated. Absent when every control sent was used.',
    schema: { type: 'string', pattern: UNUSED_CONTROLS_PATTERN, examples: ['max_tokens_per_doc, priority'] },
  },
} as const;

/** A rerank operation's 200: the ranked documents and the headers that report how they were scored. */
export const rerankAnswer = (content: Record<string, unknown>) => ({
  description: 'The documents ranked, best first.',
  headers: RERANK_ANSWER_HEADERS,
  content,
});

/** A queued job's 202: where to poll it, how often, and the model it runs on. */
export const JOB_ACCEPTED = {
  description: 'Queued as a job (still running): poll the Location.',
  headers: {
    Location: { schema: { type: 'string' }, description: 'The poll URL.' },
    'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait between polls.' },
    'x-rerank-model': MODEL_HEADER,
  },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/RerankJob' } } },
};
