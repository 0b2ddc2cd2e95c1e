import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Caller } from '../../auth/caller.js';
import { invalidRequest } from '../../core/rerank-error.js';
import type { FilePurpose } from '../../files/file-store.js';
import type { FilesService } from '../../files/files-service.js';
import { STREAMED_BODY, type StreamedResult } from '../streamed-result.js';
import { contentRange, rangeAsked, type RangeAsked } from './byte-range.js';
import { fileObject, uploadObject, uploadPartObject } from './file-objects.js';
import { parseMultipartForm } from './multipart-form.js';
import type { FilesOperationName } from '../../openapi/batch-request-bodies.js';

/** The operation names are the document's (openapi/), so a route and its `/docs` entry cannot drift apart. */
export type FilesOperation = FilesOperationName;

export interface FilesRequest {
  readonly event: APIGatewayProxyEventV2;
  readonly caller: Caller;
  readonly params: Readonly<Record<string, string>>;
  /** The raw body, read with the API's body limit. */
  readonly readBytes: () => Uint8Array;
  /** The JSON body, read with the API's body limit and content-type rule. */
  readonly readJson: () => unknown;
  readonly header: (name: string) => string | undefined;
}

/** OpenAI's list bounds for files (`limit` 1..10,000, default 10,000 - every file a key may keep, at once). */
const LIST_LIMIT = { default: 10_000, max: 10_000 } as const;
/**
 * Parts a form may have: a file form takes file, purpose and expires_after's two fields; a part form its data.
 * A few more are allowed for fields a client adds that are ignored here.
 */
const FILE_FORM_MAX_PARTS = 8;
const PART_FORM_MAX_PARTS = 4;
/** How long a presigned download URL lives: long enough to start the transfer, short enough not to be shared. */
const DOWNLOAD_URL_SECONDS = 300;

const json = (status: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const asRecord = (body: unknown): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('the request body must be a JSON object', 'body');
  return body as Record<string, unknown>;
};

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length === 0) throw invalidRequest(`${name} is required and must be a non-empty string`, name);
  return value;
}

/** `expires_after[anchor]=created_at` + `expires_after[seconds]` (form) or `{anchor, seconds}` (JSON): OpenAI's 1 h..30 d. */
function expiresAfter(anchor: unknown, seconds: unknown): number | undefined {
  if (anchor === undefined && seconds === undefined) return undefined;
  const value = typeof seconds === 'string' ? Number(seconds) : seconds;
  if (anchor !== 'created_at' || typeof value !== 'number' || !Number.isSafeInteger(value) || value < 3_600 || value > 2_592_000) {
    throw invalidRequest('expires_after needs anchor "created_at" and seconds from 3600 to 2592000', 'expires_after');
  }
  return value;
}

function listQuery(event: APIGatewayProxyEventV2): { after?: string; limit: number; purpose?: FilePurpose; order?: 'asc' | 'desc' } {
  const query = event.queryStringParameters ?? {};
  const rawLimit = query['limit'];
  const limit = rawLimit === undefined ? LIST_LIMIT.default : Number(rawLimit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMIT.max)
    throw invalidRequest(`limit must be an integer from 1 to ${LIST_LIMIT.max}`, 'limit');
  const order = query['order'];
  if (order !== undefined && order !== 'asc' && order !== 'desc') throw invalidRequest('order must be asc or desc', 'order');
  return {
    limit,
    ...(query['after'] ? { after: query['after'] } : {}),
    ...(query['purpose'] ? { purpose: query['purpose'] as FilePurpose } : {}),
    ...(order ? { order } : {}),
  };
}

/** The attachment name of a download, with the caller's file name escaped so it cannot break the header. */
const contentDisposition = (filename: string): string => `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;

/** `/v1/files` and `/v1/uploads`, as the official OpenAI SDKs call them. */
export class FilesApi {
  readonly #files: FilesService;
  readonly #downloadUrl: ((fileId: string) => Promise<string | undefined>) | undefined;

  /** `downloadUrl` (S3): content is a redirect to a short-lived URL, so downloads do not pass through the API's 6 MB cap. */
  constructor(files: FilesService, downloadUrl?: (fileId: string, expiresInSeconds: number) => Promise<string | undefined>) {
    this.#files = files;
    this.#downloadUrl = downloadUrl && ((fileId) => downloadUrl(fileId, DOWNLOAD_URL_SECONDS));
  }

  async handle(operation: FilesOperation, request: FilesRequest): Promise<APIGatewayProxyStructuredResultV2> {
    const owner = request.caller.keyId;
    const id = request.params['id'] ?? '';
    switch (operation) {
      case 'create': {
        const form = await parseMultipartForm(request.readBytes(), request.header('content-type'), 'file', FILE_FORM_MAX_PARTS);
        if (form.file === undefined) throw invalidRequest('the form has no file field', 'file');
        const purpose = form.fields.get('purpose');
        if (purpose === undefined) throw invalidRequest('purpose is required', 'purpose');
        const seconds = expiresAfter(form.fields.get('expires_after[anchor]'), form.fields.get('expires_after[seconds]'));
        const file = await this.#files.create(
          owner,
          {
            filename: form.file.name || 'file',
            purpose,
            size: form.file.size,
            ...(seconds === undefined ? {} : { expiresAfterSeconds: seconds }),
          },
          form.file.bytes,
        );
        return json(200, fileObject(file));
      }
      case 'list': {
        const page = await this.#files.list(owner, listQuery(request.event));
        const data = page.files.map(fileObject);
        return json(200, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore });
      }
      case 'get':
        return json(200, fileObject(await this.#files.find(owner, id)));
      case 'delete': {
        const file = await this.#files.delete(owner, id);
        return json(200, { id: file.id, object: 'file', deleted: true });
      }
      case 'content':
        return this.#content(owner, id, request.header('range'));
      case 'upload-create': {
        const body = asRecord(request.readJson());
        const bytes = body['bytes'];
        if (typeof bytes !== 'number') throw invalidRequest('bytes is required and must be an integer', 'bytes');
        const upload = await this.#files.createUpload(owner, {
          filename: stringField(body, 'filename'),
          purpose: stringField(body, 'purpose'),
          bytes,
          mimeType: stringField(body, 'mime_type'),
        });
        return json(200, uploadObject(upload));
      }
      case 'upload-part': {
        const form = await parseMultipartForm(request.readBytes(), request.header('content-type'), 'data', PART_FORM_MAX_PARTS);
        if (form.file === undefined) throw invalidRequest('the form has no data field', 'data');
        return json(200, uploadPartObject(id, await this.#files.addPart(owner, id, form.file.bytes)));
      }
      case 'upload-complete': {
        const body = asRecord(request.readJson());
        const partIds = body['part_ids'];
        if (!Array.isArray(partIds) || partIds.length === 0 || !partIds.every((p): p is string => typeof p === 'string')) {
          throw invalidRequest('part_ids must be a non-empty array of part ids', 'part_ids');
        }
        const md5 = body['md5'];
        if (md5 !== undefined && typeof md5 !== 'string') throw invalidRequest('md5 must be a string', 'md5');
        const { upload, file } = await this.#files.completeUpload(owner, id, partIds, md5);
        return json(200, uploadObject(upload, file));
      }
      case 'upload-cancel':
        return json(200, uploadObject(await this.#files.cancelUpload(owner, id)));
    }
  }

  /**
   * The file's bytes, streamed; with a `Range` header only that slice (206), so a file larger than one answer can
   * carry (a Lambda's 6 MB) is read in parts. With download URLs (S3) a redirect, which S3 answers ranges for too.
   */
  async #content(owner: string, id: string, rangeHeader: string | undefined): Promise<APIGatewayProxyStructuredResultV2> {
    let asked = { kind: 'whole' } as RangeAsked;
    const { record, bytes, range } = await this.#files.content(owner, id, (size) => {
      asked = rangeAsked(rangeHeader, size);
      return asked.kind === 'slice' ? asked.range : undefined;
    });
    const url = await this.#downloadUrl?.(record.id);
    if (url !== undefined) return { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' } };
    if (asked.kind === 'unsatisfiable') {
      return {
        ...json(416, {
          error: {
            message: `the range ${rangeHeader} is outside the file's ${record.bytes} bytes`,
            type: 'invalid_request_error',
            param: 'range',
            code: 'range_not_satisfiable',
          },
        }),
        headers: { 'content-type': 'application/json', 'content-range': contentRange(record.bytes) },
      };
    }
    const result: StreamedResult = {
      statusCode: range ? 206 : 200,
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(range ? range.end - range.start : record.bytes),
        'content-disposition': contentDisposition(record.filename),
        'accept-ranges': 'bytes',
        ...(range ? { 'content-range': contentRange(record.bytes, range) } : {}),
      },
      [STREAMED_BODY]: bytes,
    };
    return result;
  }

  /** Whether `/v1/uploads` routes are served here. */
  get uploadsEnabled(): boolean {
    return this.#files.uploadsEnabled;
  }
}
