import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatGoogleError } from './vertex-error-envelope.js';
import { vertexRequestFields } from './vertex-request-fields.js';
import { googleErrorSchema, vertexResponseSchema } from './vertex-response-schema.js';

/** Discovery Engine's REST binding of RankService.Rank (`{ranking_config=projects/*\/locations/*\/rankingConfigs/*}:rank`). */
const VERTEX_RANK_PATH = '/v1/projects/{project}/locations/{location}/rankingConfigs/{rankingConfig}:rank';

const declared = declaredParse(vertexRequestFields);

/** A returned record's id, title and content, as parse kept them (only string fields: nothing else is a record's). */
function recordFields(source: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of ['id', 'title', 'content']) {
    const value = source?.[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

/**
 * Google Vertex AI ranking API (Discovery Engine RankService): `POST .../rankingConfigs/{c}:rank {model, query,
 * records: [{id, title, content}], topN, ignoreRecordDetailsInResponse, userLabels}` -> `{records: [{id, title?,
 * content?, score}]}` best first; title and content are scored together. The project, location and config in the
 * path are not read. Errors: Google's `{error: {code, message, status}}`.
 */
export const vertexDialect: Dialect = {
  name: 'vertex',
  paths: [VERTEX_RANK_PATH],
  keyPlacement:
    "give Google's client an authClient holding the key as its access token (new OAuth2Client().setCredentials({access_token: <key>})); it is sent as Authorization: Bearer <key>",
  example: {
    model: 'semantic-ranker-default@latest',
    query: EXAMPLE_QUERY,
    records: EXAMPLE_DOCUMENTS.map((content, i) => ({ id: String(i + 1), content })),
    topN: 2,
  },
  ...declared,
  // Every result carries its record's id (and its title and content unless ignoreRecordDetailsInResponse).
  parse: (body) => ({ ...declared.parse(body), returnDocuments: true }),
  responseSchema: vertexResponseSchema,
  errorSchema: googleErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return { status: 200, body: { records: outcome.results.map((r) => ({ ...recordFields(r.document?.source), score: r.score })) } };
  },

  formatError: formatGoogleError,
};
