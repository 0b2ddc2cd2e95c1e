import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/http/openapi-document.js';
import { blocksOf, type DocumentedBlock } from '../support/documented-commands.js';
import { runClientSnippet } from '../support/run-client-snippet.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// docs/clients.md's snippets: each TypeScript and each runnable Python one (openai, boto3) run as a reader pastes it
// against npm start; each one for a package this machine cannot install checked for shape: the request its `# sends:`
// line names must carry the snippet's own values, is sent, and the request and the answer are validated against the
// OpenAPI document, with the fields the snippet reads. Its curl runs in readme-examples.e2e.test.ts.
const ROOT = resolve(import.meta.dirname, '../..');
const PAGE = 'docs/clients.md';
const KEY = 'rk-documented-clients-0123456789';
const blocks = blocksOf(PAGE, readFileSync(join(ROOT, PAGE), 'utf8'));
const SENDS = /^# sends: POST (\S+)(?: \(([^)]*)\))? (\{.*\})$/m;
const shapeOnly = (b: DocumentedBlock): boolean => b.lang === 'python' && SENDS.test(b.text);
const runnable = blocks.filter((b) => b.lang === 'ts' || (b.lang === 'python' && !shapeOnly(b)));

type Json = Record<string, unknown>;
const doc = openApiDocument() as { paths: Record<string, Record<string, Json>>; components: Json };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addVocabulary(['x-error-hint', 'example']);
ajv.addSchema({ $id: 'openapi.json', components: doc.components });
/** A schema of the document, its local references pointed at the document added above. */
const validatorOf = (schema: unknown) =>
  ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')));

let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: KEY });
});

afterAll(async () => {
  await server?.stop();
});

/** Every string and number leaf of a body, by the key that holds it. */
function leaves(node: unknown, key = '', found: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(node)) for (const item of node) leaves(item, key, found);
  else if (typeof node === 'object' && node !== null) for (const [k, v] of Object.entries(node)) leaves(v, k, found);
  else found.push([key, node]);
  return found;
}

/** Values an SDK adds by itself (the snippet does not write them). */
const SDK_DEFAULTS = new Set(['truncate', 'truncation']);

describe(`${PAGE}: every snippet`, () => {
  it('is found: three TypeScript and two Python snippets to run, four Python ones to check for shape', () => {
    expect(blocks.filter((b) => b.lang === 'ts')).toHaveLength(3);
    expect(
      runnable
        .filter((b) => b.lang === 'python')
        .map((b) => /^(?:from|import) (\w+)/m.exec(b.text.replace(/^import (json|os)\n/gm, ''))?.[1]),
    ).toEqual(['openai', 'boto3']);
    expect(blocks.filter(shapeOnly).map((b) => /^(?:from|import) (\w+)/m.exec(b.text)?.[1])).toEqual([
      'cohere',
      'voyageai',
      'pinecone',
      'llama_index',
    ]);
  });

  for (const block of runnable) {
    it(`${PAGE}:${block.line} (${block.lang}) runs against npm start and prints each result's index and score`, async () => {
      const lines = (await runClientSnippet(block, server.url, KEY)).trim().split('\n');
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/^\d+ -?\d+(\.\d+)?(e-?\d+)?$/);
    }, 240_000);
  }

  for (const block of blocks.filter(shapeOnly)) {
    it(`${PAGE}:${block.line} (python, not installable here) sends what it names, valid both ways`, async () => {
      const [, path, header, json] = SENDS.exec(block.text) as RegExpExecArray;
      const body = JSON.parse(json as string) as Json;
      const code = block.text.replace(/^#.*$/gm, '');
      const strings = new Set([...code.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]));
      for (const [key, value] of leaves(body).filter(([k]) => !SDK_DEFAULTS.has(k))) {
        if (typeof value === 'string') expect(strings, `${key}: "${value}"`).toContain(value);
        else expect(code, `${key}=${String(value)}`).toMatch(new RegExp(`\\b${key}=${String(value)}\\b`));
      }
      const operation = doc.paths[path as string]?.['post'] as
        | {
            requestBody: { content: Record<string, { schema: unknown }> };
            responses: Record<string, { content: Record<string, { schema: unknown }> }>;
          }
        | undefined;
      expect(operation, `POST ${path} in the OpenAPI document`).toBeDefined();
      const request = validatorOf(operation?.requestBody.content['application/json']?.schema);
      expect(request(body), ajv.errorsText(request.errors)).toBe(true);

      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (header) {
        const [name, value] = header.split(': ') as [string, string];
        headers[name.toLowerCase()] = value;
        headers['api-key'] = KEY;
      } else headers['authorization'] = `Bearer ${KEY}`;
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const answer = (await res.json()) as Json;
      expect(res.status, JSON.stringify(answer)).toBe(200);
      const response = validatorOf(operation?.responses['200']?.content['application/json']?.schema);
      expect(response(answer), ajv.errorsText(response.errors)).toBe(true);

      // `for r in reply.<list>:` then `r.<field>`: each field it reads is on the answer's result objects.
      const loop = /^for (\w+) in reply\.\w+:$/m.exec(code);
      if (loop) {
        const items = Object.values(answer).find((v): v is Json[] => Array.isArray(v) && typeof v[0] === 'object') ?? [];
        const read = [...code.matchAll(new RegExp(`\\b${loop[1]}\\.(\\w+)`, 'g'))].map((m) => m[1] as string);
        expect(read.length).toBeGreaterThan(0);
        for (const field of read) expect(Object.keys(items[0] ?? {}), field).toContain(field);
      }
    });
  }
});
