import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import {
  expectObject,
  parseJsonText,
  readDocuments,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
} from '../../../shared/dialects/wire-fields.js';
import { expectInvalid } from './dialect-test-helpers.js';

describe('parseJsonText', () => {
  it.each([
    ['{"query": "q", "candidates": ["a"]}', { query: 'q', candidates: ['a'] }],
    ['[1, 2]', [1, 2]],
    ['"text"', 'text'],
    ['null', null],
    ['  42 ', 42],
  ])('decodes %j', (text, expected) => {
    expect(parseJsonText(text, 'messages[0].content')).toStrictEqual(expected);
  });

  it.each(['', 'not json', '{query: "q"}', "{'query': 'q'}", '{"a": 1,}', '{"a": NaN}', '[1, 2'])('rejects %j naming the param', (text) => {
    const error = expectInvalid(() => parseJsonText(text, 'messages[0].content'), 'messages[0].content');

    expect(error.message).toContain('messages[0].content');
    expect(error.message).toContain('JSON');
  });
});

describe('expectObject', () => {
  it('returns the very object it was given', () => {
    const obj = { query: 'q' };

    expect(expectObject(obj, 'body')).toBe(obj);
    expect(expectObject({}, 'body')).toStrictEqual({});
  });

  it.each([
    ['null', null, 'got null'],
    ['an array', [], 'got an array'],
    ['a string', '{}', 'got a string'],
    ['a number', 1, 'got a number'],
    ['a boolean', true, 'got a boolean'],
  ])('rejects %s', (_name, value, described) => {
    const error = expectInvalid(() => expectObject(value, 'input'), 'input');

    expect(error.message).toContain('input must be a JSON object');
    expect(error.message).toContain(described);
  });
});

it('expectObject names an absent object as required', () => {
  const error = expectInvalid(() => expectObject(undefined, 'input'), 'input');
  expect(error.message).toBe('input is required');
});

describe('readString', () => {
  it('returns strings, including the empty string (emptiness is a validation rule, not a type error)', () => {
    expect(readString({ query: 'python http library' }, 'query', 'query')).toBe('python http library');
    expect(readString({ query: '' }, 'query', 'query')).toBe('');
  });

  it.each([
    ['missing', {}, 'is required'],
    ['null', { query: null }, 'is required'],
    ['a number', { query: 3 }, 'must be a string'],
    ['a boolean', { query: false }, 'must be a string'],
    ['an array', { query: ['q'] }, 'must be a string'],
    ['an object', { query: { text: 'q' } }, 'must be a string'],
  ])('rejects %s, naming the param as spelled by the client', (_name, obj, message) => {
    const error = expectInvalid(() => readString(obj, 'query', 'input.query'), 'input.query');

    expect(error.message).toContain(message);
    expect(error.message).toContain('input.query');
  });
});

describe('readOptionalString', () => {
  it('treats absent and null as absent', () => {
    expect(readOptionalString({}, 'model', 'model')).toBeUndefined();
    expect(readOptionalString({ model: null }, 'model', 'model')).toBeUndefined();
  });

  it('returns strings as they are', () => {
    expect(readOptionalString({ model: 'RerankService' }, 'model', 'model')).toBe('RerankService');
    expect(readOptionalString({ model: '' }, 'model', 'model')).toBe('');
  });

  it.each([1, true, ['m'], { id: 'm' }])('rejects %j', (value) => {
    const error = expectInvalid(() => readOptionalString({ model: value }, 'model', 'model'), 'model');

    expect(error.message).toContain('must be a string');
  });
});

describe('readOptionalBoolean', () => {
  it('treats absent and null as absent, and returns both booleans', () => {
    expect(readOptionalBoolean({}, 'return_documents', 'return_documents')).toBeUndefined();
    expect(readOptionalBoolean({ return_documents: null }, 'return_documents', 'return_documents')).toBeUndefined();
    expect(readOptionalBoolean({ return_documents: true }, 'return_documents', 'return_documents')).toBe(true);
    expect(readOptionalBoolean({ return_documents: false }, 'return_documents', 'return_documents')).toBe(false);
  });

  it.each(['true', 'false', 1, 0, [], {}])('rejects %j instead of guessing truthiness', (value) => {
    const error = expectInvalid(
      () => readOptionalBoolean({ return_documents: value }, 'return_documents', 'parameters.return_documents'),
      'parameters.return_documents',
    );

    expect(error.message).toContain('must be a boolean');
  });
});

describe('readOptionalNumber', () => {
  it('treats absent and null as absent', () => {
    expect(readOptionalNumber({}, 'rerank_threshold', 'rerank_threshold')).toBeUndefined();
    expect(readOptionalNumber({ rerank_threshold: null }, 'rerank_threshold', 'rerank_threshold')).toBeUndefined();
  });

  it.each([0, -0.5, 0.95, -3.203111410140991, 1e300, -Number.MAX_VALUE])('returns the finite number %d', (value) => {
    expect(readOptionalNumber({ rerank_threshold: value }, 'rerank_threshold', 'rerank_threshold')).toBe(value);
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['a numeric string', '0.5'],
    ['the string "NaN"', 'NaN'],
    ['the string "Infinity"', 'Infinity'],
    ['a boolean', true],
    ['an array', [0.5]],
    ['an object', { value: 0.5 }],
  ])('rejects %s', (_name, value) => {
    const error = expectInvalid(
      () => readOptionalNumber({ rerank_threshold: value }, 'rerank_threshold', 'rerank_threshold'),
      'rerank_threshold',
    );

    expect(error.message).toContain('must be a finite number');
  });
});

describe('readOptionalInteger', () => {
  it('treats absent and null as absent', () => {
    expect(readOptionalInteger({}, 'top_n', 'top_n', 0)).toBeUndefined();
    expect(readOptionalInteger({ top_n: null }, 'top_n', 'top_n', 0)).toBeUndefined();
  });

  it('accepts integers at and above the minimum, including 3.0 and the largest safe integer', () => {
    expect(readOptionalInteger({ top_n: 0 }, 'top_n', 'top_n', 0)).toBe(0);
    expect(readOptionalInteger({ top_n: 3.0 }, 'top_n', 'top_n', 0)).toBe(3);
    expect(readOptionalInteger({ batch_size: 1 }, 'batch_size', 'batch_size', 1)).toBe(1);
    expect(readOptionalInteger({ top_n: Number.MAX_SAFE_INTEGER }, 'top_n', 'top_n', 0)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ['below the minimum (0 for min 1)', 0, 1],
    ['negative', -1, 0],
    ['fractional', 1.5, 0],
    ['tiny fraction', 2.000001, 0],
    ['beyond safe integers', 2 ** 53, 0],
    ['huge', 1e300, 0],
    ['NaN', Number.NaN, 0],
    ['Infinity', Number.POSITIVE_INFINITY, 0],
    ['a numeric string', '3', 0],
    ['a boolean', true, 0],
  ])('rejects %s', (_name, value, min) => {
    expectInvalid(() => readOptionalInteger({ top_k: value }, 'top_k', 'top_k', min), 'top_k');
  });

  it('states the minimum in its message', () => {
    const error = expectInvalid(
      () => readOptionalInteger({ batch_size: 0 }, 'batch_size', 'parameters.batch_size', 1),
      'parameters.batch_size',
    );

    expect(error.message).toContain('>= 1');
  });
});

describe('readDocuments', () => {
  it('reads string documents as {text} with no source key', () => {
    const documents = readDocuments(['urllib', 'requests', ''], 'documents');

    expect(documents).toStrictEqual([{ text: 'urllib' }, { text: 'requests' }, { text: '' }]);
    expect(documents.every((d) => !Object.hasOwn(d, 'source'))).toBe(true);
  });

  it('reads object documents as their text, keeping the very object as source', () => {
    const doc = { text: 'httpx is modern', title: 'httpx', meta: { stars: 1 } };

    const [read] = readDocuments([doc], 'documents');

    expect(read?.text).toBe('httpx is modern');
    expect(read?.source).toBe(doc);
  });

  it('reads an empty list as empty (emptiness is a validation rule)', () => {
    expect(readDocuments([], 'candidates')).toStrictEqual([]);
  });

  it.each([
    ['undefined', undefined, 'candidates', 'is required'],
    ['null', null, 'candidates', 'is required'],
    ['a string', 'a', 'candidates', 'must be an array'],
    ['an object', { text: 'a' }, 'candidates', 'must be an array'],
    ['a number', 3, 'candidates', 'must be an array'],
    ['a number item', ['a', 1], 'candidates[1]', 'must be a string'],
    ['a null item', [null], 'candidates[0]', 'must be a string'],
    ['a boolean item', ['a', 'b', true], 'candidates[2]', 'must be a string'],
    ['an array item', [['a']], 'candidates[0]', 'must be a string'],
    ['an object item without text', [{ content: 'a' }], 'candidates[0]', '"text"'],
    ['an object item with non-string text', [{ text: 1 }], 'candidates[0]', '"text"'],
    ['an object item with null text', [{ text: null }], 'candidates[0]', '"text"'],
  ])('rejects %s, naming %s', (_name, value, param, message) => {
    const error = expectInvalid(() => readDocuments(value, 'candidates'), param);

    expect(error.message).toContain(message);
  });

  it('every reader throws RerankError, never a plain TypeError', () => {
    const attempts: (() => unknown)[] = [
      () => readDocuments({}, 'documents'),
      () => readString({ query: 1 }, 'query', 'query'),
      () => readOptionalInteger({ top_n: -1 }, 'top_n', 'top_n', 0),
      () => expectObject(null, 'body'),
      () => parseJsonText('{', 'content'),
    ];

    for (const attempt of attempts) expect(attempt).toThrow(RerankError);
  });
});
