import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../../shared/dialects/json-syntax-error.js';

/** V8 names the position for most syntax errors (its wording for the others quotes an excerpt instead). */
function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const match = /at position (\d+)/.exec((error as Error).message);
    if (match) return Number(match[1]);
    return /end of JSON input/.test((error as Error).message) ? text.length : -1;
  }
}

describe('findJsonSyntaxError', () => {
  it('names the first character that cannot continue the text, by line and column', () => {
    expect(findJsonSyntaxError('{"query": "q", "documents": ["a",]}')).toMatchObject({
      offset: 33,
      line: 1,
      column: 34,
      summary: 'unexpected character "]" at line 1, column 34',
    });
    expect(findJsonSyntaxError('{\n  "query": "q"\n  "documents": []\n}')).toMatchObject({
      line: 3,
      column: 3,
      summary: 'unexpected character "\\"" at line 3, column 3',
    });
    expect(findJsonSyntaxError('{"query": "q"')?.summary).toBe('it ends early, at line 1, column 14');
    expect(findJsonSyntaxError('   ')?.summary).toBe('it is empty');
    expect(findJsonSyntaxError('{"a": "b\u0001"}')?.summary).toBe('unexpected control character U+0001 at line 1, column 9');
    expect(findJsonSyntaxError("{'a': 1}")?.summary).toBe('unexpected character "\'" at line 1, column 2');
    expect(findJsonSyntaxError('[tru]')?.offset).toBe(4);
    expect(findJsonSyntaxError('[-x]')?.offset).toBe(2);
    expect(findJsonSyntaxError('["\\x"]')?.offset).toBe(3);
    expect(findJsonSyntaxError('{"a":1}x')?.offset).toBe(7);
  });

  it('accepts every text JSON.parse accepts', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(0, 2),
        (value, indent) => findJsonSyntaxError(JSON.stringify(value, null, indent)) === undefined,
      ),
    );
  });

  it('finds an error wherever JSON.parse finds one, at the position V8 names when it names one', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom(',', ']', '}', '"', ':', 'x', '\\', '\n', '1', '{', '\u0002'))
      .map(([text, at, c]) => {
        const k = at % (text.length + 1);
        return text.slice(0, k) + c + text.slice(k);
      });
    fc.assert(
      fc.property(mutated, (text) => {
        const v8 = v8Position(text);
        const ours = findJsonSyntaxError(text);
        if (v8 === undefined) return ours === undefined;
        return ours !== undefined && (v8 === -1 || ours.offset === v8);
      }),
      { numRuns: 2000 },
    );
  });

  it('is linear: a deeply nested or very long text is one pass', () => {
    expect(findJsonSyntaxError('['.repeat(1_000_000))?.summary).toBe('it ends early, at line 1, column 1000001');
    expect(findJsonSyntaxError(`[${'1,'.repeat(500_000)}]`)?.offset).toBe(1_000_001);
  });
});
