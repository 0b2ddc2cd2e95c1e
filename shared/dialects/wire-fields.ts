import { echoText } from '../core/echo-text.js';
import { invalidRequest } from '../core/rerank-error.js';
import { findJsonSyntaxError } from './json-syntax-error.js';
import type { RerankDocument } from '../core/rerank-request.js';

/**
 * Readers for untrusted JSON. Each one either returns a value of the promised type or throws an
 * invalid_request error naming the field as the client spelled it (`param`).
 */
export type JsonObject = Record<string, unknown>;

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/** How a value reads in an error message: `null`, `an array`, `an object`, `a number`... */
export const describeJsonValue = describe;

/** Deeper JSON than any rerank request needs; beyond it echoing documents back would exhaust the stack. */
const MAX_JSON_DEPTH = 64;

/** Nesting depth of parsed JSON, measured without recursion (the value may be arbitrarily deep). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function parseJsonText(text: string, param: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    const at = findJsonSyntaxError(text);
    throw invalidRequest(`${param} is not valid JSON${at === undefined ? '' : `: ${at.summary}`}`, param);
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) throw invalidRequest(`${param} is nested more than ${MAX_JSON_DEPTH} levels deep`, param);
  return value;
}

export function expectObject(value: unknown, param: string): JsonObject {
  if (value === undefined) throw invalidRequest(`${param} is required`, param);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest(`${param} must be a JSON object, got ${describe(value)}`, param);
  }
  return value as JsonObject;
}

/** A required string; absent or `null` is `<param> is required`. */
export function stringValue(value: unknown, param: string): string {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  if (typeof value !== 'string') throw invalidRequest(`${param} must be a string, got ${describe(value)}`, param);
  return value;
}

/** An optional string; `null` is treated as absent, as Python clients send `None` for "unset" (so for every optional reader). */
export function optionalStringValue(value: unknown, param: string): string | undefined {
  return value === undefined || value === null ? undefined : stringValue(value, param);
}

export function optionalBooleanValue(value: unknown, param: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidRequest(`${param} must be a boolean, got ${describe(value)}`, param);
  return value;
}

export function optionalNumberValue(value: unknown, param: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidRequest(`${param} must be a finite number, got ${describe(value)}`, param);
  }
  return value;
}

/** Integers at or above `min` (and safe: beyond 2^53 an integer is not what the client sent). */
export function optionalIntegerValue(value: unknown, param: string, min: number): number | undefined {
  const number = optionalNumberValue(value, param);
  if (number === undefined) return undefined;
  if (!Number.isSafeInteger(number) || number < min) throw invalidRequest(`${param} must be an integer >= ${min}`, param);
  return number;
}

export const readString = (obj: JsonObject, key: string, param: string): string => stringValue(obj[key], param);

export const readOptionalString = (obj: JsonObject, key: string, param: string): string | undefined => optionalStringValue(obj[key], param);

export const readOptionalBoolean = (obj: JsonObject, key: string, param: string): boolean | undefined =>
  optionalBooleanValue(obj[key], param);

export const readOptionalNumber = (obj: JsonObject, key: string, param: string): number | undefined => optionalNumberValue(obj[key], param);

export const readOptionalInteger = (obj: JsonObject, key: string, param: string, min: number): number | undefined =>
  optionalIntegerValue(obj[key], param, min);

/**
 * Documents as strings, or as objects carrying `text` (Cohere / Jina style). Objects without
 * `text` are rejected rather than guessed at.
 */
export function readDocuments(value: unknown, param: string): RerankDocument[] {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describe(value)}`, param);
  return value.map((item: unknown, i): RerankDocument => {
    if (typeof item === 'string') return { text: item };
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const text = (item as JsonObject)['text'];
      if (typeof text === 'string') return { text, source: item as JsonObject };
      throw invalidRequest(`${param}[${i}] must be a string or an object with a string "text" field`, `${param}[${i}]`);
    }
    throw invalidRequest(`${param}[${i}] must be a string, got ${describe(item)}`, `${param}[${i}]`);
  });
}

/** Documents of APIs that take strings only (Cohere v2, Voyage); `hint` ends the message of a non-string item. */
export function readStringDocuments(value: unknown, param: string, hint = ''): string[] {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array of strings, got ${describe(value)}`, param);
  return value.map((item: unknown, i) => {
    if (typeof item !== 'string') throw invalidRequest(`${param}[${i}] must be a string, got ${describe(item)}${hint}`, `${param}[${i}]`);
    return item;
  });
}

/** An optional array of strings; `null` is absent. Empty arrays are returned as-is (callers decide). */
export function optionalStringArrayValue(value: unknown, param: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array of strings, got ${describe(value)}`, param);
  return value.map((item: unknown, i) => {
    if (typeof item !== 'string') throw invalidRequest(`${param}[${i}] must be a string, got ${describe(item)}`, `${param}[${i}]`);
    return item;
  });
}

export const readOptionalStringArray = (obj: JsonObject, key: string, param: string): string[] | undefined =>
  optionalStringArrayValue(obj[key], param);

/** A field value as Cohere serializes it for `rank_fields`: strings as-is, everything else as JSON. */
const fieldText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Cohere v1 `rank_fields`: each document (an object; a string counts as `{text}`) is scored as the listed
 * fields serialized as `field: value` lines in the given order. A listed field a document lacks is a 400,
 * not a silent empty line. The object is kept as `source`, so returned documents are what the client sent.
 */
export function readRankFieldDocuments(value: unknown, param: string, fields: readonly string[]): RerankDocument[] {
  if (value === undefined || value === null) throw invalidRequest(`${param} is required`, param);
  if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describe(value)}`, param);
  return value.map((item: unknown, i): RerankDocument => {
    const isObject = typeof item === 'object' && item !== null && !Array.isArray(item);
    if (typeof item !== 'string' && !isObject) {
      throw invalidRequest(`${param}[${i}] must be an object or a string, got ${describe(item)}`, `${param}[${i}]`);
    }
    const source: JsonObject = isObject ? (item as JsonObject) : { text: item };
    const lines = fields.map((field) => {
      const fieldValue = source[field];
      if (fieldValue === undefined || fieldValue === null) {
        throw invalidRequest(`${param}[${i}] has no field "${echoText(field)}" named in rank_fields`, `${param}[${i}].${field}`);
      }
      return `${field}: ${fieldText(fieldValue)}`;
    });
    // A string document keeps `{text}` as its source so a returned document is the string sent, not the serialization.
    return { text: lines.join('\n'), source };
  });
}
