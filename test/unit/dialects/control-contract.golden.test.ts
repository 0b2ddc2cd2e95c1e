import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlsOf } from '../../../shared/core/control-options.js';
import { RerankError } from '../../../shared/core/rerank-error.js';
import type { RerankRequest, UpstreamReranker } from '../../../shared/core/rerank-request.js';
import { FAMILY_CONTROLS, REQUEST_CONTROLS, type ModelFamily, type RequestControl } from '../../../shared/core/request-controls.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { CONTROL_FIELDS, controlSpellings, type SurfaceControl } from '../../../shared/dialects/control-spellings.js';
import type { Dialect } from '../../../shared/dialects/dialect.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import type { JsonSchema } from '../../../shared/dialects/json-schema.js';
import { readDialectRequest } from '../../../shared/dialects/read-dialect-request.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { loadFolderScorer } from '../../../shared/scoring/load-folder-scorer.js';
import { testRuntime, type TestRuntime } from '../../support/test-runtime.js';
import { familyFolder, LLM_RERANKER_FIXTURE } from '../scoring/family-fixtures.js';

// docs/api.md's control tables, walked with real models. The dialect table: each control in each dialect's spelling
// (read off its declaration) gives the scores, within 1e-6, of the domain request with that control, on the LLM
// reranker (it uses every model control); a dialect without a spelling never reads vLLM's. The family table: each
// family's scorer declares what FAMILY_CONTROLS says, a used control changes its scores and an unused one does not
// and is reported.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const FOLDERS: Partial<Record<ModelFamily, string>> = {
  'cross-encoder': path.join(ROOT, 'models/tinybert-l2-fixture'),
  'bi-encoder': path.join(ROOT, 'models/use-lite'),
  'llm-reranker': familyFolder(LLM_RERANKER_FIXTURE),
};
let scorers: Scorer[];
let rt: TestRuntime;
// The upstream family: a real HTTP server answering the OpenAI-compatible rerank body (what the RAG tool's external
// provider speaks), scoring each document by the query words it holds, so a document cut before it is sent scores
// differently.
let upstreamServer: Server;
let upstream: UpstreamReranker;

/** `POST /v1/rerank` {query, documents} -> {results: [{index, relevance_score}], usage}, as a Jina / Cohere v1 API answers. */
function startUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { query, documents } = JSON.parse(body) as { query: string; documents: (string | { text: string })[] };
      const words = new Set(query.toLowerCase().split(/\s+/));
      const results = documents.map((document, index) => {
        const text = typeof document === 'string' ? document : document.text;
        const held = text
          .toLowerCase()
          .split(/\s+/)
          .filter((word) => words.has(word)).length;
        return { index, relevance_score: held + text.length / 1000 };
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results, usage: { total_tokens: results.length } }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  const loaded = await Promise.all(
    Object.entries(FOLDERS).map(([id, folder]) => loadFolderScorer({ id, folder, threads: 1, measurePaceAtLoad: false })),
  );
  scorers = [...loaded, createBm25Scorer({ id: 'lexical' })];
  upstreamServer = await startUpstream();
  const host = `127.0.0.1:${(upstreamServer.address() as { port: number }).port}`;
  upstream = { apiUrl: `http://${host}/v1`, apiKey: undefined, mode: 'openai', model: 'upstream-reranker', timeoutMs: 10_000 };
  rt = testRuntime({ scorers, limits: { maxDocumentChars: 100_000 }, upstreamAllowedHosts: [host] });
});

afterAll(async () => {
  await Promise.all(scorers.map((s) => s.close?.()));
  await new Promise<void>((resolve) => upstreamServer.close(() => resolve()));
});

/** The request scored by a family: by its served model, or (upstream) by the upstream API the request names. */
const onFamily = (request: RerankRequest, family: string): RerankRequest =>
  family === 'upstream' ? { ...request, model: undefined, upstream } : { ...request, model: family };

const LIMITS = { maxDocuments: 100, maxBatchSize: 10 };

/** Each control's value in the domain request, and as the wire sends it (a truncation side in each case its enum has). */
const INSTRUCTION = 'Judge whether the document is about cooking; programming documents are irrelevant.';
const DOMAIN_VALUES: Readonly<Record<Exclude<SurfaceControl, 'metadata'>, unknown>> = {
  instruction: INSTRUCTION,
  max_tokens_per_doc: 2,
  max_tokens_per_query: 1,
  truncation_side: 'left',
  latency: 'fast',
  priority: 3,
};
const metadataFor = (count: number) => Array.from({ length: count }, (_, i) => (i === 1 ? '' : `Source: cookbook ${i}`));

/** The values a wire field takes for `value`: every spelling of its enum that means it (`left`, `Left`), else the value. */
function wireValues(dialect: Dialect, spelling: string, value: unknown): unknown[] {
  const schema = dialect.requestSchema.properties?.[spelling] as JsonSchema | undefined;
  const spelled = (schema?.enum ?? []).filter((e) => typeof e === 'string' && e.toLowerCase() === value);
  return spelled.length > 0 ? spelled : [value];
}

/** The dialect's example with `value` at the dotted `spelling` (inside the chat message's JSON content for chat). */
function withControl(dialect: Dialect, spelling: string, value: unknown): unknown {
  const body = structuredClone(dialect.example) as Record<string, unknown>;
  const set = (target: Record<string, unknown>) => {
    const keys = spelling.split('.');
    let at = target;
    for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
    at[keys[keys.length - 1] as string] = value;
  };
  if (dialect.name !== 'chat') {
    set(body);
    return body;
  }
  const message = (body['messages'] as { content: string }[])[0]!;
  const content = JSON.parse(message.content) as Record<string, unknown>;
  set(content);
  message.content = JSON.stringify(content);
  return body;
}

/** The domain request with the control set as RerankRequest carries it. */
function domainWith(base: RerankRequest, control: SurfaceControl, metadata: string[]): RerankRequest {
  if (control === 'metadata')
    return { ...base, documents: base.documents.map((d, i) => (metadata[i] ? { ...d, metadata: metadata[i] } : d)) };
  return { ...base, [CONTROL_FIELDS[control]]: DOMAIN_VALUES[control] };
}

const rawScores = async (request: RerankRequest, family: string) =>
  (await rt.service.rerank({ ...onFamily(request, family), topN: undefined, threshold: undefined })).rawScores ?? [];

const expectClose = (actual: readonly number[], expected: readonly number[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((score, i) => expect(Math.abs(score - expected[i]!)).toBeLessThan(1e-6));
};

const cells = controlSpellings().flatMap(({ dialect, spellings }) =>
  (Object.entries(spellings) as [SurfaceControl, string | undefined][]).map(([control, spelling]) => ({ dialect, control, spelling })),
);

describe('the dialect x control table', () => {
  it.each(cells.filter((c) => c.spelling !== undefined).map((c) => [c.dialect, c.control, c] as const))(
    '%s spells %s: the same scores as the domain request with it',
    async (_name, _control, { dialect: name, control, spelling }) => {
      const dialect = DIALECTS[name];
      const base = readDialectRequest(dialect, dialect.example, LIMITS);
      const metadata = metadataFor(base.documents.length);
      const domain = domainWith(base, control, metadata);
      const expected = await rawScores(domain, 'llm-reranker');
      const value = control === 'metadata' ? metadata : DOMAIN_VALUES[control];
      for (const wire of wireValues(dialect, spelling!, value)) {
        const request = readDialectRequest(dialect, withControl(dialect, spelling!, wire), LIMITS);
        expectClose(await rawScores(request, 'llm-reranker'), expected);
      }
      // The instruction, the caps and metadata change what this model reads; priority and latency change nothing.
      const without = await rawScores(base, 'llm-reranker');
      if (['instruction', 'metadata', 'max_tokens_per_doc', 'max_tokens_per_query'].includes(control))
        expect(expected.some((score, i) => Math.abs(score - without[i]!) > 1e-6)).toBe(true);
      if (control === 'priority' || control === 'latency') expectClose(expected, without);
    },
  );

  it.each(cells.filter((c) => c.spelling === undefined).map((c) => [c.dialect, c.control, c] as const))(
    "%s cannot express %s: vLLM's spelling of it is not read there",
    (_name, _control, { dialect: name, control }) => {
      const dialect = DIALECTS[name];
      const base = readDialectRequest(dialect, dialect.example, LIMITS);
      const value = control === 'metadata' ? metadataFor(base.documents.length) : DOMAIN_VALUES[control];
      let request: RerankRequest;
      try {
        request = readDialectRequest(dialect, withControl(dialect, control, value), LIMITS);
      } catch (error) {
        expect(error).toBeInstanceOf(RerankError);
        return;
      }
      // The pipeline dialect echoes its whole body back: the rest of the request is what the example alone gives.
      expect({ ...request, echo: undefined }).toEqual({ ...base, echo: undefined });
    },
  );
});

describe('the model family x control table', () => {
  const families = Object.keys(FOLDERS).concat('lexical', 'upstream') as ModelFamily[];
  it.each(families)('%s: declares its controls; a used one changes its scores, an unused one does not and is reported', async (family) => {
    const scorer = family === 'upstream' ? rt.service.scorerFor({ upstream } as RerankRequest) : scorers.find((s) => s.id === family)!;
    expect(controlsOf(scorer)).toEqual(FAMILY_CONTROLS[family]);
    const long = 'the river flows past the old mill into the valley where the farmers gather for the harvest fair';
    const base = {
      ...readDialectRequest(
        DIALECTS.openai,
        { query: 'harvest fair in the valley', documents: [`cheese ${long}`, `quantum ${long}`] },
        LIMITS,
      ),
    };
    const without = await rawScores(base, family);
    // Scored for real (an upstream that did not answer would leave NaN, which no comparison could tell apart).
    expect(without.every(Number.isFinite)).toBe(true);
    const controls: RequestControl[] = [...REQUEST_CONTROLS, 'priority'];
    for (const control of controls) {
      // A side only shows beside a cap: both sides are sent with max_tokens_per_doc 4, and compared with each other.
      const request =
        control === 'truncation_side'
          ? { ...base, maxTokensPerDocument: 4, truncationSide: 'left' as const }
          : domainWith(base, control as SurfaceControl, []);
      const compared = control === 'truncation_side' ? await rawScores({ ...base, maxTokensPerDocument: 4 }, family) : without;
      const outcome = await rt.service.rerank(onFamily(request, family));
      const changed = (outcome.rawScores ?? []).some((score, i) => Math.abs(score - compared[i]!) > 1e-6);
      const used = FAMILY_CONTROLS[family].includes(control);
      expect([control, changed]).toEqual([control, used]);
      expect([control, outcome.unusedControls?.includes(control) ?? false]).toEqual([control, !used]);
    }
  });
});
