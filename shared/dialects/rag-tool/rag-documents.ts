import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { readInterleavedText } from '../llama-stack/interleaved-content.js';
import { describeJsonValue, type JsonObject } from '../wire-fields.js';

/**
 * Llama Stack RAGDocuments (`{document_id, content, mime_type?, metadata}`) or plain strings. The scored text
 * is the content (InterleavedContent); the object is kept as `source` so boost fields such as
 * `metadata.source` can match. URL contents (`{uri}`) would need fetching and are refused.
 */
export function readRagDocuments(value: unknown, param: string): RerankDocument[] {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describeJsonValue(value)}`, param);
  return value.map((item: unknown, i): RerankDocument => {
    if (typeof item === 'string') return { text: item };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidRequest(`${param}[${i}] must be a RAGDocument object or a string, got ${describeJsonValue(item)}`, `${param}[${i}]`);
    }
    const document = item as JsonObject;
    const content = document['content'];
    if (typeof content === 'object' && content !== null && 'uri' in content) {
      throw invalidRequest(`${param}[${i}].content is a URL; send the document text instead`, `${param}[${i}].content`);
    }
    return { text: readInterleavedText(content, `${param}[${i}].content`), source: document };
  });
}
