import { invalidRequest } from '../../core/rerank-error.js';
import { describeJsonValue, type JsonObject } from '../wire-fields.js';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of one content item: a string, or `{type: 'text', text}`; images and anything else are a 400. */
function itemText(item: unknown, param: string): string {
  if (typeof item === 'string') return item;
  if (isObject(item)) {
    const type = item['type'];
    if ((type === 'text' || type === undefined) && typeof item['text'] === 'string') return item['text'];
    if (typeof type === 'string' && type !== 'text') {
      throw invalidRequest(`${param} is a "${type}" item; only text items can be reranked`, param);
    }
    throw invalidRequest(`${param} must be a string or a text item {"type": "text", "text": "..."}`, param);
  }
  throw invalidRequest(`${param} must be a string or a text item, got ${describeJsonValue(item)}`, param);
}

/**
 * Llama Stack's InterleavedContent as one text: a string, a text item, or a list of them joined with a
 * space (as llama_stack's `interleaved_content_as_str` does). Image items cannot be scored by a text reranker.
 */
export function readInterleavedText(value: unknown, param: string): string {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  if (Array.isArray(value)) {
    if (value.length === 0) throw invalidRequest(`${param} must not be an empty list`, param);
    return value.map((item: unknown, i) => itemText(item, `${param}[${i}]`)).join(' ');
  }
  return itemText(value, param);
}

/** One rerank candidate of the alpha inference API: a string or a single content item (not a list). */
export function readContentItemText(value: unknown, param: string): string {
  if (Array.isArray(value)) throw invalidRequest(`${param} must be a string or a text item, got an array`, param);
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  return itemText(value, param);
}
