import type { Dialect } from '../dialects/dialect.js';
import { REQUEST_EXAMPLES } from '../dialects/request-examples.js';
import { DIALECTS } from '../dialects/dialects.js';
import type { JsonSchema } from '../dialects/json-schema.js';
import { batchCreateRequestBody, FILES_REQUEST_BODY, type FilesOperationName } from './batch-request-bodies.js';
import { documentTags, rerankTags } from './operation-tags.js';
import { JOB_ACCEPTED, RERANK_ANSWER_HEADERS, rerankAnswer } from './rerank-answer-headers.js';
import { healthSchema, jobViewSchema, modelListSchema, modelSchema, serviceInfoSchema } from './service-schemas.js';

/**
 * What the document says of one route. The HTTP layer hands its route table in (its routes have this
 * shape), so this module never imports the HTTP layer.
 */
export interface DocumentedRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly action:
    | {
        readonly kind: 'rerank';
        readonly dialect: Dialect;
        readonly byBody?: readonly { readonly dialect: Dialect }[];
        readonly byHeaders?: readonly { readonly dialect: Dialect }[];
      }
    | { readonly kind: 'submit-job'; readonly dialect: Dialect }
    | {
        readonly kind:
          | 'get-job'
          | 'cancel-job'
          | 'models'
          | 'model'
          | 'info'
          | 'index'
          | 'health'
          | 'openapi'
          | 'docs'
          | 'docs-asset'
          | 'weaviate-meta';
      }
    | { readonly kind: 'batches'; readonly operation: 'create' | 'list' | 'get' | 'cancel' }
    | { readonly kind: 'files'; readonly operation: FilesOperationName };
  readonly errorDialect: Dialect;
  readonly public?: boolean;
}

type Route = DocumentedRoute;

const FILES_SUMMARY: Readonly<Record<FilesOperationName, string>> = {
  create: 'Upload a file (multipart: file, purpose batch or user_data; up to the body limit - larger files through /v1/uploads)',
  list: 'List your files',
  get: 'Retrieve a file object',
  delete: 'Delete a file',
  content: "A file's bytes (on AWS a redirect to a short-lived download URL)",
  'upload-create': 'Start an upload of a large file, sent in parts',
  'upload-part': 'Add a part (multipart: data) to an upload',
  'upload-complete': 'Assemble the parts, in the order given, into a file',
  'upload-cancel': 'Cancel an upload',
};

/** An OpenAPI 3.1 document, as JSON. */
export type OpenApiDocument = Readonly<Record<string, unknown>>;

type Operation = Record<string, unknown>;

const OPENAPI_VERSION = '3.1.0';

const DESCRIPTION = [
  "Rerank: send a query and candidate documents, get the documents' indices and relevance scores back, best first.",
  'Several wire dialects are served (OpenAI/Jina/Cohere v1, DashScope, chat-based, Llama Stack RAG tool and alpha inference,',
  'a RAG pipeline stage, Cohere v2, Voyage, and Hugging Face TEI on `/rerank` told apart from the OpenAI body by `texts`);',
  'each answers in its own response shape and its own error envelope.',
  '',
  'The request schemas below are the ones the service validates bodies with: a body that violates one gets a 400 in the',
  "route's error envelope, naming the field as the client spelled it (`param`, e.g. `input.documents[2]`). Limits set by",
  'configuration (documents per request, `batch_size`, text lengths) are not in the schemas; they are checked after, and a',
  'too-long text is a 413. The chat dialect carries its rerank request as a JSON string inside the user message: the schema',
  'describes that JSON (`contentSchema`), and it is validated when the content is read.',
  '',
  'Requests above the synchronous limits become queued jobs: the endpoint waits for a while and answers the result, or a 504',
  "whose `Location` names the job's poll URL if it is still running; `Prefer: respond-async` asks for a 202 with the job at",
  'once. Poll `GET /v1/rerank/jobs/{id}` (large results come in pages: `result_page`).',
].join('\n');

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const jsonContent = (schema: JsonSchema): Record<string, unknown> => ({ 'application/json': { schema } });

/** `/v1/rerank/jobs/{id}` -> `getV1RerankJobsId`: unique, since a method and path name one route. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** Component names come from the schemas' titles; a schema shared by several dialects is listed once. */
function schemaName(schema: JsonSchema): string {
  if (!schema.title) throw new Error('every dialect schema needs a title: it names the OpenAPI component');
  return schema.title;
}

function componentSchemas(dialects: readonly Dialect[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const add = (schema: JsonSchema): void => {
    const name = schemaName(schema);
    if (schemas[name] && schemas[name] !== schema) throw new Error(`two different schemas are titled ${name}`);
    schemas[name] = schema;
  };
  for (const dialect of dialects) {
    add(dialect.requestSchema);
    add(dialect.responseSchema);
    add(dialect.errorSchema);
  }
  const queueable = dialects.filter((d) => d.queueable !== false);
  add(
    jobViewSchema(
      Object.keys(DIALECTS),
      queueable.map((d) => ref(schemaName(d.responseSchema))),
    ),
  );
  add(modelSchema);
  add(modelListSchema);
  add(healthSchema);
  add(serviceInfoSchema);
  return schemas;
}

const ERROR_STATUSES: Readonly<Record<string, string>> = {
  '400': 'Malformed request: invalid JSON, a schema violation, or a value the service cannot accept (e.g. an unknown model).',
  '401': 'Missing or wrong API key (only when keys are configured).',
  '404': 'No such job, batch, file or upload (they expire, and are visible only to the key that created them).',
  '409': 'The upload is no longer pending (completed, cancelled or expired), or the key was reused while its first request runs.',
  '413': 'Body, query or a document above the configured limits (send `truncate: true` to cut texts instead).',
  '415': 'The body was not sent as `Content-Type: application/json`.',
  '422': "TEI's body (`texts`) that the service cannot accept (TEI's status for an unprocessable body).",
  '424': "TEI's body: the model failed (TEI's status for a backend error).",
  '429': 'Rate limit or concurrent-job limit of the key reached; see Retry-After.',
  '5XX': 'Scoring or an upstream provider failed; the message of internal errors is generic.',
};

function errorResponses(dialect: Dialect, statuses: readonly string[]): Record<string, unknown> {
  const schema = ref(schemaName(dialect.errorSchema));
  return Object.fromEntries(statuses.map((status) => [status, { description: ERROR_STATUSES[status], content: jsonContent(schema) }]));
}

const JOB_ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The job id from the 202.' };

const PREFER_PARAMETER = {
  name: 'Prefer',
  in: 'header',
  required: false,
  schema: { type: 'string', examples: ['respond-async'] },
  description: '`respond-async`: answer 202 with the job at once (requests that cannot be queued are answered now).',
};

/** A rerank path that names its model (Bedrock's `/model/{model}/invoke`). */
const MODEL_PARAMETER = {
  name: 'model',
  in: 'path',
  required: true,
  schema: { type: 'string', examples: ['cohere.rerank-v3-5:0'] },
  description: 'The model id (see `GET /v1/models`; hosted names alias the default model); it replaces any `model` in the body.',
};

/** One schema, or any of several where a path serves dialects told apart by the body. */
const anyOfRefs = (schemas: readonly JsonSchema[]): JsonSchema =>
  schemas.length === 1 ? ref(schemaName(schemas[0] as JsonSchema)) : { anyOf: schemas.map((schema) => ref(schemaName(schema))) };

/** The `{name}` variables of a rerank path (Vertex AI's project, location and ranking config), each a path parameter. */
const pathParameters = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: 'Any value: it is not read.',
  }));

/** The dialects served on a rerank route besides its own, once each: told apart by their body, or by their headers. */
const sharingDialects = (action: {
  readonly byBody?: readonly { readonly dialect: Dialect }[];
  readonly byHeaders?: readonly { readonly dialect: Dialect }[];
}): Dialect[] => [...new Set([...(action.byBody ?? []), ...(action.byHeaders ?? [])].map((alternative) => alternative.dialect))];

function rerankOperation(route: Route, dialect: Dialect, submitOnly: boolean, byBody: readonly Dialect[] = []): Operation {
  const queueable = dialect.queueable !== false;
  // A path that names its model (Bedrock's) documents that variable as the model; any other variable is not read.
  const variables = pathParameters(route.path).filter((p) => !(dialect.modelInPath && p.name === MODEL_PARAMETER.name));
  const parameters = [...(dialect.modelInPath ? [MODEL_PARAMETER] : []), ...variables, ...(queueable ? [PREFER_PARAMETER] : [])];
  const all = [dialect, ...byBody];
  // Every body this path takes, ready to send: what /docs "Try it out" pre-fills (the first is the default).
  const examples = Object.fromEntries(all.map((d) => [d.name, { summary: `${d.name} body`, value: REQUEST_EXAMPLES[d.name] }]));
  const body = { required: true, content: { 'application/json': { schema: anyOfRefs(all.map((d) => d.requestSchema)), examples } } };
  const errors =
    byBody.length === 0
      ? errorResponses(route.errorDialect, ['400', '401', '413', '415', '429', '5XX'])
      : Object.fromEntries(
          ['400', '401', '413', '415', '422', '424', '429', '5XX'].map((status) => [
            status,
            {
              description: ERROR_STATUSES[status],
              content: jsonContent(anyOfRefs([route.errorDialect, ...byBody].map((d) => d.errorSchema))),
            },
          ]),
        );
  if (submitOnly) {
    return {
      tags: ['jobs'],
      summary: `Submit a rerank job (${dialect.name} body)`,
      requestBody: body,
      responses: { '202': JOB_ACCEPTED, ...errors },
    };
  }
  return {
    tags: rerankTags(route.path, route.method, all),
    summary: `Rerank (${all.map((d) => d.name).join(', ')} ${all.length > 1 ? 'dialects, told apart by body or headers' : 'dialect'})`,
    ...(parameters.length > 0 ? { parameters } : {}),
    requestBody: body,
    responses: {
      '200': rerankAnswer(jsonContent(anyOfRefs(all.map((d) => d.responseSchema)))),
      ...(queueable ? { '202': JOB_ACCEPTED } : {}),
      ...errors,
    },
  };
}

const HTML_PAGE = { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } };
const DOCS_ASSET_PARAMETER = { name: 'asset', in: 'path', required: true, schema: { type: 'string' } };

function operation(route: Route, batchEndpoints: readonly string[]): Operation {
  const action = route.action;
  switch (action.kind) {
    case 'rerank':
      return rerankOperation(route, action.dialect, false, sharingDialects(action));
    case 'submit-job':
      return rerankOperation(route, action.dialect, true);
    case 'get-job':
    case 'cancel-job':
      return {
        tags: ['jobs'],
        summary: action.kind === 'get-job' ? 'Poll a job: status, progress and, once done, the result' : 'Cancel a job; answers its view',
        parameters: [JOB_ID_PARAMETER],
        responses: {
          '200': { description: 'The job.', headers: RERANK_ANSWER_HEADERS, content: jsonContent(ref('RerankJob')) },
          ...errorResponses(route.errorDialect, ['401', '404', '5XX']),
        },
      };
    case 'models':
      return {
        tags: ['service'],
        summary: 'The served models (OpenAI list format), each with the aliases that reach it',
        responses: {
          '200': { description: 'The models.', content: jsonContent(ref('ModelList')) },
          ...errorResponses(route.errorDialect, ['401']),
        },
      };
    case 'model':
      return {
        tags: ['service'],
        summary:
          'One served model or alias (OpenAI model object; an alias names its model in `alias_of`); 404 naming the served ids otherwise',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The model.', content: jsonContent(ref('Model')) },
          ...errorResponses(route.errorDialect, ['401', '404']),
        },
      };
    case 'info':
      return {
        tags: ['service'],
        summary: 'What is served and accepted: the models (default first, token windows), aliases and request limits; TEI /info fields',
        responses: {
          '200': { description: 'The service info.', content: jsonContent(ref('ServiceInfo')) },
          ...errorResponses(route.errorDialect, ['401']),
        },
      };
    case 'weaviate-meta':
      return {
        tags: ['weaviate'],
        summary: "Weaviate reranker-transformers' /meta: the default model (`model._name_or_path`) and every served model",
        responses: {
          '200': { description: 'The model.', content: jsonContent({ type: 'object' }) },
          ...errorResponses(route.errorDialect, ['401']),
        },
      };
    case 'index':
      return {
        tags: ['service'],
        summary: 'Where the docs, this document, health, the models and the service info are',
        responses: { '200': { description: 'Links.', content: jsonContent({ type: 'object' }) } },
      };
    case 'health':
      return { tags: ['service'], summary: 'Liveness', responses: { '200': { description: 'Up.', content: jsonContent(ref('Health')) } } };
    case 'openapi':
      return {
        tags: ['service'],
        summary: 'This OpenAPI document',
        responses: { '200': { description: 'OpenAPI 3.1.', content: jsonContent({ type: 'object' }) } },
      };
    case 'docs':
      return { tags: ['service'], summary: 'Interactive API docs (Swagger UI) over this document', responses: { '200': HTML_PAGE } };
    case 'batches':
      // OpenAI's Batches API, unchanged: its official document (and SDKs) describe these bodies.
      return {
        tags: ['batches'],
        summary: {
          create: 'Create a batch from an uploaded JSONL file',
          list: 'List your batches',
          get: 'Retrieve a batch',
          cancel: 'Cancel a batch',
        }[action.operation],
        ...(route.path.includes('{id}') ? { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } : {}),
        ...(action.operation === 'create' ? { requestBody: batchCreateRequestBody(batchEndpoints) } : {}),
        responses: {
          '200': { description: "OpenAI's batch object (or list).", content: jsonContent({ type: 'object' }) },
          ...errorResponses(route.errorDialect, ['400', '401', '404', '429']),
        },
      };
    case 'files':
      // OpenAI's Files and Uploads APIs, unchanged: its official document (and SDKs) describe these objects.
      return {
        tags: ['files'],
        summary: FILES_SUMMARY[action.operation],
        ...(route.path.includes('{id}') ? { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } : {}),
        ...(FILES_REQUEST_BODY[action.operation] === undefined ? {} : { requestBody: FILES_REQUEST_BODY[action.operation] }),
        responses: {
          '200': {
            description: "OpenAI's file, upload or part object (or list); a file's content as bytes.",
            content: jsonContent({ type: 'object' }),
          },
          ...(action.operation === 'content' ? { '302': { description: 'The file is downloaded from this short-lived URL (S3).' } } : {}),
          ...errorResponses(route.errorDialect, ['400', '401', '404', '409', '413', '429']),
        },
      };
    case 'docs-asset':
      return {
        tags: ['service'],
        summary: "The docs page's script and styles",
        parameters: [DOCS_ASSET_PARAMETER],
        responses: { '200': { description: 'The file.' }, ...errorResponses(route.errorDialect, ['404']) },
      };
  }
}

/**
 * The OpenAPI 3.1 document of the given routes. Request bodies are the dialects' own `requestSchema`s, the
 * same objects ApiApp validates with, so the document cannot drift from what the service accepts.
 */
export function buildOpenApiDocument(routes: readonly Route[]): OpenApiDocument {
  const dialects = [
    ...new Set(
      routes.flatMap((r) => [
        r.errorDialect,
        ...('dialect' in r.action ? [r.action.dialect] : []),
        ...(r.action.kind === 'rerank' ? sharingDialects(r.action) : []),
      ]),
    ),
  ];
  // The routes a batch line may name: the rerank routes whose dialect can be answered from a job, named by a fixed path
  // (a line's url must equal the endpoint, so a templated path such as Vertex AI's could never match).
  const batchEndpoints = routes.flatMap((r) =>
    r.method === 'POST' && r.action.kind === 'rerank' && r.action.dialect.queueable !== false && !r.path.includes('{') ? [r.path] : [],
  );
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const op = { operationId: operationId(route), ...operation(route, batchEndpoints), ...(route.public ? { security: [] } : {}) };
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: op };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'rerank-service', version: '1', description: DESCRIPTION },
    servers: [{ url: '/', description: 'The host serving this document.' }],
    security: [{ bearerAuth: [] }],
    tags: documentTags(dialects),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: '`Authorization: Bearer <key>`, required when the service is configured with API keys.',
        },
      },
      schemas: componentSchemas(dialects),
    },
  };
}
