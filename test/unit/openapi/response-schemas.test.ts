import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { API_ROUTES } from '../../../shared/http/api-routes.js';
import { jobView } from '../../../shared/http/job-view.js';
import type { JobRecord } from '../../../shared/jobs/job-model.js';
import { buildOpenApiDocument } from '../../../shared/openapi/build-openapi-document.js';
import { ALL_KINDS, CONTEXT, outcomeOf } from '../dialects/dialect-test-helpers.js';

/**
 * The response and error schemas are documentation, but they must describe what the dialects really send:
 * real `formatOutcome` / `formatError` / `jobView` bodies are validated against the published components.
 */
const doc = buildOpenApiDocument(API_ROUTES) as { components: { schemas: Record<string, unknown> } };
// `components` is not a JSON Schema keyword; strict mode is for the request schemas (checked where they are compiled).
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addVocabulary(['x-error-hint']);
ajv.addSchema({ $id: 'openapi.json', components: doc.components });

const componentValidator = (name: string): ValidateFunction => {
  const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!validate) throw new Error(`no component ${name}`);
  return validate;
};

const expectValid = (name: string, body: unknown): void => {
  const validate = componentValidator(name);
  expect(validate(body), `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
};

const title = (schema: { title?: string }): string => schema.title as string;

const documents = [{ text: 'urllib' }, { text: 'requests', source: { text: 'requests', id: 7 } }, { text: 'httpx' }];
const request = rerankRequest('python http', documents, { returnDocuments: true, echo: { query: 'python http', retrieval_docs: ['a'] } });
const outcome = {
  ...outcomeOf(
    [
      { index: 1, score: 0.9, document: documents[1] },
      { index: 0, score: 0.4, document: documents[0] },
    ],
    12,
  ),
  rawScores: [0.1, 2.3, Number.NaN],
};

describe('response and error schemas describe the real bodies', () => {
  it('every component schema compiles', () => {
    for (const name of Object.keys(doc.components.schemas)) expect(() => componentValidator(name), name).not.toThrow();
  });

  it.each(Object.values(DIALECTS).map((d) => [d.name, d] as const))('%s: formatOutcome matches responseSchema', (_name, dialect) => {
    expectValid(title(dialect.responseSchema), dialect.formatOutcome(outcome, CONTEXT, request).body);
    expectValid(title(dialect.responseSchema), dialect.formatOutcome(outcomeOf([], 0), CONTEXT, request).body);
  });

  it.each(Object.values(DIALECTS).map((d) => [d.name, d] as const))(
    '%s: formatError matches errorSchema for every kind',
    (_name, dialect) => {
      for (const kind of ALL_KINDS) {
        expectValid(title(dialect.errorSchema), dialect.formatError(new RerankError(kind, 'bad', { param: 'top_n' }), CONTEXT).body);
        expectValid(title(dialect.errorSchema), dialect.formatError(new RerankError(kind, 'bad'), CONTEXT).body);
      }
    },
  );

  it('the schemas are not vacuous: a body of another dialect does not match', () => {
    const dashscope = DIALECTS.dashscope.formatOutcome(outcome, CONTEXT).body;
    expect(componentValidator('OpenAiRerankResponse')(dashscope)).toBe(false);
    expect(componentValidator('DashScopeError')(DIALECTS.openai.formatError(new RerankError('invalid_request', 'x'), CONTEXT).body)).toBe(
      false,
    );
    expect(componentValidator('RerankJob')({ id: 'x' })).toBe(false);
  });

  it('the job view matches RerankJob while running, succeeded and failed', () => {
    const job = {
      id: 'job-1',
      status: 'running',
      dialect: 'openai',
      model: 'tinybert-l2-fixture',
      chunksDone: 1,
      chunkCount: 3,
      createdAt: 1766981504,
      updatedAt: 1766981505,
      expiresAt: 1767067904,
    } as unknown as JobRecord;
    expectValid('RerankJob', jobView(job));
    expectValid('RerankJob', jobView({ ...job, status: 'failed', error: 'cancelled by the client' }));
    expectValid('RerankJob', jobView({ ...job, status: 'succeeded', chunksDone: 3 }, DIALECTS.openai.formatOutcome(outcome, CONTEXT).body));
    expectValid('RerankJob', jobView({ ...job, status: 'succeeded', dialect: 'chat' }, DIALECTS.chat.formatOutcome(outcome, CONTEXT).body));
    expectValid('RerankJob', jobView({ ...job, status: 'failed', error: 'scoring failed' }));
  });
});
