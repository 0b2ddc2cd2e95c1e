import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { vertexDialect } from '../../../shared/dialects/vertex/vertex-dialect.js';
import { gatewayPath, matchRoute } from '../../../shared/http/api-routes.js';
import { ALL_KINDS, CONTEXT, expectInvalid, outcomeOf } from './dialect-test-helpers.js';

/** The request of Google's "Rank and rerank documents" page (Vertex AI ranking API, curl to default_ranking_config:rank). */
const VERTEX_EXAMPLE = {
  model: 'semantic-ranker-default@latest',
  query: 'what is Google gemini?',
  records: [
    { id: '1', title: 'Gemini', content: "The Gemini ecosystem represents Google's most capable AI." },
    { id: '2', title: 'Gemini', content: 'Gemini is a constellation.' },
    { id: '3', title: 'Introduction to Google Gemini', content: 'Gemini is a family of multimodal AI models.' },
  ],
};

describe('Vertex AI dialect: requests', () => {
  it("reads Google's documented body: title and content scored together, every result carrying its record", () => {
    expect(() => validateRequestBody(vertexDialect.requestSchema, VERTEX_EXAMPLE)).not.toThrow();
    const request = vertexDialect.parse(VERTEX_EXAMPLE);
    expect(request.query).toBe('what is Google gemini?');
    expect(request.documents.map((d) => d.text)).toEqual(VERTEX_EXAMPLE.records.map((r) => `${r.title}\n${r.content}`));
    expect(request.documents.map((d) => d.source)).toEqual(VERTEX_EXAMPLE.records);
    expect(request).toMatchObject({ model: 'semantic-ranker-default@latest', topN: undefined, returnDocuments: true });
  });

  it('topN unset or <= 0 is every record; ignoreRecordDetailsInResponse keeps only the ids; a record may have title or content alone', () => {
    expect(vertexDialect.parse({ ...VERTEX_EXAMPLE, topN: 2 }).topN).toBe(2);
    expect(vertexDialect.parse({ ...VERTEX_EXAMPLE, topN: 0 }).topN).toBeUndefined();
    expect(vertexDialect.parse({ ...VERTEX_EXAMPLE, topN: -1 }).topN).toBeUndefined();
    expect(vertexDialect.parse({ ...VERTEX_EXAMPLE, ignoreRecordDetailsInResponse: true }).documents.map((d) => d.source)).toEqual([
      { id: '1' },
      { id: '2' },
      { id: '3' },
    ]);
    expect(
      vertexDialect.parse({ query: 'q', records: [{ id: 'a', title: 'only a title' }, { content: 'only content' }] }).documents,
    ).toEqual([
      { text: 'only a title', source: { id: 'a', title: 'only a title' } },
      { text: 'only content', source: { content: 'only content' } },
    ]);
  });

  it('refuses a record with nothing to rank and wrong types, naming the field as the RankRequest spells it', () => {
    expectInvalid(() => vertexDialect.parse({ query: 'q', records: [{ id: 'x' }] }), 'records[0]');
    expectInvalid(() => vertexDialect.parse({ query: 'q', records: [{ id: 'x', title: '', content: '' }] }), 'records[0]');
    expectInvalid(() => vertexDialect.parse({ query: 'q', records: ['a bare string'] }), 'records[0]');
    expectInvalid(() => vertexDialect.parse({ query: 'q', records: [{ id: 1, content: 'c' }] }), 'records[0].id');
    expectInvalid(() => vertexDialect.parse({ query: 'q', records: [{ content: 'c' }], topN: 1.5 }), 'topN');
  });
});

describe('Vertex AI dialect: replies', () => {
  it("answers Discovery Engine's RankResponse: records best first, id, title, content and score", () => {
    const request = vertexDialect.parse(VERTEX_EXAMPLE);
    const ranked = [0, 2, 1].map((index, rank) => ({
      index,
      score: [0.97, 0.64, 0.02][rank] as number,
      document: request.documents[index],
    }));
    expect(vertexDialect.formatOutcome(outcomeOf(ranked, 50), CONTEXT)).toEqual({
      status: 200,
      body: {
        records: [
          { ...VERTEX_EXAMPLE.records[0], score: 0.97 },
          { ...VERTEX_EXAMPLE.records[2], score: 0.64 },
          { ...VERTEX_EXAMPLE.records[1], score: 0.02 },
        ],
      },
    });
    const idsOnly = vertexDialect.parse({ ...VERTEX_EXAMPLE, ignoreRecordDetailsInResponse: true });
    expect(vertexDialect.formatOutcome(outcomeOf([{ index: 1, score: 0.5, document: idsOnly.documents[1] }], 1), CONTEXT).body).toEqual({
      records: [{ id: '2', score: 0.5 }],
    });
  });

  it("errors as Google's {error: {code, message, status}} with a google.rpc.Code name for every kind", () => {
    expect(
      vertexDialect.formatError(
        new RerankError('invalid_request', 'records[0] needs a title or a content', { param: 'records[0]' }),
        CONTEXT,
      ),
    ).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'records[0] needs a title or a content', status: 'INVALID_ARGUMENT' } },
    });
    for (const kind of ALL_KINDS) {
      const { body } = vertexDialect.formatError(new RerankError(kind, 'x'), CONTEXT) as { body: { error: { status: string } } };
      expect(body.error.status, kind).toMatch(/^[A-Z_]+$/);
    }
    expect(vertexDialect.formatError(new RerankError('unauthorized', 'invalid API key'), CONTEXT).body).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED' },
    });
  });
});

describe('Vertex AI routes', () => {
  it('matches `{rankingConfig}:rank` inside a segment, a percent-encoded colon too, and nothing else', () => {
    const path = '/v1/projects/my-project/locations/global/rankingConfigs/default_ranking_config:rank';
    const hit = matchRoute('POST', path);
    expect(hit).toMatchObject({
      found: 'route',
      params: { project: 'my-project', location: 'global', rankingConfig: 'default_ranking_config' },
    });
    expect(hit.found === 'route' && hit.route.action).toMatchObject({ kind: 'rerank', dialect: vertexDialect });
    expect(matchRoute('POST', path.replace(':rank', '%3Arank'))).toMatchObject({
      found: 'route',
      params: { rankingConfig: 'default_ranking_config' },
    });
    for (const miss of [
      path.replace(':rank', ':search'),
      path.replace('default_ranking_config', ''),
      '/v1/projects/p/locations/global/rankingConfigs/:rank',
    ]) {
      // API Gateway's greedy route brings these to the function: the 404 is in Google's envelope.
      expect(matchRoute('POST', miss), miss).toMatchObject({ found: 'none', errorDialect: vertexDialect });
    }
    expect(matchRoute('GET', path)).toMatchObject({ found: 'wrong-method', errorDialect: vertexDialect });
  });

  it('is routed on API Gateway by its literal start and a greedy rest; whole-segment templates are left as they are', () => {
    expect(gatewayPath(vertexDialect.paths[0] as string)).toBe('/v1/projects/{proxy+}');
    expect(gatewayPath('/v1/rerank/jobs/{id}')).toBe('/v1/rerank/jobs/{id}');
    expect(gatewayPath('/v1/rerank')).toBe('/v1/rerank');
    expect(DIALECTS.vertex).toBe(vertexDialect);
  });
});
