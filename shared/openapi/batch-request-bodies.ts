/**
 * The request bodies of the Files, Uploads and Batches operations (OpenAI's, unchanged), each with an example that
 * `/docs` pre-fills: without a declared body Swagger UI's "Try it out" sends none and the route answers 415.
 */

export type FilesOperationName =
  | 'create'
  | 'list'
  | 'get'
  | 'delete'
  | 'content'
  | 'upload-create'
  | 'upload-part'
  | 'upload-complete'
  | 'upload-cancel';

const PURPOSE = { type: 'string', enum: ['batch', 'user_data'], default: 'batch' } as const;
const MiB = 1024 * 1024;

/** What a batch input holds: the shape of one line, shown on the file upload. */
const BATCH_LINE =
  '{"custom_id": "q1", "method": "POST", "url": "/v1/rerank", "body": {"query": "python http library", "documents": ["requests is an HTTP library", "a cake recipe"]}}';

const multipart = (description: string, fields: Record<string, unknown>, required: string[], example: Record<string, unknown>) => ({
  required: true,
  description,
  content: { 'multipart/form-data': { schema: { type: 'object', properties: fields, required }, example } },
});

const json = (schema: Record<string, unknown>, examples: Record<string, { summary: string; value: unknown }>) => ({
  required: true,
  content: { 'application/json': { schema, examples } },
});

export const FILES_REQUEST_BODY: Partial<Record<FilesOperationName, unknown>> = {
  create: multipart(
    `A file of at most 6 MiB (one request body); a larger one goes through POST /v1/uploads. A batch input is JSONL, one request per line: ${BATCH_LINE}. ` +
      'A corpus for `documents_file_id` (purpose `user_data` or `batch`) is one document per line: a JSON string, or an object with `text`.',
    {
      file: { type: 'string', format: 'binary', description: 'The file: a batch input (.jsonl) or a corpus.' },
      purpose: PURPOSE,
      'expires_after[anchor]': { type: 'string', enum: ['created_at'] },
      'expires_after[seconds]': { type: 'integer', minimum: 3_600, maximum: 2_592_000 },
    },
    ['file', 'purpose'],
    { purpose: 'batch' },
  ),
  'upload-part': multipart(
    `One part of an upload, at most ${4 * MiB} bytes (4 MiB); parts may be sent in parallel, their order is given on complete.`,
    { data: { type: 'string', format: 'binary', description: 'The bytes of this part.' } },
    ['data'],
    {},
  ),
  'upload-create': json(
    {
      type: 'object',
      properties: {
        filename: { type: 'string' },
        purpose: PURPOSE,
        bytes: { type: 'integer', minimum: 1, description: 'The size of the whole file, in bytes: the parts must add up to it.' },
        mime_type: { type: 'string' },
      },
      required: ['filename', 'purpose', 'bytes', 'mime_type'],
    },
    {
      batchInput: {
        summary: 'a 9 MiB batch input, to be sent in three parts',
        value: { filename: 'requests.jsonl', purpose: 'batch', bytes: 9 * MiB, mime_type: 'application/jsonl' },
      },
    },
  ),
  'upload-complete': json(
    {
      type: 'object',
      properties: {
        part_ids: { type: 'array', items: { type: 'string' }, description: 'Every part, in the order the file is assembled from them.' },
        md5: { type: 'string', description: "The whole file's MD5, hex: checked on completion." },
      },
      required: ['part_ids'],
    },
    {
      inOrder: {
        summary: 'the parts in order (ids from POST /v1/uploads/{id}/parts)',
        value: { part_ids: ['part_0f3c...', 'part_8a21...', 'part_c7d9...'] },
      },
    },
  ),
};

/** `POST /v1/batches`: `endpoint` is one of the rerank routes a batch line may name (the routes that can run as jobs). */
export function batchCreateRequestBody(endpoints: readonly string[]): unknown {
  return json(
    {
      type: 'object',
      properties: {
        input_file_id: { type: 'string', description: 'The JSONL input file (purpose batch), from POST /v1/files or POST /v1/uploads.' },
        endpoint: { type: 'string', enum: endpoints, description: "Every line's `url` must equal it." },
        completion_window: { type: 'string', enum: ['24h'] },
        metadata: { type: ['object', 'null'], additionalProperties: { type: 'string', maxLength: 512 }, maxProperties: 16 },
      },
      required: ['input_file_id', 'endpoint', 'completion_window'],
    },
    {
      rerank: {
        summary: 'OpenAI-style rerank lines (replace input_file_id with your file id)',
        value: {
          input_file_id: 'file-0123456789abcdef01234567',
          endpoint: '/v1/rerank',
          completion_window: '24h',
          metadata: { project: 'docs' },
        },
      },
    },
  );
}
