import { Ajv } from 'ajv';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dialect, DialectName } from '../../shared/dialects/dialect.js';
import { DIALECTS } from '../../shared/dialects/dialects.js';
import { REQUEST_EXAMPLES } from '../../shared/dialects/request-examples.js';
import { API_ROUTES } from '../../shared/http/api-routes.js';
import { apiGatewayEvent } from '../support/event-factory.js';
import { loadInProcessApi, type InProcessApi } from './support/in-process-api.js';
import { propertyParams, propertyTimeoutMs } from './support/property-params.js';

// Every dialect in DIALECTS, on every route that serves it, from its own published example: the example with one
// value anywhere in it replaced by arbitrary JSON (or removed). Whatever the body, the answer is a client status in
// one of the path's declared error shapes, or a success in one of its declared reply shapes - never a 5xx. Bodies are
// derived from the dialects' declarations, so a new dialect is covered by being listed.
const RUNS_PER_ROUTE = 60;
const ajv = new Ajv({ strict: false, allErrors: true });
let api: InProcessApi;

beforeAll(async () => {
  api = await loadInProcessApi();
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];
const REMOVE = Symbol('remove');

/** Every path to a value inside `value` (not the root). */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...pathsOf(item, [...prefix, i])]);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  return [];
}

/** `value` with the value at `path` replaced (or removed). */
function replaced(value: Json, path: Path, replacement: Json | typeof REMOVE): Json {
  const copy = structuredClone(value);
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[key]!;
  const last = path.at(-1)!;
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Record<string, Json>)[last as string];
  } else (parent as Record<string | number, Json>)[last] = replacement;
  return copy;
}

/** The rerank routes serving a dialect, each with every dialect that may answer on it (TEI beside OpenAI on /rerank). */
const routesFor = (name: DialectName): { path: string; answering: Dialect[] }[] =>
  API_ROUTES.flatMap((route) => {
    if (route.method !== 'POST' || route.action.kind !== 'rerank') return [];
    const answering = [route.action.dialect, ...[...(route.action.byBody ?? []), ...(route.action.byHeaders ?? [])].map((b) => b.dialect)];
    return answering.some((d) => d.name === name) ? [{ path: route.path, answering: [...answering, route.errorDialect] }] : [];
  });

const CLIENT_STATUSES = new Set([200, 202, 400, 401, 404, 413, 415, 422, 424, 429]);

describe.each(Object.keys(DIALECTS) as DialectName[])('%s: its published example, mutated anywhere', (name) => {
  const example = REQUEST_EXAMPLES[name] as unknown as Json;
  const paths = pathsOf(example);
  const mutation = fc.tuple(
    fc.nat(paths.length - 1),
    fc.oneof({ weight: 4, arbitrary: fc.jsonValue() as fc.Arbitrary<Json> }, { weight: 1, arbitrary: fc.constant(REMOVE) }),
  );

  it.each(routesFor(name))(
    'on $path: a client status in a declared shape, never a 5xx',
    async ({ path, answering }) => {
      await fc.assert(
        fc.asyncProperty(mutation, async ([at, value]) => {
          const body = replaced(example, paths[at]!, value);
          const headers = { ...DIALECTS[name].exampleHeaders };
          const result = await api.app.handle(apiGatewayEvent({ method: 'POST', path, body: JSON.stringify(body), headers }));
          const status = result.statusCode ?? 200;
          const jobStillRunning = status === 504 && String(result.headers?.['location'] ?? '').includes('/v1/rerank/jobs/');
          expect(CLIENT_STATUSES.has(status) || jobStillRunning, `status ${status}: ${result.body?.slice(0, 500)}`).toBe(true);
          if (status === 202 || jobStillRunning || String(result.headers?.['content-type']).startsWith('text/event-stream')) return;
          const reply: unknown = JSON.parse(result.body as string);
          const schemas = answering.map((d) => (status >= 400 ? d.errorSchema : d.responseSchema));
          expect(
            schemas.some((schema) => ajv.validate(schema, reply)),
            `${status} in none of the declared shapes: ${result.body?.slice(0, 500)}`,
          ).toBe(true);
        }),
        propertyParams(RUNS_PER_ROUTE),
      );
    },
    propertyTimeoutMs(),
  );
});
