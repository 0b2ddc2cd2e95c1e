import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { extractCorpusReference } from '../../../shared/batches/corpus-reference.js';
import type { JsonSchema } from '../../../shared/dialects/json-schema.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { readDialectRequest } from '../../../shared/dialects/read-dialect-request.js';

const LIMITS = { maxDocuments: 1000, maxBatchSize: 100 };

/** The schema fragment at a body path, through nested `properties`. */
const schemaAt = (schema: JsonSchema, path: readonly string[]): JsonSchema | undefined =>
  path.reduce<JsonSchema | undefined>((node, key) => node?.properties?.[key], schema);

/** `value` placed at `path` in `body` (a copy). */
function placeAt(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...body, [head]: value };
  return { ...body, [head]: placeAt((body[head] ?? {}) as Record<string, unknown>, rest, value) };
}

function withoutAt(body: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  const copy = { ...body };
  if (rest.length === 0) delete copy[head];
  else copy[head] = withoutAt(copy[head] as Record<string, unknown>, rest);
  return copy;
}

const corpusDialects = Object.values(DIALECTS).filter((dialect) => dialect.corpus !== undefined);

describe('documents_file_id is a declared wire field', () => {
  it('is declared by the dialects whose batch lines may name a corpus, beside their documents', () => {
    expect(corpusDialects.map((d) => d.name).sort()).toStrictEqual(['cohere-v2', 'dashscope', 'llama-stack', 'openai', 'voyage']);
    for (const dialect of corpusDialects) {
      const { fileIdPath, documentsPath } = dialect.corpus!;
      expect(fileIdPath.at(-1)).toBe('documents_file_id');
      expect(fileIdPath.slice(0, -1)).toStrictEqual(documentsPath.slice(0, -1));
      // Published in the dialect's schema (and so /openapi.json) from the same declaration the admission reads.
      expect(schemaAt(dialect.requestSchema, fileIdPath)?.type).toStrictEqual(['string', 'null']);
    }
  });

  it.each(corpusDialects.map((d) => [d.name, d] as const))(
    '%s: a batch line body is swapped for its example with a placeholder; a route refuses it',
    (_name, dialect) => {
      const { fileIdPath, documentsPath } = dialect.corpus!;
      const line = placeAt(withoutAt(dialect.example, documentsPath), fileIdPath, 'file-abc');
      const extracted = extractCorpusReference(dialect, line);
      expect(extracted?.fileId).toBe('file-abc');
      expect(readDialectRequest(dialect, extracted?.body, LIMITS).documents).toHaveLength(1);
      const param = fileIdPath.join('.');
      let refusal: unknown;
      try {
        readDialectRequest(dialect, placeAt(dialect.example, fileIdPath, 'file-abc'), LIMITS);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(RerankError);
      expect(refusal).toMatchObject({ kind: 'invalid_request', param });
      // null is absent, as for every optional field.
      expect(readDialectRequest(dialect, placeAt(dialect.example, fileIdPath, null), LIMITS).documents.length).toBeGreaterThan(0);
    },
  );

  it('a dialect that declares no corpus refuses the field on a batch line, naming it', () => {
    expect(() => extractCorpusReference(DIALECTS['rag-tool'], { query: 'q', documents_file_id: 'file-abc' })).toThrow(
      /documents_file_id is not supported on this route/,
    );
  });
});
