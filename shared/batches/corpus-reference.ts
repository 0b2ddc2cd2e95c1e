import { decodeUtf8Strictly } from '../core/strict-utf8.js';
import { invalidRequest } from '../core/rerank-error.js';
import type { RerankDocument } from '../core/rerank-request.js';
import type { Dialect } from '../dialects/dialect.js';
import { parseJsonText } from '../dialects/wire-fields.js';
import { BadInputLineError } from './batch-input-line.js';

/** The body field that names a corpus file instead of listing documents (each dialect declares where: Dialect.corpus). */
export const DOCUMENTS_FILE_ID = 'documents_file_id';

/** Stands in for the corpus while the dialect parses the body: one document, so its own rules pass unchanged. */
const PLACEHOLDER_DOCUMENT = 'documents_file_id';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A body that names `documents_file_id` where its dialect declares it (beside its documents): the corpus file id,
 * and the body with one placeholder document instead, for the dialect to parse. Undefined when the body lists its
 * documents.
 */
export function extractCorpusReference(dialect: Pick<Dialect, 'corpus'>, body: unknown): { fileId: string; body: unknown } | undefined {
  const paths = dialect.corpus;
  const parentPath = paths?.fileIdPath.slice(0, -1) ?? [];
  let parent: unknown = body;
  for (const key of parentPath) parent = isObject(parent) ? parent[key] : undefined;
  const named = isObject(body) && DOCUMENTS_FILE_ID in body ? body : isObject(parent) && DOCUMENTS_FILE_ID in parent ? parent : undefined;
  if (!named) return undefined;
  const where = named === body ? DOCUMENTS_FILE_ID : [...parentPath, DOCUMENTS_FILE_ID].join('.');
  if (!paths || named !== parent) throw invalidRequest(`${where} is not supported on this route; list the documents instead`, where);
  const fileId = named[DOCUMENTS_FILE_ID];
  if (typeof fileId !== 'string' || fileId === '') throw invalidRequest(`${where} must be a file id (file-...)`, where);
  const documentsKey = paths.documentsPath[paths.documentsPath.length - 1] as string;
  if (named[documentsKey] !== undefined) throw invalidRequest(`send either ${documentsKey} or ${DOCUMENTS_FILE_ID}, not both`, where);
  const replaced = { ...named, [documentsKey]: [PLACEHOLDER_DOCUMENT] };
  delete replaced[DOCUMENTS_FILE_ID];
  return { fileId, body: replaceAt(body, parentPath, replaced) };
}

function replaceAt(body: unknown, path: readonly string[], value: Record<string, unknown>): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const object = body as Record<string, unknown>;
  return { ...object, [head]: replaceAt(object[head], rest, value) };
}

/**
 * One corpus line: a JSON string, or an object with a string `text` (returned as sent when documents are
 * asked for, as inline object documents are). Throws with the corpus line's number.
 */
export function parseCorpusDocument(bytes: Buffer, line: number): RerankDocument {
  let value: unknown;
  // Invalid UTF-8 is refused naming its byte offset, not read as U+FFFD.
  const text = decodeUtf8Strictly(bytes, `${DOCUMENTS_FILE_ID} line ${line}`, DOCUMENTS_FILE_ID);
  try {
    value = parseJsonText(text, `${DOCUMENTS_FILE_ID} line ${line}`);
  } catch {
    throw invalidRequest(
      `${DOCUMENTS_FILE_ID} line ${line} is not JSON (or nested too deep): each line must be a JSON string or an object with "text"`,
      DOCUMENTS_FILE_ID,
    );
  }
  if (typeof value === 'string') return { text: value };
  if (isObject(value) && typeof value['text'] === 'string') return { text: value['text'], source: value };
  throw invalidRequest(`${DOCUMENTS_FILE_ID} line ${line} must be a JSON string or an object with a string "text"`, DOCUMENTS_FILE_ID);
}

/**
 * A line over a corpus deleted while the batch read it: `file_not_found` naming the file. A retried task would find no
 * file and refuse the line as not the key's (`invalid_request`), which hides what happened.
 */
export const corpusDeletedError = (customId: string, fileId: string): BadInputLineError =>
  new BadInputLineError(
    'file_not_found',
    `${DOCUMENTS_FILE_ID} '${fileId}' was deleted while the batch read it; upload it again and send the line in a new batch`,
    customId,
  );
