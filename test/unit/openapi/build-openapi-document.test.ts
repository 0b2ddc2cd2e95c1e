import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../../shared/dialects/dialect.js';
import { API_ROUTES } from '../../../shared/http/api-routes.js';
import { buildOpenApiDocument } from '../../../shared/openapi/build-openapi-document.js';
import { openApiDocument } from '../../../shared/http/openapi-document.js';
import { truncatedHeader } from '../../../shared/core/request-controls.js';
import { RERANK_ANSWER_HEADERS, TRUNCATED_PATTERN, UNUSED_CONTROLS_PATTERN } from '../../../shared/openapi/rerank-answer-headers.js';

type Json = Record<string, unknown>;

const doc = buildOpenApiDocument(API_ROUTES) as Json;
const paths = doc['paths'] as Record<string, Record<string, Json>>;
const components = doc['components'] as { schemas: Record<string, unknown>; securitySchemes: Record<string, Json> };

/** Resolves a local `$ref` (`#/components/schemas/X`) as a JSON pointer into the document. */
function resolve(ref: string): unknown {
  expect(ref.startsWith('#/'), ref).toBe(true);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Json)[key] : undefined), doc);
}

/** Every `$ref` string in the document. */
function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

const operationOf = (method: string, path: string): Json => {
  const op = paths[path]?.[method.toLowerCase()];
  expect(op, `${method} ${path}`).toBeDefined();
  return op as Json;
};

const schemaRefOf = (content: unknown): string => ((content as Json)['application/json'] as { schema: { $ref: string } }).schema.$ref;
/** Every schema ref of a body: one, or the alternatives of a path that serves dialects told apart by the body. */
const schemaRefsOf = (content: unknown): string[] => {
  const schema = ((content as Json)['application/json'] as { schema: { $ref?: string; anyOf?: { $ref: string }[] } }).schema;
  return schema.anyOf ? schema.anyOf.map((s) => s.$ref) : [schema.$ref as string];
};

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, a relative server and bearer auth', () => {
    expect(doc['openapi']).toBe('3.1.0');
    expect(doc['info']).toMatchObject({ title: 'rerank-service', version: expect.any(String), description: expect.any(String) });
    expect(doc['servers']).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc['security']).toEqual([{ bearerAuth: [] }]);
    expect(components.securitySchemes['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has exactly one operation per route, each with a unique operationId and described responses', () => {
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(API_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const ids = API_ROUTES.map((r) => operationOf(r.method, r.path)['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of API_ROUTES) {
      const responses = operationOf(route.method, route.path)['responses'] as Record<string, Json>;
      expect(Object.keys(responses).length, `${route.method} ${route.path}`).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(responses)) {
        expect(status).toMatch(/^[1-5](\d\d|XX)$/);
        expect(typeof response['description']).toBe('string');
      }
    }
  });

  it('resolves every $ref', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolve(ref), ref).toBeDefined();
  });

  it('declares every path template parameter', () => {
    for (const route of API_ROUTES) {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = ((operationOf(route.method, route.path)['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path');
      expect(declared.map((p) => p['name'])).toEqual(names);
      for (const p of declared) expect(p['required']).toBe(true);
    }
  });

  it("rerank routes: the request body is the dialect's own validating schema, errors are the route's envelope", () => {
    for (const route of API_ROUTES) {
      const op = operationOf(route.method, route.path);
      const responses = op['responses'] as Record<string, Json>;
      const byBody: Dialect[] =
        route.action.kind === 'rerank'
          ? [...new Set([...(route.action.byBody ?? []), ...(route.action.byHeaders ?? [])].map((alternative) => alternative.dialect))]
          : [];
      const error = responses['400'] ?? responses['401'];
      if (error) expect(schemaRefsOf(error['content']).map(resolve)).toEqual([route.errorDialect, ...byBody].map((d) => d.errorSchema));
      if (route.action.kind === 'files' || route.action.kind === 'batches') {
        // OpenAI's Files/Uploads/Batches bodies: multipart for files and parts, JSON for uploads and batch create, none for reads and cancels.
        const takesBody = route.method === 'POST' && !route.path.endsWith('/cancel');
        expect(op['requestBody'] === undefined, `${route.method} ${route.path}`).toBe(!takesBody);
        continue;
      }
      if (route.action.kind !== 'rerank' && route.action.kind !== 'submit-job') {
        expect(op['requestBody']).toBeUndefined();
        continue;
      }
      const dialect: Dialect = route.action.dialect;
      const body = op['requestBody'] as Json;
      expect(body['required']).toBe(true);
      expect(schemaRefsOf(body['content']).map(resolve)).toEqual([dialect, ...byBody].map((d) => d.requestSchema));
      if (route.action.kind === 'rerank') {
        expect(schemaRefsOf(responses['200']?.['content']).map(resolve)).toEqual([dialect, ...byBody].map((d) => d.responseSchema));
        expect('202' in responses).toBe(dialect.queueable !== false);
      } else {
        expect(Object.keys(responses)).toContain('202');
      }
    }
  });

  it("job routes answer the job view; the index, health (and Weaviate's readiness), the document and its docs page are public, everything else needs the key", () => {
    for (const method of ['GET', 'DELETE']) {
      const responses = operationOf(method, '/v1/rerank/jobs/{id}')['responses'] as Record<string, Json>;
      expect(schemaRefOf(responses['200']?.['content'])).toBe('#/components/schemas/RerankJob');
      expect(Object.keys(responses)).toContain('404');
    }
    for (const route of API_ROUTES) {
      const security = operationOf(route.method, route.path)['security'];
      if (route.public) expect(security).toEqual([]);
      else expect(security).toBeUndefined();
    }
    // Weaviate's readiness probe is a health check under its prefix.
    expect(
      API_ROUTES.filter((r) => r.public)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/', '/docs', '/docs/{asset}', '/health', '/openapi.json', '/weaviate/.well-known/ready']);
  });

  it("declares the x-rerank-* answer headers from one definition on every rerank and job 200, the model on a job's 202", () => {
    for (const route of API_ROUTES) {
      const responses = operationOf(route.method, route.path)['responses'] as Record<string, Json>;
      const answers = ['rerank', 'get-job', 'cancel-job'].includes(route.action.kind);
      expect(responses['200']?.['headers'], `${route.method} ${route.path}`).toBe(answers ? RERANK_ANSWER_HEADERS : undefined);
      if (responses['202']) expect((responses['202']['headers'] as Json)['x-rerank-model']).toBe(RERANK_ANSWER_HEADERS['x-rerank-model']);
    }
    // Every form the header is written in matches its declared pattern; a malformed value does not.
    const cuts = [
      { query: 12, documents: [] },
      { query: 12, documents: [[0, 512] as const, [3, 512] as const] },
      { documents: Array.from({ length: 105 }, (_, i) => [i, 7] as const) },
      { documents: [], more: 4 },
      { query: 2, documents: [], more: 4 },
    ];
    for (const cut of cuts) expect(truncatedHeader(cut)).toMatch(new RegExp(TRUNCATED_PATTERN, 'u'));
    for (const bad of ['', 'query=1, ', '+1 more, 0=3', 'query=x']) expect(bad).not.toMatch(new RegExp(TRUNCATED_PATTERN, 'u'));
    expect('max_tokens_per_doc, priority').toMatch(new RegExp(UNUSED_CONTROLS_PATTERN, 'u'));
  });

  it('declares the Batches create body and a ready example for it and for every Files and Uploads body', () => {
    const create = operationOf('POST', '/v1/batches')['requestBody'] as {
      required: boolean;
      content: Record<string, { schema: Json; examples: Record<string, { value: Json }> }>;
    };
    expect(create.required).toBe(true);
    const { schema, examples } = create.content['application/json']!;
    expect(schema['required']).toEqual(['input_file_id', 'endpoint', 'completion_window']);
    // endpoint: exactly the routes a batch line may name, the rerank routes that can run as jobs.
    const endpoints = (schema['properties'] as Record<string, { enum: string[] }>)['endpoint']!.enum;
    expect(endpoints).toEqual(
      expect.arrayContaining(['/v1/rerank', '/rerank', '/v2/rerank', '/api/v1/services/rerank/text-rerank/text-rerank']),
    );
    expect(endpoints).not.toContain('/v1/rerank/jobs');
    expect(endpoints.filter((e) => e.includes('{'))).toEqual([]);
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(Object.keys(examples)).not.toHaveLength(0);
    for (const example of Object.values(examples)) expect(validate(example.value), JSON.stringify(validate.errors)).toBe(true);

    for (const path of ['/v1/uploads', '/v1/uploads/{id}/complete']) {
      const body = operationOf('POST', path)['requestBody'] as {
        content: Record<string, { schema: Json; examples: Record<string, { value: unknown }> }>;
      };
      const json = body.content['application/json']!;
      const check = new Ajv({ strict: false }).compile(json.schema);
      expect(Object.keys(json.examples), path).not.toHaveLength(0);
      for (const example of Object.values(json.examples))
        expect(check(example.value), `${path} ${JSON.stringify(check.errors)}`).toBe(true);
    }
    for (const [path, field] of [
      ['/v1/files', 'file'],
      ['/v1/uploads/{id}/parts', 'data'],
    ] as const) {
      const form = (
        operationOf('POST', path)['requestBody'] as { content: Record<string, { schema: { required: string[] }; example: Json }> }
      ).content['multipart/form-data']!;
      expect(form.schema.required, path).toContain(field);
      expect(form.example, path).toBeDefined();
    }
  });

  it('is built once and served with the API Gateway stage as its server', () => {
    expect(openApiDocument()).toBe(openApiDocument());
    expect(openApiDocument('/prod')['servers']).toEqual([expect.objectContaining({ url: '/prod' })]);
    expect(openApiDocument('/prod')['paths']).toBe(openApiDocument()['paths']);
    expect(JSON.parse(JSON.stringify(openApiDocument()))).toEqual(openApiDocument());
  });
});

describe('/docs sections: start here, then one per dialect, none empty', () => {
  const operations = Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ path, method, tags: (op['tags'] ?? []) as string[], op })),
  );

  it('lists "start here" first, holding POST /v1/rerank alone', () => {
    const tags = (doc['tags'] as { name: string }[]).map((t) => t.name);
    expect(tags[0]).toBe('start here');
    expect(operations.filter((o) => o.tags.includes('start here')).map((o) => `${o.method} ${o.path}`)).toEqual(['post /v1/rerank']);
  });

  it('gives every tag at least one operation: tei, bedrock and pinecone are under their own tag on /rerank', () => {
    for (const { name } of doc['tags'] as { name: string }[])
      expect(
        operations.some((o) => o.tags.includes(name)),
        name,
      ).toBe(true);
    const shared = operations.find((o) => o.path === '/rerank' && o.method === 'post');
    expect(shared?.tags).toEqual(expect.arrayContaining(['openai', 'tei', 'bedrock', 'pinecone']));
    const examples = (shared?.op['requestBody'] as { content: Record<string, { examples: Record<string, unknown> }> }).content[
      'application/json'
    ]?.examples;
    expect(Object.keys(examples ?? {})).toEqual(expect.arrayContaining(['openai', 'tei', 'bedrock', 'pinecone']));
  });
});
